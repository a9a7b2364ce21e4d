#pragma once
// A lobby's chat (docs/protocol.md, "Lobby chat"): the newest lines its members wrote, kept in
// memory with the lobby (lobbies are not stored; a fleet's leader saves its rooms, chats
// included, for the next leader: server/rooms/room_snapshot.hpp) and bounded in lines and
// bytes, so a member who joins or reloads reads the conversation in the `lobby` event. Plain
// bookkeeping, like LobbyBook (tests/server/unit/lobby_chat_test.cpp).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>

#include "protocol/json/basic_json.hpp"

namespace server {

/// One line of a lobby's chat, as members receive it.
struct LobbyChatLine {
    std::uint64_t n = 0;     ///< the lobby's line number, from 1
    std::int64_t at_ms = 0;  ///< when it was written, ms since the Unix epoch
    std::string player;      ///< the writer's id
    std::string name;        ///< the writer's name in the lobby's seats
    std::string text;        ///< checked by utf8::chat_line

    /// {"n","at_ms","player","name","text"}.
    nlohmann::json to_json() const;
    /// The line to_json wrote (throws nlohmann's errors on another shape).
    static LobbyChatLine from_json(const nlohmann::json& j);
};

/// The newest lines of one lobby, oldest first: at most max_lines lines and max_bytes bytes of
/// their JSON (the newest line always stays).
class LobbyChatLog {
  public:
    /// The most lines kept.
    static constexpr std::size_t max_lines = 30;
    /// The most bytes of lines (their JSON) kept.
    static constexpr std::size_t max_bytes = 8 * 1024;

    /// Numbers `line` after the last one, keeps it, and drops the oldest lines beyond the
    /// bounds; returns the line as kept.
    const LobbyChatLine& add(LobbyChatLine line);
    /// Keeps `line` with its own number (a chat read back from a saved document: the next add
    /// numbers after the highest), dropping the oldest lines beyond the bounds as add does.
    void restore(LobbyChatLine line);
    /// The lines kept, oldest first, as a JSON array.
    nlohmann::json to_json() const;
    /// The lines kept, oldest first.
    const std::deque<LobbyChatLine>& lines() const { return lines_; }
    /// The bytes of the lines kept (their JSON).
    std::size_t bytes() const { return bytes_; }

  private:
    /// Appends `line` and drops the oldest lines beyond the bounds (the newest always stays).
    void keep(LobbyChatLine line);

    std::deque<LobbyChatLine> lines_;
    std::deque<std::size_t> sizes_;  ///< each line's JSON bytes, as lines_
    std::size_t bytes_ = 0;
    std::uint64_t last_ = 0;
};

}  // namespace server
