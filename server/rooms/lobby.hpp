#pragma once
// Lobbies: a table being gathered before a match. The rules of who may join, leave, kick and
// start live here as plain bookkeeping (no threads, no sockets); the hub runs it on its lobby
// strand and tells the people concerned.

#include <chrono>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "server/limits/keyed_buckets.hpp"
#include "server/rooms/lobby_chat.hpp"

namespace server {

/// A player as others see them.
struct Member {
    std::string id;
    std::string name;
    int bot_level = 0;  ///< a computer player's level (server/bots/bot_players.hpp); 0: a person
};

/// One lobby: seats fill in join order, the host in seat 0; the last `settings.bots` seats are
/// the computer's from the start (they are not in `seats`, which holds the people).
struct Lobby {
    std::string id;    ///< "l_..."
    std::string code;  ///< invite code, shown to members only
    std::string host;  ///< the host's player id
    protocol::LobbySettings settings;
    std::vector<Member> seats;  ///< the people, in join order
    /// Players the host kicked: they may not come back to this lobby, by id or by code (a
    /// kick that a rejoin undoes would protect nobody).
    std::set<std::string, std::less<>> kicked = {};
    std::uint64_t created = 0;  ///< creation order, for stable lists
    /// What the members said, newest lines only; members alone read it (to_json(true)).
    LobbyChatLog chat = {};

    bool full() const { return static_cast<int>(seats.size()) + settings.bots >= settings.players; }
    /// Every seat in seat order once full: the people, then the computer players.
    std::vector<Member> table() const;
    /// True if `player` sits in this lobby.
    bool has(std::string_view player) const;
    /// {id, code, host, settings, seats:[{player:{id,name[,bot]}}|null], status, chat}: `code`
    /// and `chat` only `for_members` (never in the public list).
    nlohmann::json to_json(bool for_members) const;
};

/// Why a lobby request was refused.
struct LobbyError {
    protocol::ErrorCode code;
    std::string message;
};

/// What leaving or being kicked did to the lobby.
struct Departure {
    Lobby lobby;          ///< the lobby after the change (as it was, if it closed)
    bool closed = false;  ///< the host left: the lobby is gone
};

/// Every waiting lobby, indexed by id, invite code and member.
class LobbyBook {
  public:
    /// A new lobby hosted by `host` (seat 0), or already_in_game if the host waits elsewhere.
    std::variant<const Lobby*, LobbyError> create(Member host,
                                                  const protocol::LobbySettings& settings);
    /// `player` takes the next seat of lobby `id` (public or private). Joining a lobby one is
    /// already in changes nothing and succeeds; a player the host kicked is refused
    /// (not_authorized).
    std::variant<const Lobby*, LobbyError> join(std::string_view id, Member player);
    /// Like `join`, finding the lobby by its invite code (case-insensitive).
    std::variant<const Lobby*, LobbyError> join_by_code(std::string_view code, Member player);
    /// `player` leaves; if it is the host the lobby closes.
    std::variant<Departure, LobbyError> leave(std::string_view id, std::string_view player);
    /// The host removes `player`, who may not join this lobby again.
    std::variant<Departure, LobbyError> kick(std::string_view id, std::string_view host,
                                             std::string_view player);
    /// Checks that `player` may start lobby `id` now (host, full).
    std::variant<const Lobby*, LobbyError> check_start(std::string_view id,
                                                       std::string_view player) const;
    /// A chat line from `player` in lobby `id` (docs/protocol.md, "`lobby.chat`"), written at
    /// `at_ms`: refused with unknown_lobby, not_authorized (not seated there), invalid_field (the
    /// text: utf8::chat_line) or rate_limited (chat_burst lines at once, then one a second, per
    /// person); else the line as the lobby keeps it.
    std::variant<LobbyChatLine, LobbyError> chat(
        std::string_view id, std::string_view player, std::string_view text, std::int64_t at_ms,
        std::chrono::steady_clock::time_point now = std::chrono::steady_clock::now());
    /// Lines a person may write at once (then one a second), as in a match's chat.
    static constexpr double chat_burst = 5;
    /// Removes a lobby (started) and returns it; `id` must exist.
    Lobby take(std::string_view id);

    /// The lobby with this id, or null.
    const Lobby* find(std::string_view id) const;
    /// The lobby `player` waits in, or null.
    const Lobby* lobby_of(std::string_view player) const;
    /// Public lobbies in creation order, without invite codes.
    nlohmann::json public_json() const;
    /// Every lobby (public and private) in creation order: what a fleet's leader saves
    /// (server/rooms/room_snapshot.hpp).
    std::vector<const Lobby*> all() const;
    /// Puts back a lobby a previous leader saved, id, code and seats as they were; its
    /// creation order follows the ones already here. False (and nothing changes) when its id
    /// or code is taken, a member waits in another lobby, or it has no seat.
    bool restore(Lobby lobby);
    std::size_t size() const { return lobbies_.size(); }

  private:
    std::variant<const Lobby*, LobbyError> seat(Lobby& lobby, Member player);
    void erase(const Lobby& lobby);

    std::map<std::string, Lobby, std::less<>> lobbies_;
    std::map<std::string, std::string, std::less<>> by_code_;
    std::map<std::string, std::string, std::less<>> by_player_;
    std::uint64_t next_order_ = 0;
    /// Per person: the chat rate (the keyed token bucket of server/limits, as a match's chat).
    KeyedTokenBuckets<> chat_buckets_{60.0, chat_burst, 10'000};
};

}  // namespace server
