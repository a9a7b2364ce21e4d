#pragma once
// A one-line summary of each power in our own words, for the client's cards and draft (served
// with the catalog by GET /api/powers). The server decides what is legal; these only explain.

#include <string_view>

#include "engine/santorini/power_catalog.hpp"

namespace protocol {

/// The one-line summary of `id` (never empty for a power of the catalog; "" for None).
std::string_view power_text(santorini::PowerId id);

}  // namespace protocol
