// The stall watch (server/store/stall_watch.hpp) on a real socket pair: a call blocked in recv()
// past the limit has its socket shut down and returns; a call that ends in time is left alone;
// a zero limit watches nothing. No database needed: the watch only knows descriptors.

#include <sys/socket.h>
#include <unistd.h>

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <thread>

#include "server/store/stall_watch.hpp"

using namespace std::chrono_literals;
using store::pg::StallWatch;

namespace {

/// A connected pair of stream sockets, closed at the end of the scope.
struct SocketPair {
    int ours = -1;
    int theirs = -1;
    SocketPair() {
        int fds[2];
        REQUIRE(::socketpair(AF_UNIX, SOCK_STREAM, 0, fds) == 0);
        ours = fds[0];
        theirs = fds[1];
    }
    ~SocketPair() {
        ::close(ours);
        ::close(theirs);
    }
};

/// Restores the process's limit (zero: off) whatever the test does.
struct LimitScope {
    explicit LimitScope(std::chrono::milliseconds limit) { StallWatch::instance().set_limit(limit); }
    ~LimitScope() { StallWatch::instance().set_limit(0ms); }
};

}  // namespace

TEST_CASE("a call blocked past the stall limit is cut; one that ends in time is not", "[store][stall]") {
    StallWatch& watch = StallWatch::instance();
    LimitScope limit(150ms);
    const auto cuts_before = watch.cuts();

    SECTION("blocked: recv returns once the socket is shut down, and finish() says cut") {
        SocketPair pair;
        auto call = watch.watch(pair.ours);
        const auto started = std::chrono::steady_clock::now();
        char byte = 0;
        // Nobody writes: without the watch this would wait for ever.
        const auto n = ::recv(pair.ours, &byte, 1, 0);
        const auto waited = std::chrono::steady_clock::now() - started;
        CHECK(n <= 0);
        CHECK(waited >= 140ms);
        CHECK(waited < 5s);
        CHECK(call.finish());
        CHECK(call.finish());  // the same answer again
        CHECK(watch.cuts() == cuts_before + 1);
    }

    SECTION("in time: the answer comes first, the socket stays whole") {
        SocketPair pair;
        auto call = watch.watch(pair.ours);
        REQUIRE(::send(pair.theirs, "x", 1, 0) == 1);
        char byte = 0;
        CHECK(::recv(pair.ours, &byte, 1, 0) == 1);
        CHECK_FALSE(call.finish());
        std::this_thread::sleep_for(300ms);  // past the limit: nothing is cut after finish()
        CHECK(::send(pair.theirs, "y", 1, 0) == 1);
        CHECK(::recv(pair.ours, &byte, 1, 0) == 1);
        CHECK(byte == 'y');
        CHECK(watch.cuts() == cuts_before);
    }
}

TEST_CASE("a zero stall limit watches nothing", "[store][stall]") {
    StallWatch& watch = StallWatch::instance();
    LimitScope limit(0ms);
    SocketPair pair;
    const auto cuts_before = watch.cuts();
    auto call = watch.watch(pair.ours);
    std::this_thread::sleep_for(100ms);
    REQUIRE(::send(pair.theirs, "x", 1, 0) == 1);
    char byte = 0;
    CHECK(::recv(pair.ours, &byte, 1, 0) == 1);
    CHECK_FALSE(call.finish());
    CHECK(watch.cuts() == cuts_before);
}
