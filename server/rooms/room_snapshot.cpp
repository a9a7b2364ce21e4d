#include "server/rooms/room_snapshot.hpp"

#include <algorithm>

namespace server {

using nlohmann::json;

namespace {

constexpr int snapshot_version = 1;

json lobby_json(const Lobby& lobby) {
    json seats = json::array();
    for (const Member& m : lobby.seats) seats.push_back({{"id", m.id}, {"name", m.name}});
    json kicked = json::array();
    for (const auto& k : lobby.kicked) kicked.push_back(k);
    return {{"id", lobby.id},
            {"code", lobby.code},
            {"host", lobby.host},
            {"settings", protocol::lobby_settings_json(lobby.settings)},
            {"seats", std::move(seats)},
            {"kicked", std::move(kicked)},
            {"chat", lobby.chat.to_json()}};
}

json entry_json(const QueueEntry& e) {
    return {{"player", e.player},
            {"queue", e.key.queue},
            {"base_seconds", e.key.base_seconds},
            {"increment_seconds", e.key.increment_seconds},
            {"rating", e.rating},
            {"deviation", e.deviation},
            {"since_ms", e.since_ms}};
}

Lobby read_lobby(const json& j) {
    Lobby lobby;
    lobby.id = j.at("id").get<std::string>();
    lobby.code = j.at("code").get<std::string>();
    lobby.host = j.at("host").get<std::string>();
    auto settings = protocol::lobby_settings_from_json(j.at("settings"));
    if (auto* problem = std::get_if<std::string>(&settings))
        throw std::invalid_argument("lobby " + lobby.id + ": " + *problem);
    lobby.settings = std::get<protocol::LobbySettings>(std::move(settings));
    for (const json& s : j.at("seats"))
        lobby.seats.push_back(
            Member{s.at("id").get<std::string>(), s.at("name").get<std::string>(), 0});
    for (const json& k : j.at("kicked")) lobby.kicked.insert(k.get<std::string>());
    // Saved before chats were (an older leader of the same version): none.
    if (j.contains("chat"))
        for (const json& line : j.at("chat")) lobby.chat.restore(LobbyChatLine::from_json(line));
    if (lobby.seats.empty() || lobby.seats.front().id != lobby.host)
        throw std::invalid_argument("lobby " + lobby.id + ": the host is not in seat 0");
    return lobby;
}

QueueEntry read_entry(const json& j, std::chrono::steady_clock::time_point now,
                      std::int64_t now_ms) {
    QueueEntry e;
    e.player = j.at("player").get<std::string>();
    e.key.queue = j.at("queue").get<std::string>();
    e.key.base_seconds = j.at("base_seconds").get<int>();
    e.key.increment_seconds = j.at("increment_seconds").get<int>();
    e.rating = j.at("rating").get<double>();
    e.deviation = j.at("deviation").get<double>();
    e.since_ms = j.at("since_ms").get<std::int64_t>();
    // A clock that went back (another node's wall clock) counts as joining now, never later.
    e.joined = now - std::chrono::milliseconds(std::max<std::int64_t>(0, now_ms - e.since_ms));
    return e;
}

}  // namespace

json room_snapshot_json(const LobbyBook& lobbies, const std::vector<QueueEntry>& queue) {
    json list = json::array();
    for (const Lobby* lobby : lobbies.all()) list.push_back(lobby_json(*lobby));
    json places = json::array();
    for (const QueueEntry& e : queue) places.push_back(entry_json(e));
    return {
        {"version", snapshot_version}, {"lobbies", std::move(list)}, {"queue", std::move(places)}};
}

std::variant<RoomSnapshot, std::string> read_room_snapshot(
    const json& document, std::chrono::steady_clock::time_point now, std::int64_t now_ms) {
    try {
        if (document.at("version").get<int>() != snapshot_version)
            return "version " + document.at("version").dump() + " is not " +
                   std::to_string(snapshot_version);
        RoomSnapshot out;
        for (const json& l : document.at("lobbies")) out.lobbies.push_back(read_lobby(l));
        for (const json& e : document.at("queue")) out.queue.push_back(read_entry(e, now, now_ms));
        return out;
    } catch (const std::exception& e) {
        // nlohmann's type and key errors, and the checks above.
        return std::string(e.what());
    }
}

}  // namespace server
