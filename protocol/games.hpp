#pragma once
// The kinds of game the server hosts, and how a match of each begins. The one place that
// lists them: Santorini and Splendor, and nowhere in server/.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/game.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"

namespace protocol {

/// A new game for validated lobby settings (their `game` names the kind), with all its
/// randomness from `seed`; `challenger` is a seat drawn at random by the caller: Santorini's
/// challenger drafts and names the start player, Splendor's plays first. Or why the settings
/// cannot make a game.
std::variant<std::unique_ptr<Game>, std::string> start_game(const LobbySettings& settings,
                                                            std::uint64_t seed, int challenger);

/// The canonical form of a step of the kind of game `game` names ("santorini", "splendor"),
/// or why it cannot be one (Game::play refuses such a step as malformed in a live game).
std::variant<nlohmann::json, std::string> canonical_step_of(std::string_view game,
                                                            const nlohmann::json& step);

}  // namespace protocol
