#pragma once
// What rooms (lobbies, matches, subscriptions) talk to: a WebSocket session in production, a
// fake in tests. Rooms never touch sockets.

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>

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

    /// The hub's state for this connection (Hub only; on the connection's strand only).
    ConnectionState& hub_state() { return hub_state_; }

  private:
    ConnectionState hub_state_;
};

using ParticipantPtr = std::shared_ptr<Participant>;

}  // namespace server
