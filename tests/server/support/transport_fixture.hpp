#pragma once
// A real Server on 127.0.0.1 with a free port, running in-process on its own thread for the
// length of a test; stopped (gracefully) and joined when the fixture goes away.

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>

#include "server/app/config.hpp"
#include "server/app/server.hpp"

namespace test {

/// Test settings: loopback, a free port, two threads, no web root.
inline server::Config transport_config() {
    server::Config config;
    config.address = "127.0.0.1";
    config.port = 0;
    config.threads = 2;
    config.web_root = "/nonexistent/santorini-web-root";
    // Every test client comes from 127.0.0.1: the per-address guest limit would count them all
    // as one person (it has its own tests in http_routes_test.cpp).
    config.guests_per_minute = 1e6;
    config.guest_burst = 1e6;
    return config;
}

/// Polls `condition` every few milliseconds until it holds or `timeout` passes.
inline bool eventually(const std::function<bool()>& condition,
                       std::chrono::milliseconds timeout = std::chrono::seconds(5)) {
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    while (!condition()) {
        if (std::chrono::steady_clock::now() >= deadline) return false;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return true;
}

/// A Server running on its own thread for the length of a test.
class RunningServer {
public:
    /// Starts a server with `config` (its port is replaced by a free one if it is 0).
    explicit RunningServer(server::Config config = transport_config())
        : server_(std::move(config)), thread_([this] { server_.run(); }) {}
    ~RunningServer() { stop(); }
    RunningServer(const RunningServer&) = delete;
    RunningServer& operator=(const RunningServer&) = delete;

    /// Graceful stop; returns once run() has returned.
    void stop() {
        server_.stop();
        if (thread_.joinable()) thread_.join();
    }

    /// The bound port.
    std::uint16_t port() const { return server_.port(); }
    /// The server itself (hub, metrics, sessions).
    server::Server& server() { return server_; }

    /// A new guest's token (created through the hub, as POST /api/guests does).
    std::string guest_token(std::string_view name = "tester") {
        const std::optional<server::Guest> guest = server_.hub().create_guest(name);
        if (!guest) throw std::runtime_error("create_guest failed");
        return guest->token;
    }

private:
    server::Server server_;
    std::thread thread_;
};

}  // namespace test
