// One io_context per io thread (server/app/io_threads.hpp): each context runs on a thread of
// its own, a stop ends them all, and their destruction survives objects of one context held by
// handlers of another. And where matches run (Hub::set_match_contexts): on the context of the
// first person's connection, else on each context in turn.

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "server/app/io_threads.hpp"
#include "tests/server/support/hub_harness.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace io_threads_test {

using namespace server;
using namespace server::test;
namespace net = boost::asio;

namespace {

/// Which threads ran the handlers that noted themselves, and how many did.
struct Tally {
    std::mutex mutex;
    std::set<std::thread::id> ran_on;
    std::atomic<int> ran{0};

    void note() {
        std::lock_guard lock(mutex);
        ran_on.insert(std::this_thread::get_id());
        ++ran;
    }
    /// Waits (up to `ms`) until `n` handlers noted themselves.
    void wait_for(int n, int ms) {
        for (int i = 0; i < ms && ran < n; ++i) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
};

}  // namespace

TEST_CASE("io threads: each context runs on a thread of its own until stop", "[io_threads]") {
    IoThreads threads(3, true);
    REQUIRE(threads.size() == 3);
    REQUIRE(threads.all().front() == &threads.first());
    Tally tally;
    std::thread runner([&threads] { threads.run(); });
    // The contexts have nothing to do, and still run (their idle guards).
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    for (net::io_context* io : threads.all()) net::post(*io, [&tally] { tally.note(); });
    tally.wait_for(3, 2000);
    threads.stop();
    runner.join();
    CHECK(tally.ran == 3);
    CHECK(tally.ran_on.size() == 3);
}

TEST_CASE("io threads: a handler of one context may hold a timer of another when they go",
          "[io_threads]") {
    // Never run: the handlers are destroyed with the contexts, each holding a timer of the
    // other, armed. Destroying a timer whose context is already gone reads freed memory (the
    // sanitizer build catches it); IoThreads shuts every context down before it destroys any.
    auto threads = std::make_unique<IoThreads>(2, true);
    auto contexts = threads->all();
    for (int i = 0; i < 2; ++i) {
        auto timer = std::make_shared<net::steady_timer>(*contexts[static_cast<std::size_t>(1 - i)]);
        timer->expires_after(std::chrono::hours(1));
        timer->async_wait([timer](boost::system::error_code) {});
        net::post(*contexts[static_cast<std::size_t>(i)], [timer] { timer->cancel(); });
    }
    threads.reset();
    SUCCEED("destroyed");
}

TEST_CASE("io threads: shared, one context that every thread runs until stop", "[io_threads]") {
    IoThreads threads(3, false);
    REQUIRE(threads.size() == 1);
    Tally tally;
    std::thread runner([&threads] { threads.run(); });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    // Handlers that wait for each other: three at once need three threads on the one context.
    std::atomic<int> waiting{0};
    for (int i = 0; i < 3; ++i)
        net::post(threads.first(), [&tally, &waiting] {
            ++waiting;
            for (int j = 0; j < 2000 && waiting < 3; ++j) std::this_thread::sleep_for(std::chrono::milliseconds(1));
            tally.note();
        });
    tally.wait_for(3, 3000);
    threads.stop();
    runner.join();
    CHECK(tally.ran == 3);
    CHECK(tally.ran_on.size() == 3);
}

TEST_CASE("matches run on the context of their first person's connection", "[io_threads][hub]") {
    // The harness runs only its own context (settle); `other` runs when the test says. It
    // outlives the harness, whose hub holds the matches made on it.
    net::io_context other;
    Harness h;
    auto poll_other = [&other] {
        other.restart();
        other.poll();
    };
    // In turn, a match no connection decides would go to `other` first.
    h.hub.set_match_contexts({&other, &h.io});
    auto host = h.guest("Host");
    auto guest = h.guest("Guest");

    SECTION("the host's connection runs on the harness's context") {
        host.conn->set_io_home(&h.io);
        guest.conn->set_io_home(&other);
        const std::string match = h.start_match({host, guest}, settings_json(2));
        // Opened and answered without `other` ever running.
        CHECK(host.conn->view(match).snapshots > 0);
        CHECK(guest.conn->view(match).snapshots > 0);
    }
    SECTION("the host's connection runs on the other context") {
        host.conn->set_io_home(&other);
        guest.conn->set_io_home(&h.io);
        const std::string match = h.start_match({host, guest}, settings_json(2));
        CHECK(host.conn->view(match).snapshots == 0);
        poll_other();
        h.settle();
        CHECK(host.conn->view(match).snapshots > 0);
        CHECK(guest.conn->view(match).snapshots > 0);
    }
    SECTION("no connection says: each context in turn, `other` first") {
        const std::string match = h.start_match({host, guest}, settings_json(2));
        CHECK(host.conn->view(match).snapshots == 0);
        poll_other();
        h.settle();
        CHECK(host.conn->view(match).snapshots > 0);
    }
}

}  // namespace io_threads_test
