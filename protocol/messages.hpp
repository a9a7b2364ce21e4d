#pragma once
// Protocol v1 messages: the closed set a client may send, parsed in one place, and the
// builders of everything the server sends. Every parse failure is a value, never a throw.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/json/basic_json.hpp"
#include "protocol/lobby_settings.hpp"

namespace protocol {

/// The longest ref a client may send (a string's bytes), and the longest lobby, match or player
/// id: longer ones are refused as malformed.
inline constexpr std::size_t max_ref_length = 64;
inline constexpr std::size_t max_id_length = 64;

inline constexpr int version = 1;

/// Machine-readable error codes (docs/protocol.md lists when each is sent).
enum class ErrorCode {
    MalformedJson, UnknownType, MissingField, InvalidField, ProtocolVersion, NotAuthenticated,
    WrongPhase, NotYourTurn, IllegalStep, UnknownLobby, UnknownMatch, NotAuthorized, LobbyFull,
    RateLimited, FrameTooLarge, Busy, Unavailable, AlreadyInGame, AlreadyQueued, UnknownQueue,
    TooManyMatches, NotClaimable,
};
/// The last ErrorCode (the enum is dense from 0): for tables indexed by code.
inline constexpr ErrorCode last_error_code = ErrorCode::NotClaimable;
/// "malformed_json", "unknown_type", ...
std::string_view code_name(ErrorCode code);

/// A client's request id, echoed in replies: a string (at most 64 chars) or an integer.
using Ref = std::optional<nlohmann::json>;

struct Hello {
    int protocol = 0;
    std::string token;
    /// The client takes a request's acknowledgement as the `ref` of the match patch it caused
    /// (docs/protocol.md, "Acknowledgement in the patch"): one frame less per step.
    bool ack_in_patch = false;
};
struct Ping {};
struct LobbyCreate { LobbySettings settings; };
struct LobbyJoin { std::string lobby; std::string code; };  ///< one of the two is set
struct LobbyLeave { std::string lobby; };
struct LobbyKick { std::string lobby; std::string player; };
struct LobbyStart { std::string lobby; };
/// lobby.chat: a chat line from a member to the lobby's members (docs/protocol.md,
/// "`lobby.chat`"); `text` is judged by the server, as match.chat's.
struct LobbyChat {
    std::string lobby;
    std::string text;
};
struct LobbiesSubscribe { bool on = true; };   ///< lobbies.subscribe / lobbies.unsubscribe
struct MatchesSubscribe { bool on = true; };   ///< matches.subscribe / matches.unsubscribe
/// match.open; `code`: a private match's invite code, which a spectator needs ("" if none).
struct MatchOpen { std::string match; std::optional<std::uint64_t> since; std::string code = {}; };
struct MatchClose { std::string match; };
/// match.step: `step` is any JSON value, judged by the match's game alone (Game::play).
struct MatchStep { std::string match; nlohmann::json step; };
struct MatchResign { std::string match; };
struct MatchAbort { std::string match; };
/// match.claim: end the match now as the abandonment rule would for the away `seat`
/// (docs/protocol.md, "Abandonment"): `win` (the seat loses) or `abort` (nobody wins).
struct MatchClaim {
    enum class What { Win, Abort };
    std::string match;
    int seat = 0;
    What what = What::Win;
};
/// match.rematch: after the end, `accept` offers a rematch or accepts the one offered (the
/// same settings, the seats moved one place); false declines it (docs/protocol.md, "Rematch").
struct MatchRematch {
    std::string match;
    bool accept = true;
};
/// match.chat: a chat line from the sender, to the players' channel if they sit in the match,
/// else to the spectators' (docs/protocol.md, "Chat"); `text` is judged by the server.
struct MatchChat {
    std::string match;
    std::string text;
};
/// queue.join: a rated queue by name and its real-time clock; whether the queue exists and
/// offers the clock is the server's to say (server/rooms/queue_catalog.hpp).
struct QueueJoin { std::string queue; int base_seconds = 0; int increment_seconds = 0; };
struct QueueLeave {};

/// Everything a client may send.
using ClientBody = std::variant<Hello, Ping, LobbyCreate, LobbyJoin, LobbyLeave, LobbyKick, LobbyStart, LobbyChat,
                                LobbiesSubscribe, MatchesSubscribe, MatchOpen, MatchClose, MatchStep,
                                MatchResign, MatchAbort, MatchClaim, MatchRematch, MatchChat,
                                QueueJoin, QueueLeave>;
struct ClientMessage {
    ClientBody body;
    Ref ref;
};

/// Why a client message was refused.
struct ProtocolError {
    ErrorCode code;
    std::string message;
    Ref ref;
};

/// Parses one text frame. Any input gives a message or an error, never an exception. A
/// match.step of the plain shape is read without a tree (protocol/step_frame.hpp), everything
/// else as parse_client_message_by_tree does.
std::variant<ClientMessage, ProtocolError> parse_client_message(std::string_view text);
/// The same parse, always through a JSON tree: the reference the fast reader is tested against.
std::variant<ClientMessage, ProtocolError> parse_client_message_by_tree(std::string_view text);

// ---- server -> client ----
/// {"type":"error","code":...,"message":...,"ref":...}
std::string error_message(const ProtocolError& error);
std::string error_message(ErrorCode code, std::string_view message, const Ref& ref);
/// {"type":"ack","ref":...}
std::string ack_message(const Ref& ref);
/// {"type":"welcome","protocol":1,"player":{"id":...,"name":...}}
std::string welcome_message(std::string_view player_id, std::string_view name);
/// {"type":"pong"} (with the ping's ref)
std::string pong_message(const Ref& ref);
/// {"type":<type>, <key>: payload} for lobby, lobbies, matches, lobby.closed ...
std::string event_message(std::string_view type, const nlohmann::json& fields);

}  // namespace protocol
