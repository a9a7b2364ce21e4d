#pragma once
// Computer players as the server knows them (docs/bot.md, "In the server"): fixed players, the
// same in every game (one players row each in the store, migrations/0003_bots.sql), never rated,
// never queued, played by the match itself. The first computer of a game at level L is "c_L";
// a second and third one at the same level in the same game are "c_L_2" and "c_L_3" (a player
// sits once in a match: the store's seats are unique by match and player).

#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_text.hpp"

namespace server {

struct Member;

/// The strongest level; levels are 1..max_bot_level.
inline constexpr int max_bot_level = 5;

/// The computers in one game, at most (the host keeps a seat of the 4).
inline constexpr int max_bots = 3;

/// The `number`th (1-3) computer player of `level` (1-5) in a game: "c_3" "Computer (level 3)",
/// then "c_3_2" "Computer 2 (level 3)", "c_3_3" "Computer 3 (level 3)".
Member bot_member(int level, int number = 1);
/// The level of the computer player with this id, or nullopt for a person.
std::optional<int> bot_level_of(std::string_view player_id);
/// Writes the `bot` member of a player object ({"level":n}) when `player_id` is a computer
/// player; nothing for a person. Call between a player object's other keys.
void write_bot_field(std::string_view player_id, protocol::JsonText& out);

}  // namespace server
