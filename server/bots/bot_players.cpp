#include "server/bots/bot_players.hpp"

#include "server/rooms/lobby.hpp"

namespace server {

Member bot_member(int level, int number) {
    const std::string digit = std::to_string(level);
    const std::string nth = std::to_string(number);
    Member m{number == 1 ? "c_" + digit : "c_" + digit + "_" + nth,
             (number == 1 ? "Computer" : "Computer " + nth) + " (level " + digit + ")"};
    m.bot_level = level;
    return m;
}

std::optional<int> bot_level_of(std::string_view player_id) {
    // Guests are "p_" and 16 characters: "c_", a digit and maybe "_2" or "_3" is nobody else's.
    if (player_id.size() != 3 && player_id.size() != 5) return std::nullopt;
    if (player_id.substr(0, 2) != "c_") return std::nullopt;
    const int level = player_id[2] - '0';
    if (level < 1 || level > max_bot_level) return std::nullopt;
    if (player_id.size() == 5) {
        const int number = player_id[4] - '0';
        if (player_id[3] != '_' || number < 2 || number > max_bots) return std::nullopt;
    }
    return level;
}

void write_bot_field(std::string_view player_id, protocol::JsonText& out) {
    if (auto level = bot_level_of(player_id))
        out.key("bot").begin_object().key("level").number(*level).end_object();
}

}  // namespace server
