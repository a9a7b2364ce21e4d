// The store's connection pool across an outage (server/store/pg.hpp): connections that sat idle
// while the database went away must not be handed out once it is back. Each would fail its
// first caller (libpq learns of the closed socket only from the next statement), so a server
// whose pool had grown to a few connections answered "unavailable" for a while after the
// database returned: with the ratings in the lists, two reads at a match's start grew the
// repository's pool, and the outage test's last new guest got 503.

#include <poll.h>

#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>
#include <string>

#include "server/store/pg.hpp"
#include "tests/integration/support.hpp"
#include "tests/integration/tcp_proxy.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace pool_outage_test {

namespace {

using namespace integration;

/// One round trip on a connection of `pool`.
store::Result<int> select_one(store::pg::ConnectionPool& pool) {
    return store::pg::run<int>(pool, [](pqxx::connection& c) -> store::Result<int> {
        pqxx::nontransaction n(c);
        return n.exec("SELECT 1")[0][0].as<int>();
    });
}

}  // namespace

TEST_CASE("a pooled connection the database closed while idle is not handed out once it is back",
          "[integration][postgres]") {
    const std::string url = database_url();
    TcpProxy proxy(port_of(url));
    const std::string through_proxy = with_port(url, proxy.port());
    store::pg::ConnectionPool pool(through_proxy, 3);
    {
        // Two connections at once: both idle in the pool afterwards.
        auto a = pool.lease();
        auto b = pool.lease();
        CHECK(a->is_open());
        CHECK(b->is_open());
    }
    // Opened last, so the proxy closes it last: once it sees the end, so have the pool's.
    pqxx::connection watch(through_proxy);

    proxy.cut();
    pollfd end{watch.sock(), POLLIN, 0};
    REQUIRE(::poll(&end, 1, 5000) == 1);
    CHECK_FALSE(select_one(pool).ok());  // no connection while the database is away

    proxy.restore();
    // Every call succeeds at once: none gets one of the connections the outage closed.
    for (int call = 0; call < 3; ++call) {
        const auto one = select_one(pool);
        INFO("call " << call << ": " << (one.ok() ? std::string("ok") : one.error().message));
        REQUIRE(one.ok());
        CHECK(*one == 1);
    }
}

}  // namespace pool_outage_test
