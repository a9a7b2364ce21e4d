#pragma once
// The node-to-node messages of a fleet (docs/scaling.md, "Node-to-node messages"): a closed set,
// one struct per kind, one parser for all of them and one writer per kind. Every node of a fleet
// runs the same build, so the set and its version change together; a message of another version,
// an unknown type or a missing or mistyped field is a ParseError value, never an exception.
//
// On the wire each is one JSON object: {"version": 1, "type": "<kind>", ...fields}.
// `connection` is always a connection id on the connection's home node (the node it is on).

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "protocol/json/basic_json.hpp"

namespace server::fleet {

/// The message set's version; a message with any other is rejected.
inline constexpr int message_version = 1;

/// Home -> leader: connection `connection` of `player` (display name `name`) is authenticated.
struct Connected {
    std::uint64_t connection = 0;
    std::string player;
    std::string name;
};
/// Home -> match owner or leader: handle the client message `text` (raw) for that connection.
struct Request {
    std::uint64_t connection = 0;
    std::string player;
    std::string name;
    std::string text;
};
/// Owner or leader -> home: write the server message `text` to connection `connection`.
struct Deliver {
    std::uint64_t connection = 0;
    std::string text;
};
/// Home -> the nodes that served the connection: it closed.
struct Gone {
    std::uint64_t connection = 0;
};
/// A node -> home: the sender does not own `match`; look its owner up again.
struct Moved {
    std::string match;
};
/// Owner -> all: the live-list entry of `match`, owned by `owner`; a null entry: it is over.
struct Live {
    std::string match;
    std::string owner;
    nlohmann::json entry;
};
/// Leader -> all: the public lobby list (an array).
struct Lobbies {
    nlohmann::json list = nlohmann::json::array();
};
/// Leader -> all: the queue counts (an array).
struct Queues {
    nlohmann::json list = nlohmann::json::array();
};
/// Leader -> the node a new match was placed on: load `match`, which it now owns.
struct Adopt {
    std::string match;
};
/// A starting node, a new leader, or after a broker gap -> all: answer with your live entries
/// (the leader: and its lists).
struct Sync {};
/// Leader -> all: the sender is the leader now.
struct Leader {};
/// A stopping node -> all: count the sender dead now.
struct Bye {};
/// The node that revoked sessions of `player` (sign-out, password change) -> all: forget them
/// and close the connections that said hello with them (4001). Exactly one of the two is set:
/// `token_sha256`, that one session; `keep_sha256`, every session of the player but that one.
/// Tokens travel only as their SHA-256 (64 hex digits), as the database keeps them.
struct Revoked {
    std::string player;
    std::string token_sha256;
    std::string keep_sha256;
};
/// A node that lost a match (another node took it over while this one could not renew its
/// lease) -> the home of a connection that had it open: close `connection` with 1012 (service
/// restart), so that the client reconnects and opens the match at its new owner.
struct Restart {
    std::uint64_t connection = 0;
};

/// Every node-to-node message.
using Message = std::variant<Connected, Request, Deliver, Gone, Moved, Live, Lobbies, Queues, Adopt,
                             Sync, Leader, Bye, Revoked, Restart>;

/// Why a payload is not a message (for the log).
struct ParseError {
    std::string reason;
};

/// The message `payload` carries, or why it carries none. Never throws.
std::variant<Message, ParseError> parse(std::string_view payload);

/// The wire text of each message (parse(write(m)) gives m back).
std::string write(const Connected& m);
std::string write(const Request& m);
std::string write(const Deliver& m);
std::string write(const Gone& m);
std::string write(const Moved& m);
std::string write(const Live& m);
std::string write(const Lobbies& m);
std::string write(const Queues& m);
std::string write(const Adopt& m);
std::string write(const Sync& m);
std::string write(const Leader& m);
std::string write(const Bye& m);
std::string write(const Revoked& m);
std::string write(const Restart& m);
/// The wire text of any message.
std::string write(const Message& m);

/// The wire name of a message's kind ("request", "live", ...), for logs.
std::string_view type_name(const Message& m);

}  // namespace server::fleet
