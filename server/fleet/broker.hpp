#pragma once
// Messages between the nodes of a fleet (docs/scaling.md), through an existing broker:
// PostgreSQL LISTEN/NOTIFY in production (store::PgBroker), an in-process exchange in tests
// (server::LocalBroker). The server's fleet code (server/fleet/) sees only this interface.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace server {

/// Counters of one broker, for metrics and the benchmark.
struct BrokerStats {
    std::uint64_t sent = 0;      ///< messages handed to the broker (sends and broadcasts)
    std::uint64_t received = 0;  ///< messages delivered to the receiver
    std::uint64_t dropped = 0;   ///< messages dropped: queue full, broker unreachable
    std::uint64_t gaps = 0;      ///< times the listener reconnected (messages may be lost)
    std::uint64_t rejected = 0;  ///< messages refused: not sealed with the fleet's secret, or replayed
    std::size_t queued_bytes = 0;  ///< waiting to be sent now
};

/// Node-to-node messages. Payloads are text of any length (the broker splits and joins them).
/// Delivery is at most once and in order per sender: what one node sends (to one node or to
/// all) arrives in the order it was sent, or not at all; a message to a node that is not
/// listening is lost. The fleet protocol is built for that (docs/scaling.md).
class Broker {
  public:
    /// Called for each message, on the broker's own thread, one at a time: `from` is the
    /// sending node's id. A node also receives what it sent to itself and its own broadcasts.
    using Receiver = std::function<void(std::string_view from, std::string payload)>;
    /// Called on the broker's thread after the listener lost its connection and listens again:
    /// messages sent to this node in between may be lost.
    using GapHandler = std::function<void()>;

    virtual ~Broker() = default;
    /// This node's id (as others address it).
    virtual const std::string& node() const = 0;
    /// Starts listening (this node's own channel and the fleet-wide one). Call once.
    virtual void start(Receiver receive, GapHandler gap) = 0;
    /// Queues `payload` for `node`; never blocks. A full queue (BrokerOptions-like bound, in
    /// bytes) drops the message and counts it.
    virtual void send(std::string_view node, std::string payload) = 0;
    /// Queues `payload` for every listening node, this one included.
    virtual void broadcast(std::string payload) = 0;
    /// Sends what is queued (bounded wait), then stops listening; no receiver call after it
    /// returns. Idempotent.
    virtual void stop() = 0;
    /// The counters so far.
    virtual BrokerStats stats() const = 0;
};

}  // namespace server
