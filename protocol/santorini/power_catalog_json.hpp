#pragma once
// The power catalog as the client reads it (GET /api/powers, docs/api.md "Powers"): the
// engine's card facts (engine/santorini/power_catalog.hpp) with the one-line texts
// (protocol/santorini/power_texts.hpp). The client keeps no copy of its own.

#include "protocol/json/basic_json.hpp"

namespace protocol {

/// {"powers": [{"id", "number", "name", "category", "players", "golden_fleece", "banned",
/// "text"}, ...]}: every power in rulebook order; "id" is the key steps and views use
/// ("EuropaTalus"), "banned" the ids the rulebook bans it with (symmetric).
const nlohmann::json& power_catalog_json();

}  // namespace protocol
