#include "server/rooms/lobby.hpp"

#include <algorithm>

#include "server/bots/bot_players.hpp"
#include "server/app/ids.hpp"
#include "server/text/chat_text.hpp"

namespace server {

using protocol::ErrorCode;

bool Lobby::has(std::string_view player) const {
    return std::any_of(seats.begin(), seats.end(), [&](const Member& m) { return m.id == player; });
}

std::vector<Member> Lobby::table() const {
    std::vector<Member> all = seats;
    for (int b = 0; b < settings.bots; ++b) all.push_back(bot_member(settings.bot_level, b + 1));
    return all;
}

nlohmann::json Lobby::to_json(bool for_members) const {
    using nlohmann::json;
    json j = {{"id", id}, {"host", host}, {"settings", protocol::lobby_settings_json(settings)}};
    if (for_members) j["code"] = code;
    json list = json::array();
    const int people = settings.players - settings.bots;
    for (int i = 0; i < settings.players; ++i) {
        if (i >= people) {
            const Member bot = bot_member(settings.bot_level, i - people + 1);
            list.push_back({{"player", {{"id", bot.id},
                                        {"name", bot.name},
                                        {"bot", {{"level", bot.bot_level}}}}}});
        } else if (i < static_cast<int>(seats.size())) {
            const Member& m = seats[static_cast<std::size_t>(i)];
            list.push_back({{"player", {{"id", m.id}, {"name", m.name}}}});
        } else {
            list.push_back(nullptr);
        }
    }
    j["seats"] = std::move(list);
    j["status"] = full() ? "full" : "waiting";
    if (for_members) j["chat"] = chat.to_json();
    return j;
}

std::variant<const Lobby*, LobbyError> LobbyBook::create(Member host,
                                                         const protocol::LobbySettings& settings) {
    if (lobby_of(host.id))
        return LobbyError{ErrorCode::AlreadyInGame, "you are already waiting in a lobby"};
    Lobby lobby;
    do lobby.id = random_id("l_");
    while (lobbies_.count(lobby.id));
    do lobby.code = invite_code();
    while (by_code_.count(lobby.code));
    lobby.host = host.id;
    lobby.settings = settings;
    lobby.created = next_order_++;
    by_player_[host.id] = lobby.id;
    by_code_[lobby.code] = lobby.id;
    lobby.seats.push_back(std::move(host));
    auto [it, inserted] = lobbies_.emplace(lobby.id, std::move(lobby));
    return &it->second;
}

std::variant<const Lobby*, LobbyError> LobbyBook::seat(Lobby& lobby, Member player) {
    if (lobby.has(player.id)) return &lobby;
    if (lobby.kicked.count(player.id))
        return LobbyError{ErrorCode::NotAuthorized, "the host removed you from this lobby"};
    if (lobby_of(player.id))
        return LobbyError{ErrorCode::AlreadyInGame, "you are already waiting in another lobby"};
    if (lobby.full()) return LobbyError{ErrorCode::LobbyFull, "the lobby is full"};
    by_player_[player.id] = lobby.id;
    lobby.seats.push_back(std::move(player));
    return &lobby;
}

std::variant<const Lobby*, LobbyError> LobbyBook::join(std::string_view id, Member player) {
    auto it = lobbies_.find(id);
    if (it == lobbies_.end()) return LobbyError{ErrorCode::UnknownLobby, "no such lobby"};
    return seat(it->second, std::move(player));
}

std::variant<const Lobby*, LobbyError> LobbyBook::join_by_code(std::string_view code,
                                                               Member player) {
    auto it = by_code_.find(normalize_invite_code(code));
    if (it == by_code_.end())
        return LobbyError{ErrorCode::UnknownLobby, "no lobby has this invite code"};
    return seat(lobbies_.find(it->second)->second, std::move(player));
}

std::variant<Departure, LobbyError> LobbyBook::leave(std::string_view id, std::string_view player) {
    auto it = lobbies_.find(id);
    if (it == lobbies_.end()) return LobbyError{ErrorCode::UnknownLobby, "no such lobby"};
    Lobby& lobby = it->second;
    if (!lobby.has(player))
        return LobbyError{ErrorCode::NotAuthorized, "you are not in this lobby"};
    if (lobby.host == player) {
        Departure d{take(id), true};
        return d;
    }
    std::erase_if(lobby.seats, [&](const Member& m) { return m.id == player; });
    by_player_.erase(by_player_.find(player));
    return Departure{lobby, false};
}

std::variant<Departure, LobbyError> LobbyBook::kick(std::string_view id, std::string_view host,
                                                    std::string_view player) {
    auto it = lobbies_.find(id);
    if (it == lobbies_.end()) return LobbyError{ErrorCode::UnknownLobby, "no such lobby"};
    Lobby& lobby = it->second;
    if (lobby.host != host) return LobbyError{ErrorCode::NotAuthorized, "only the host may kick"};
    if (player == host)
        return LobbyError{ErrorCode::InvalidField,
                          "the host cannot kick themselves; leave instead"};
    if (!lobby.has(player))
        return LobbyError{ErrorCode::InvalidField, "that player is not in this lobby"};
    std::erase_if(lobby.seats, [&](const Member& m) { return m.id == player; });
    by_player_.erase(by_player_.find(player));
    lobby.kicked.emplace(player);
    return Departure{lobby, false};
}

std::variant<const Lobby*, LobbyError> LobbyBook::check_start(std::string_view id,
                                                              std::string_view player) const {
    const Lobby* lobby = find(id);
    if (!lobby) return LobbyError{ErrorCode::UnknownLobby, "no such lobby"};
    if (lobby->host != player)
        return LobbyError{ErrorCode::NotAuthorized, "only the host may start"};
    if (!lobby->full()) return LobbyError{ErrorCode::WrongPhase, "the lobby is not full yet"};
    return lobby;
}

std::variant<LobbyChatLine, LobbyError> LobbyBook::chat(std::string_view id,
                                                        std::string_view player,
                                                        std::string_view text, std::int64_t at_ms,
                                                        std::chrono::steady_clock::time_point now) {
    auto it = lobbies_.find(id);
    if (it == lobbies_.end()) return LobbyError{ErrorCode::UnknownLobby, "no such lobby"};
    Lobby& lobby = it->second;
    // Seats hold people only: computer players never chat.
    auto seat = std::find_if(lobby.seats.begin(), lobby.seats.end(),
                             [&](const Member& m) { return m.id == player; });
    if (seat == lobby.seats.end())
        return LobbyError{ErrorCode::NotAuthorized, "only the lobby's members chat in it"};
    auto line = utf8::chat_line(text);
    if (auto* problem = std::get_if<utf8::ChatProblem>(&line))
        return LobbyError{ErrorCode::InvalidField, "invalid field 'text': " + problem->message};
    if (!chat_buckets_.try_take(player, now))
        return LobbyError{ErrorCode::RateLimited,
                          "too many chat lines: wait a moment before the next"};
    return lobby.chat.add(
        LobbyChatLine{0, at_ms, seat->id, seat->name, std::get<std::string>(std::move(line))});
}

Lobby LobbyBook::take(std::string_view id) {
    auto it = lobbies_.find(id);
    Lobby lobby = std::move(it->second);
    lobbies_.erase(it);
    erase(lobby);
    return lobby;
}

void LobbyBook::erase(const Lobby& lobby) {
    by_code_.erase(lobby.code);
    for (const Member& m : lobby.seats)
        if (auto p = by_player_.find(m.id); p != by_player_.end() && p->second == lobby.id)
            by_player_.erase(p);
}

const Lobby* LobbyBook::find(std::string_view id) const {
    auto it = lobbies_.find(id);
    return it == lobbies_.end() ? nullptr : &it->second;
}

const Lobby* LobbyBook::lobby_of(std::string_view player) const {
    auto it = by_player_.find(player);
    return it == by_player_.end() ? nullptr : find(it->second);
}

nlohmann::json LobbyBook::public_json() const {
    std::vector<const Lobby*> list;
    for (const auto& [id, lobby] : lobbies_)
        if (lobby.settings.is_public) list.push_back(&lobby);
    std::sort(list.begin(), list.end(),
              [](const Lobby* a, const Lobby* b) { return a->created < b->created; });
    nlohmann::json out = nlohmann::json::array();
    for (const Lobby* l : list) out.push_back(l->to_json(false));
    return out;
}

std::vector<const Lobby*> LobbyBook::all() const {
    std::vector<const Lobby*> list;
    for (const auto& [id, lobby] : lobbies_) list.push_back(&lobby);
    std::sort(list.begin(), list.end(),
              [](const Lobby* a, const Lobby* b) { return a->created < b->created; });
    return list;
}

bool LobbyBook::restore(Lobby lobby) {
    if (lobby.seats.empty() || lobby.id.empty() || lobbies_.count(lobby.id) ||
        by_code_.count(lobby.code))
        return false;
    for (const Member& m : lobby.seats)
        if (by_player_.count(m.id)) return false;
    lobby.created = next_order_++;
    for (const Member& m : lobby.seats) by_player_[m.id] = lobby.id;
    by_code_[lobby.code] = lobby.id;
    std::string id = lobby.id;
    lobbies_.emplace(std::move(id), std::move(lobby));
    return true;
}

}  // namespace server
