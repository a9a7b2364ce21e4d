#pragma once
// What rooms (lobbies, matches, subscriptions) talk to: a WebSocket session in production, a
// fake in tests. Rooms never touch sockets.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace boost::asio {
class io_context;
}

namespace server {

class Match;

/// What the hub keeps for one connection, held by the connection itself so that a message needs
/// no hub-wide lock: the hub is called for a connection only on that connection's strand (or, in
/// tests, from one thread), and only the hub touches this, so it needs no lock of its own.
struct ConnectionState {
    /// The matches this connection opened, by id: its match requests go straight to them. Weak:
    /// a finished match leaves memory when the hub lets it go, whoever had it open (a request for
    /// it then falls back to the hub's lookup and gets unknown_match).
    std::unordered_map<std::string, std::weak_ptr<Match>> opened;
    /// In a fleet (docs/scaling.md): a request of this connection is being routed (its match
    /// looked up or claimed in the database); the messages that came after it wait here, raw,
    /// so that the connection's requests are handled in the order they were sent.
    bool routing = false;
    /// A vector, not a deque: empty nearly always, where an empty libstdc++ deque already takes
    /// about 600 bytes, in every connection.
    std::vector<std::string> held;
};

/// A connected client as rooms see it. Implementations are thread-safe: `deliver` may be
/// called from any strand and only queues (the session's own strand does the writing).
class Participant {
public:
    virtual ~Participant() = default;
    /// Queues one serialized message for sending. Never blocks; a client that falls too far
    /// behind is disconnected by the transport, not by the caller.
    virtual void deliver(std::shared_ptr<const std::string> message) = 0;
    /// A number unique to this connection for the life of the process.
    virtual std::uint64_t connection_id() const = 0;
    /// The authenticated player's id (connections only reach rooms after `hello`).
    virtual const std::string& player_id() const = 0;
    /// Whether the client asked in `hello` to have a request's acknowledgement ride in the match
    /// patch it caused (docs/protocol.md, "Acknowledgement in the patch"). Fixed before the
    /// connection reaches any room. Default: no, a separate `ack`.
    virtual bool ack_in_patch() const { return false; }
    /// The io_context that serves this connection (Server: one per io thread, if so set). A
    /// match made for its player runs there too, so that a step's messages to it pass to no
    /// other thread. Default: none in particular (test fakes, other nodes' players).
    virtual boost::asio::io_context* io_home() const { return nullptr; }

    /// Runs `work` on this connection's strand, where the hub's calls for it run (the hub goes
    /// on there with a request after an asynchronous lookup). Default: at once (test fakes).
    virtual void post(std::function<void()> work) { work(); }
    /// Closes the connection because a node it was served by is gone (1012 "service restart"):
    /// the client reconnects and resumes (docs/scaling.md). Default: nothing.
    virtual void restart() {}
    /// Whether this connection said `hello` with `token` (a session being revoked). Default: no.
    virtual bool signed_in_with(std::string_view token) const {
        (void)token;
        return false;
    }
    /// The SHA-256 of the token this connection said `hello` with (64 hex digits), as another
    /// node names a revoked session; empty: none (remote participants, test fakes).
    virtual std::string session_sha256() const { return {}; }
    /// Closes the connection because its session was revoked (signed out, or the account's
    /// password changed: 4001 "signed out"); the client signs in again. Default: nothing.
    virtual void signed_out() {}

    /// The hub's state for this connection (Hub only; on the connection's strand only).
    ConnectionState& hub_state() { return hub_state_; }

  private:
    ConnectionState hub_state_;
};

using ParticipantPtr = std::shared_ptr<Participant>;

}  // namespace server
