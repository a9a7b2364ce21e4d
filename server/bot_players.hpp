#pragma once
// Computer players as the server knows them (docs/bot.md, "In the server"): one fixed player
// per level, "c_1" .. "c_5", the same in every game (and one players row each in the store,
// migrations/0003_bots.sql), never rated, never queued, played by the match itself.

#include <optional>
#include <string>
#include <string_view>

#include "protocol/json_text.hpp"

namespace server {

struct Member;

/// The strongest level; levels are 1..max_bot_level.
inline constexpr int max_bot_level = 5;

/// The computer player of `level` (1-5): id "c_<level>", name "Computer (level <level>)".
Member bot_member(int level);
/// The level of the computer player with this id, or nullopt for a person.
std::optional<int> bot_level_of(std::string_view player_id);
/// Writes the `bot` member of a player object ({"level":n}) when `player_id` is a computer
/// player; nothing for a person. Call between a player object's other keys.
void write_bot_field(std::string_view player_id, protocol::JsonText& out);

}  // namespace server
