#pragma once
// What other cards may need to know of Aphrodite's card: which workers it binds.

#include <cstdint>

#include "engine/santorini/state.hpp"

namespace santorini::powers {

/// Removes `workers` (bits of worker indices) from what Aphrodite's card lying on `card`
/// remembers of this turn: a view must not tell which of a hidden side's workers (Hecate's)
/// start the turn next to hers.
void aphrodite_forget(State& view, int card, std::uint32_t workers);

}  // namespace santorini::powers
