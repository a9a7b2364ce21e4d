// The fleet's leader lock (server/store/fleet_store.hpp) when the leader's database host goes
// dark: a partition with no resets (tcp_proxy.hpp, partition()). The leader's check of its lock
// session is cut at the stall limit rather than waiting in recv() until TCP gives up, so its
// heartbeat goes on and it stops leading; and the session's backend, hearing nothing more,
// ends after a lease (idle_session_timeout), so another node takes the lock. Without the
// second part nobody could lead until the database host's TCP keepalives gave up, hours later.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <string>
#include <thread>

#include "server/store/fleet_store.hpp"
#include "server/store/stall_watch.hpp"
#include "tests/integration/support.hpp"
#include "tests/integration/tcp_proxy.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace fleet_lock_partition_test {

namespace {

using namespace integration;
using Clock = std::chrono::steady_clock;

/// Sets the process's stall limit for the test, and turns it off after.
struct StallLimit {
    explicit StallLimit(std::chrono::milliseconds limit) {
        store::pg::StallWatch::instance().set_limit(limit);
    }
    ~StallLimit() { store::pg::StallWatch::instance().set_limit(std::chrono::milliseconds(0)); }
};

store::FleetStoreOptions node(const std::string& url, const char* id) {
    store::FleetStoreOptions o;
    o.url = url;
    o.node = id;
    o.lease = 3s;
    o.deadline = 1s;
    return o;
}

}  // namespace

TEST_CASE("a leader cut off from its database stops leading at the stall limit, and another node "
          "takes the lock within a lease",
          "[integration][postgres][deadlines][fleet]") {
    const std::string url = fresh_schema_url(database_url());
    TcpProxy proxy(port_of(url));
    const StallLimit limit(1s);
    store::FleetStore a(node(with_port(url, proxy.port()), "a"));
    store::FleetStore b(node(url, "b"));
    REQUIRE(a.try_lead());
    CHECK_FALSE(b.try_lead());
    CHECK(a.leading());

    proxy.partition();
    const auto dark = Clock::now();
    CHECK_FALSE(a.leading());  // cut at 1 s, not pinned
    const auto cut_after = Clock::now() - dark;
    INFO("the leader's check returned after "
         << std::chrono::duration_cast<std::chrono::milliseconds>(cut_after).count() << " ms");
    CHECK(cut_after < 5s);

    // The dark session's backend ends a lease (3 s) after it last heard from its node, and with
    // it the lock: b, which tries as every node does at its heartbeats, takes it.
    bool took = false;
    while (!took && Clock::now() - dark < 20s) {
        took = b.try_lead();
        if (!took) std::this_thread::sleep_for(250ms);
    }
    const auto taken_after = Clock::now() - dark;
    INFO("b led after " << std::chrono::duration_cast<std::chrono::milliseconds>(taken_after).count()
                        << " ms");
    CHECK(took);
    CHECK(taken_after >= 2s);  // not before the dark session's lease ran out
    // a, connecting anew (new connections get through), does not lead beside b.
    CHECK_FALSE(a.try_lead());
    CHECK(b.leading());
}

}  // namespace fleet_lock_partition_test
