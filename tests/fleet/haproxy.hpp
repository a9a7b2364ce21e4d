#pragma once
// Debian's HAProxy as a child process in front of a fleet's nodes, on a free loopback port,
// with a generated configuration: HTTP and WebSocket, round robin, a health check of every node
// (GET /healthz every 500 ms), and a retry on another node when a connection is refused.

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace fleet {

/// Where Debian installs haproxy; empty if it is not there (the test then fails and says so).
std::string haproxy_binary();

/// A running haproxy (stopped and reaped by the destructor, also when a test fails).
class HaProxy {
  public:
    /// One backend server per entry of `nodes` (name and loopback port). `config_path` and
    /// `log_path`: where the generated configuration and haproxy's output go.
    HaProxy(std::vector<std::pair<std::string, std::uint16_t>> nodes, std::string config_path,
            std::string log_path);
    ~HaProxy();
    HaProxy(const HaProxy&) = delete;
    HaProxy& operator=(const HaProxy&) = delete;

    /// Writes the configuration, starts haproxy and waits (at most 10 s) until GET /healthz
    /// through it answers 200 and every node is up in its checks; throws otherwise.
    void start();
    /// SIGTERM, then SIGKILL if it has not exited within a second; reaps it.
    void stop();

    std::uint16_t port() const { return port_; }

  private:
    std::vector<std::pair<std::string, std::uint16_t>> nodes_;
    std::string config_path_;
    std::string log_path_;
    std::uint16_t port_ = 0;
    pid_t pid_ = 0;
};

}  // namespace fleet
