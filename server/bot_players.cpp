#include "server/bot_players.hpp"

#include "server/lobby.hpp"

namespace server {

Member bot_member(int level) {
    const std::string digit = std::to_string(level);
    Member m{"c_" + digit, "Computer (level " + digit + ")"};
    m.bot_level = level;
    return m;
}

std::optional<int> bot_level_of(std::string_view player_id) {
    // Guests are "p_" and 16 characters: "c_" and one digit is nobody else's.
    if (player_id.size() != 3 || player_id.substr(0, 2) != "c_") return std::nullopt;
    const int level = player_id[2] - '0';
    if (level < 1 || level > max_bot_level) return std::nullopt;
    return level;
}

void write_bot_field(std::string_view player_id, protocol::JsonText& out) {
    if (auto level = bot_level_of(player_id))
        out.key("bot").begin_object().key("level").number(*level).end_object();
}

}  // namespace server
