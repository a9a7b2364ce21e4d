#pragma once
// The kinds of game the server hosts, and how a match of each begins. The one place that
// lists them: Splendor is added here, beside Santorini, and nowhere in server/.

#include <cstdint>
#include <memory>
#include <string>
#include <variant>

#include "protocol/game.hpp"
#include "protocol/santorini_json.hpp"

namespace protocol {

/// A new game for validated lobby settings, with all its randomness from `seed`; `challenger`
/// is the seat that drafts and names the start player where the game has such a thing. Or why
/// the settings cannot make a game.
std::variant<std::unique_ptr<Game>, std::string> start_game(const LobbySettings& settings,
                                                            std::uint64_t seed, int challenger);

}  // namespace protocol
