#pragma once
// A fleet for a test: a fresh schema of the test database, three santorini-server nodes
// (n1, n2, n3, each a child process on a free loopback port, --lease-ms 2000 unless the test
// asks for another) and HAProxy in front of them. Everything stops when the Fleet is destroyed,
// also when the test fails.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tests/fleet/haproxy.hpp"
#include "tests/integration/support.hpp"

namespace fleet {

constexpr int node_count = 3;
constexpr std::chrono::milliseconds lease{2000};
/// The lease of tests that are not about leases or takeovers: a node of a busy test machine
/// (three sanitized servers and their database beside other tests) whose renewals run over a
/// whole 2 s lease loses its match to another node by design (1012, the clients reconnect),
/// which such a test's players do not expect. A longer lease leaves them 4 s of stall instead
/// of 1.3 (it renews every third of it).
constexpr std::chrono::milliseconds steady_lease{6000};

class Fleet {
  public:
    /// `name` tells this test's log files apart: <build dir>/fleet_<name>_n1.log, ...
    /// `node_lease` is each node's --lease-ms (it renews every third of it).
    explicit Fleet(const std::string& name, std::chrono::milliseconds node_lease = lease);
    ~Fleet();
    Fleet(const Fleet&) = delete;
    Fleet& operator=(const Fleet&) = delete;

    /// Starts the nodes one after the other (each ready over HTTP), then HAProxy, then waits
    /// until the fleet has formed (wait_formed).
    void start();
    /// Waits (at most 10 s) until every running node's GET /healthz says that the running
    /// nodes are alive and who the same leader is: before that, a leader that has not yet seen
    /// the others' heartbeats places every new match on itself. Throws if it does not happen.
    void wait_formed();

    const std::string& url() const { return url_; }  ///< the schema's database URL
    /// The leader by the nodes table ("" if no live node says it leads): live is a heartbeat
    /// within the nodes' lease.
    std::string leader() const;
    std::string node_id(int i) const { return "n" + std::to_string(i + 1); }
    std::uint16_t port(int i) const { return ports_[static_cast<std::size_t>(i)]; }
    /// The node index of `id` ("n2": 1), or -1.
    int index_of(const std::string& id) const;
    std::uint16_t proxy_port() const { return proxy_->port(); }
    integration::ServerProcess& node(int i) { return *nodes_[static_cast<std::size_t>(i)]; }
    const std::string& log(int i) const { return logs_[static_cast<std::size_t>(i)]; }

  private:
    std::chrono::milliseconds lease_;
    std::string url_;
    std::vector<std::uint16_t> ports_;
    std::vector<std::string> logs_;
    std::vector<std::unique_ptr<integration::ServerProcess>> nodes_;
    std::unique_ptr<HaProxy> proxy_;
};

/// The last `lines` lines of each file of `paths`, headed by its name.
std::string tails(const std::vector<std::string>& paths, std::size_t lines);

}  // namespace fleet
