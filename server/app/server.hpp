#pragma once
// The whole server in one object: the io_contexts and their threads, metrics, the step store,
// the hub, the connection registry and the listener. main.cpp and the socket tests both use it.
//
// The io threads run one shared io_context, or one each (Config::io_context_per_thread;
// server/app/io_threads.hpp). With one each, a connection stays on the context the Listener
// dealt it, and a match runs on its first person's connection's (Hub::set_match_contexts). The
// first context also runs the listener, the hub's own strand and timers, and the shutdown.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "server/app/config.hpp"
#include "server/app/hub.hpp"
#include "server/app/io_threads.hpp"
#include "server/app/metrics.hpp"
#include "server/net/session_registry.hpp"
#include "server/match/step_store.hpp"

namespace store {
class FleetStore;
class PgBroker;
class PgStepStore;
class Repository;
}  // namespace store

namespace server {

class DatabaseHealth;
class HttpApi;
class Listener;

/// One server: construct, run() on a thread (it blocks), stop() from anywhere.
class Server {
public:
    /// How long a graceful stop waits for WebSocket sessions to finish their closing handshakes.
    static constexpr std::chrono::seconds shutdown_grace{5};

    /// Builds everything and binds the listening socket (Config::port 0 picks a free port).
    /// With Config::database_url it first applies the migrations; a fleet node then reloads
    /// its live matches (Hub::recover), a single node only reads their seats and reloads them in
    /// the background once run() accepts connections. Throws boost::system::system_error if the address (or the
    /// metrics address) cannot be bound, std::runtime_error if the database cannot be migrated or read or
    /// Config::metrics_address cannot be read. Nothing runs yet.
    explicit Server(Config config);
    /// Requires that run() has returned (or was never called).
    ~Server();
    Server(const Server&) = delete;
    Server& operator=(const Server&) = delete;

    /// Accepts and serves on Config::threads threads (0: one per core), this one included.
    /// Blocks until a stop() has finished. Call at most once.
    void run();
    /// Graceful stop, from any thread (and idempotent): stop accepting, Hub::shutdown(), close
    /// every WebSocket with 1001 after its queued messages, wait for them (at most
    /// shutdown_grace), then stop the io_contexts so run() returns.
    void stop();
    /// Stops every io_context at once, without the graceful part (a second signal; any thread).
    void halt();

    /// The port the listener is bound to.
    std::uint16_t port() const;
    /// The port of the metrics listener (Config::metrics_address "host:port"), or 0 if none.
    std::uint16_t metrics_port() const;
    /// The settings in force.
    const Config& config() const { return config_; }
    /// The first io thread's io_context: the listener, the hub's strand and timers, the
    /// shutdown (main.cpp adds its signal_set here).
    boost::asio::io_context& context() { return io_; }
    /// The process counters.
    Metrics& metrics() { return metrics_; }
    /// The application behind the sockets.
    Hub& hub() { return *hub_; }
    /// Open connections and live WebSocket sessions.
    SessionRegistry& sessions() { return registry_; }

private:
    void begin_shutdown();
    void drain(std::chrono::steady_clock::time_point deadline);

    // Order matters for destruction: sessions that die with the io_contexts still give their
    // connection slot back to the registry, so metrics and the registry outlive the contexts;
    // the hub and listener use the contexts, so they die before them.
    const Config config_;
    Metrics metrics_;
    MemoryStepStore memory_store_;
    SessionRegistry registry_;
    IoThreads io_threads_;
    boost::asio::io_context& io_;  ///< the first of them
    boost::asio::steady_timer drain_timer_;
    // With a database. The step store dies before the io_context: its destructor still answers
    // the appends it holds, and those answers are posted to match strands.
    std::unique_ptr<store::Repository> repository_;
    std::unique_ptr<store::PgStepStore> pg_store_;
    // In a fleet (Config::node_id): the shared leases and the broker, used by the hub.
    std::unique_ptr<store::FleetStore> fleet_store_;
    std::unique_ptr<store::PgBroker> broker_;
    std::unique_ptr<Hub> hub_;
    // The stored-data HTTP API: its destructor waits for the queries it runs (their answers are
    // posted to sessions on the io_context, which outlives it).
    std::unique_ptr<HttpApi> api_;
    std::shared_ptr<Listener> listener_;
    // Whether the database answers (/healthz, /readyz); null without a database.
    std::unique_ptr<DatabaseHealth> database_health_;
    // A single node restores its live matches here while it already accepts connections;
    // joined before the hub goes.
    std::thread recovery_;
    // Config::metrics_address "host:port": a listener serving /metrics only, with its own copy
    // of the settings (metrics_only set).
    Config metrics_config_;
    std::shared_ptr<Listener> metrics_listener_;
    std::atomic<bool> stopping_{false};
};

}  // namespace server
