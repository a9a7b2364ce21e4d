#pragma once
// The leader's rooms as one JSON document (docs/scaling.md, "Lobbies and queues survive the
// leader"): every open lobby (id, invite code, host, settings, the people's seats in order, the
// players the host kicked, its chat) and every rated-queue place (player, queue, clock, rating,
// deviation, when they joined). A fleet's leader saves it whenever its rooms change, a chat line
// included (migrations/0008_leader_rooms.sql), and a new leader puts it back when it takes over.
// Plain data, no I/O.
//
//   {"version": 1,
//    "lobbies": [{"id", "code", "host", "settings", "seats": [{"id", "name"}], "kicked": [id],
//                 "chat": [{"n", "at_ms", "player", "name", "text"}]}],
//    "queue":   [{"player", "queue", "base_seconds", "increment_seconds", "rating",
//                 "deviation", "since_ms"}]}
#include <chrono>
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/rooms/lobby.hpp"
#include "server/rooms/matchmaker.hpp"

namespace server {

/// The rooms as read back: lobbies with their chats, queue places oldest first.
struct RoomSnapshot {
    std::vector<Lobby> lobbies;
    std::vector<QueueEntry> queue;
};

/// The document of `lobbies` (in creation order) and the waiting `queue` entries.
nlohmann::json room_snapshot_json(const LobbyBook& lobbies, const std::vector<QueueEntry>& queue);

/// Reads a document room_snapshot_json wrote. A queue place's steady join time is rebuilt from
/// its wall time (`since_ms`) against `now` and `now_ms` (the same instant on both clocks), so
/// the rating window goes on widening from when the player joined. A malformed document (or
/// another version) is an error, not an exception.
std::variant<RoomSnapshot, std::string> read_room_snapshot(
    const nlohmann::json& document, std::chrono::steady_clock::time_point now, std::int64_t now_ms);

}  // namespace server
