#include "server/app/server.hpp"

#include <exception>
#include <stdexcept>
#include <thread>
#include <utility>
#include <variant>
#include <vector>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/post.hpp>

#include "server/app/database_health.hpp"
#include "server/http/api.hpp"
#include "server/log/log.hpp"
#include "server/net/listener.hpp"
#include "server/net/metrics_address.hpp"
#include "server/net/websocket_frame.hpp"
#include "server/store/fleet_store.hpp"
#include "server/store/migrations.hpp"
#include "server/store/pg_broker.hpp"
#include "server/store/pg_step_store.hpp"
#include "server/store/repository.hpp"
#include "server/store/stall_watch.hpp"

namespace server {

namespace net = boost::asio;

namespace {

int thread_count(int configured) {
    if (configured > 0) return configured;
    const unsigned cores = std::thread::hardware_concurrency();
    return cores > 0 ? static_cast<int>(cores) : 1;
}

}  // namespace

Server::Server(Config config)
    : config_(std::move(config)),
      registry_(config_.max_connections, config_.max_connections_per_address, config_.max_connections_per_player,
                config_.max_half_open_requests),
      io_threads_(thread_count(config_.threads), config_.io_context_per_thread),
      io_(io_threads_.first()),
      drain_timer_(io_) {
    StepStore* steps = &memory_store_;
    if (!config_.database_url.empty()) {
        auto migrated = store::migrate(config_.database_url, config_.migrations_dir);
        if (!migrated)
            throw std::runtime_error("database migration failed: " + migrated.error().message);
        spdlog::info("event=migrated applied={} present={}", migrated->applied.size(),
                     migrated->present.size());
        // Process-wide: every store's calls are watched from here on.
        store::pg::StallWatch::instance().set_limit(config_.database_stall);
        repository_ = std::make_unique<store::Repository>(config_.database_url, 4);
        pg_store_ = std::make_unique<store::PgStepStore>(store::PgStepStoreOptions{
            .url = config_.database_url, .node = config_.node_id, .lease = config_.lease});
        steps = pg_store_.get();
        if (!config_.node_id.empty()) {
            // One of a fleet (docs/scaling.md): leases, heartbeats and the leader's lock in
            // the database, and the other nodes over its LISTEN/NOTIFY.
            const std::string node_url =
                !config_.node_url.empty()
                    ? config_.node_url
                    : "http://" + config_.address + ":" + std::to_string(config_.port);
            fleet_store_ = std::make_unique<store::FleetStore>(store::FleetStoreOptions{
                .url = config_.database_url,
                .node = config_.node_id,
                .node_url = node_url,
                .lease = config_.lease});
            auto prefix = fleet_store_->channel_prefix();
            if (!prefix)
                throw std::runtime_error("fleet: cannot read the schema: " +
                                         prefix.error().message);
            broker_ = std::make_unique<store::PgBroker>(store::PgBrokerOptions{
                .url = config_.database_url,
                .node = config_.node_id,
                .channel_prefix = *prefix,
                .secret = config_.fleet_secret});
            metrics_.set_broker(broker_.get());
            if (config_.fleet_secret.empty())
                spdlog::warn("event=fleet_unsigned: node-to-node messages are not signed; set "
                             "SANTORINI_FLEET_SECRET (docs/scaling.md)");
        }
    }
    hub_ = std::make_unique<Hub>(io_, config_, metrics_, *steps, repository_.get(),
                                 fleet_store_.get(), broker_.get());
    hub_->set_match_contexts(io_threads_.all());
    if (repository_)
        // Every node serves at once and restores its matches in the background (run()); a fleet
        // node joins the fleet first (docs/scaling.md).
        hub_->begin_recovery();
    if (repository_) {
        // The health checks ping on a connection of their own, so a pool busy with slow
        // queries does not read as a database that is gone.
        auto probe = std::make_shared<store::Repository>(config_.database_url, 1);
        database_health_ = std::make_unique<DatabaseHealth>(
            [probe] { return probe->ping().ok(); }, std::chrono::seconds(1),
            config_.database_deadline);
        hub_->set_database_health([health = database_health_.get()] { return health->reachable(); });
    }
    const net::ip::tcp::endpoint endpoint{net::ip::make_address(config_.address), config_.port};
    api_ = std::make_unique<HttpApi>(repository_.get(), metrics_, 2,
                                     ClientLimits{config_.api_requests_per_second, config_.api_burst,
                                               config_.api_in_flight_per_client});
    api_->set_deadline(io_, config_.database_deadline);
    listener_ = std::make_shared<Listener>(io_, endpoint, *hub_, metrics_, config_, registry_, api_.get(),
                                           io_threads_.all());
    const auto placement = parse_metrics_address(config_.metrics_address);
    if (auto* why = std::get_if<std::string>(&placement))
        throw std::runtime_error("metrics address \"" + config_.metrics_address + "\": " + *why);
    if (const auto& where = std::get<MetricsPlacement>(placement); where.where == MetricsPlacement::Where::Own) {
        metrics_config_ = config_;
        metrics_config_.metrics_only = true;
        metrics_listener_ = std::make_shared<Listener>(
            io_, net::ip::tcp::endpoint{net::ip::make_address(where.host), where.port}, *hub_, metrics_,
            metrics_config_, registry_, nullptr);
    }
}

Server::~Server() {
    // Whatever still sits in the io_contexts (sessions, timers) is destroyed with them, after
    // the hub: a session's destructor touches neither.
    halt();
    if (recovery_.joinable()) recovery_.join();
}

std::uint16_t Server::port() const { return listener_->port(); }

std::uint16_t Server::metrics_port() const { return metrics_listener_ ? metrics_listener_->port() : 0; }

void Server::run() {
    const int threads = thread_count(config_.threads);
    spdlog::info("event=server_start address={} port={} threads={}", config_.address, port(), threads);
    listener_->run();
    if (hub_->recovering())
        recovery_ = std::thread([this] {
            try {
                const auto started = std::chrono::steady_clock::now();
                const auto [restored, failed] = hub_->recover();
                spdlog::info("event=recovery_done restored={} failed={} ms={}", restored, failed,
                             std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::steady_clock::now() - started)
                                 .count());
            } catch (const std::exception& e) {
                // The stored matches cannot be read: serving without them would tell players
                // their matches do not exist.
                spdlog::critical("event=recovery_failed_all what=\"{}\"", e.what());
                stop();
            }
        });
    if (metrics_listener_) {
        spdlog::info("event=metrics_listener port={}", metrics_port());
        metrics_listener_->run();
    }
    io_threads_.run();
    spdlog::info("event=server_stopped");
}

void Server::halt() { io_threads_.stop(); }

void Server::stop() {
    if (stopping_.exchange(true)) return;
    net::post(io_, [this] { begin_shutdown(); });
}

void Server::begin_shutdown() {
    spdlog::info("event=shutdown_begin sessions={}", registry_.session_count());
    listener_->stop();
    if (metrics_listener_) metrics_listener_->stop();
    hub_->shutdown();
    registry_.close_all(ws::close_code::going_away, "server shutting down");
    drain(std::chrono::steady_clock::now() + shutdown_grace);
}

void Server::drain(std::chrono::steady_clock::time_point deadline) {
    const std::size_t left = registry_.session_count();
    if (left == 0 || std::chrono::steady_clock::now() >= deadline) {
        if (left > 0) spdlog::warn("event=shutdown_forced sessions={}", left);
        spdlog::info("event=shutdown_done");
        halt();
        return;
    }
    drain_timer_.expires_after(std::chrono::milliseconds(10));
    drain_timer_.async_wait([this, deadline](boost::system::error_code ec) {
        if (!ec) drain(deadline);
    });
}

}  // namespace server
