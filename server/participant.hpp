#pragma once
// What rooms (lobbies, matches, subscriptions) talk to: a WebSocket session in production, a
// fake in tests. Rooms never touch sockets.

#include <cstdint>
#include <memory>
#include <string>

namespace server {

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
};

using ParticipantPtr = std::shared_ptr<Participant>;

}  // namespace server
