#pragma once
// server::Broker on PostgreSQL LISTEN/NOTIFY (docs/scaling.md): a listening connection on this
// node's channel and the fleet's, and one sending connection that sends what is queued in one
// transaction per batch (so each node's messages stay in order). Payloads longer than a NOTIFY
// allows are split into numbered parts and joined by the receiver (server/store/
// broker_envelope.hpp). Both connections reconnect by themselves; a listener that reconnects
// reports a gap.
//
// Threads: a sender, a listener, and a deliverer that calls the receiver, so a slow receiver
// never keeps the listener from reading (PostgreSQL keeps its notification queue, shared by the
// whole database, down to its slowest listener). Both queues are bounded by max_queued_bytes:
// beyond, a send is dropped (counted); a message read but not fitting is dropped (counted) and a
// gap is reported before the next one delivered. A batch cut by a lost connection may or may not
// have been sent, so it is not sent again (at most once) and is counted as dropped.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>

#include "server/fleet/broker.hpp"


namespace store {

struct PgBrokerOptions {
    std::string url;   ///< libpq connection string or URI
    std::string node;  ///< this node's id (1-40 of [a-z0-9_-])
    std::size_t max_queued_bytes = 64 << 20;  ///< beyond: sends are dropped (and counted)
    std::chrono::milliseconds reconnect{200};  ///< wait between reconnect attempts
    /// Channels are <prefix>_node_<id> and <prefix>_fleet. Fleets that share one database (tests
    /// in schemas of their own) keep apart with prefixes of their own; 1-16 of [a-z0-9_].
    std::string channel_prefix = "santorini";
    /// How long stop() waits for the queue to be sent before it gives up on the rest.
    std::chrono::milliseconds stop_wait{2000};
    /// The fleet's shared secret (broker_seal.hpp): when set, every message is sent sealed and
    /// only messages sealed with it are delivered (the rest are counted as rejected). Every node
    /// of a fleet must have the same one. Empty: messages are sent and taken as they are.
    std::string secret;
};

/// Payloads must be valid UTF-8 without NUL (PostgreSQL text): others are dropped and counted.
/// Connecting is bounded by connect_timeout=2 unless the URL sets one.
class PgBroker final : public server::Broker {
  public:
    /// Throws std::invalid_argument for a bad node id or channel prefix; connects in start().
    explicit PgBroker(PgBrokerOptions options);
    ~PgBroker() override;  ///< stop()
    PgBroker(const PgBroker&) = delete;
    PgBroker& operator=(const PgBroker&) = delete;

    const std::string& node() const override;
    /// Returns once listening (or once the first try failed: it goes on trying, and a gap is
    /// reported when it listens), so answers to what the node sends next are not missed.
    void start(Receiver receive, GapHandler gap) override;
    void send(std::string_view node, std::string payload) override;
    void broadcast(std::string payload) override;
    /// Sends the queue (up to stop_wait), then stops listening; what was read but not yet
    /// delivered is dropped. Not from the receiver.
    void stop() override;
    server::BrokerStats stats() const override;

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace store
