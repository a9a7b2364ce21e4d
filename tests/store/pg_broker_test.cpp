// store::PgBroker against a real PostgreSQL (SANTORINI_TEST_DATABASE_URL): two brokers (nodes)
// in one process. Each test has a channel prefix of its own, so tests running at the same time
// on one database do not hear each other.

#include "server/store/pg_broker.hpp"

#include <catch2/catch_test_macros.hpp>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

#include "test_database.hpp"

namespace {

using namespace std::chrono_literals;
using store_test::database_url;
using store_test::unique_name;

/// What one broker received, for the test thread to wait on.
struct Inbox {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::pair<std::string, std::string>> messages;  // from, payload
    int gaps = 0;

    server::Broker::Receiver receiver() {
        return [this](std::string_view from, std::string payload) {
            std::lock_guard lock(mutex);
            messages.emplace_back(std::string(from), std::move(payload));
            changed.notify_all();
        };
    }
    server::Broker::GapHandler gap_handler() {
        return [this] {
            std::lock_guard lock(mutex);
            ++gaps;
            changed.notify_all();
        };
    }
    /// Waits (up to `limit`) until `done()` holds, under the lock.
    template <class Done>
    bool wait(Done done, std::chrono::milliseconds limit = 15s) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, limit, done);
    }
    bool wait_count(std::size_t n, std::chrono::milliseconds limit = 15s) {
        return wait([&] { return messages.size() >= n; }, limit);
    }
    std::size_t count() {
        std::lock_guard lock(mutex);
        return messages.size();
    }
};

struct Fleet {
    std::string prefix = unique_name("b");
    std::string url = database_url();

    store::PgBrokerOptions options(const std::string& node) const {
        store::PgBrokerOptions o;
        o.url = url;
        o.node = node;
        o.channel_prefix = prefix;
        o.reconnect = 50ms;
        return o;
    }
};

}  // namespace

TEST_CASE("PgBroker: a message sent to a node reaches that node only", "[broker]") {
    Fleet fleet;
    Inbox a_in, b_in;
    store::PgBroker a(fleet.options("node-a")), b(fleet.options("node-b"));
    a.start(a_in.receiver(), a_in.gap_handler());
    b.start(b_in.receiver(), b_in.gap_handler());

    a.send("node-b", "hello b");
    b.send("node-a", "hello a");
    REQUIRE(b_in.wait_count(1));
    REQUIRE(a_in.wait_count(1));
    std::this_thread::sleep_for(100ms);  // anything else would have arrived by now
    std::lock_guard la(a_in.mutex), lb(b_in.mutex);
    REQUIRE(b_in.messages.size() == 1);
    CHECK(b_in.messages[0] == std::pair<std::string, std::string>{"node-a", "hello b"});
    REQUIRE(a_in.messages.size() == 1);
    CHECK(a_in.messages[0] == std::pair<std::string, std::string>{"node-b", "hello a"});
    CHECK(a.stats().sent == 1);
    CHECK(b.stats().received == 1);
    CHECK(a_in.gaps == 0);
}

TEST_CASE("PgBroker: a node receives what it sends to itself", "[broker]") {
    Fleet fleet;
    Inbox in;
    store::PgBroker a(fleet.options("self"));
    a.start(in.receiver(), in.gap_handler());
    a.send("self", "to me");
    REQUIRE(in.wait_count(1));
    CHECK(in.messages[0].first == "self");
    CHECK(in.messages[0].second == "to me");
}

TEST_CASE("PgBroker: a broadcast reaches every node, the sender included", "[broker]") {
    Fleet fleet;
    Inbox a_in, b_in, c_in;
    store::PgBroker a(fleet.options("a")), b(fleet.options("b")), c(fleet.options("c"));
    a.start(a_in.receiver(), a_in.gap_handler());
    b.start(b_in.receiver(), b_in.gap_handler());
    c.start(c_in.receiver(), c_in.gap_handler());

    a.broadcast("{\"t\":\"sync\"}");
    for (Inbox* in : {&a_in, &b_in, &c_in}) {
        REQUIRE(in->wait_count(1));
        std::lock_guard lock(in->mutex);
        CHECK(in->messages[0].first == "a");
        CHECK(in->messages[0].second == "{\"t\":\"sync\"}");
    }
}

TEST_CASE("PgBroker: one node's 10,000 messages arrive in the order sent", "[broker]") {
    Fleet fleet;
    Inbox b_in;
    store::PgBroker a(fleet.options("a")), b(fleet.options("b"));
    a.start({}, {});
    b.start(b_in.receiver(), b_in.gap_handler());

    constexpr int n = 10000;
    for (int i = 0; i < n; ++i) {
        // Every tenth a broadcast: the two channels of one sender keep one order.
        if (i % 10 == 9)
            a.broadcast(std::to_string(i));
        else
            a.send("b", std::to_string(i));
    }
    REQUIRE(b_in.wait_count(n, 60s));
    std::lock_guard lock(b_in.mutex);
    REQUIRE(b_in.messages.size() == n);
    int out_of_order = 0;
    for (int i = 0; i < n; ++i)
        if (b_in.messages[static_cast<std::size_t>(i)].second != std::to_string(i)) ++out_of_order;
    CHECK(out_of_order == 0);
    CHECK(a.stats().dropped == 0);
}

TEST_CASE("PgBroker: a 200 KB payload arrives whole, multibyte characters included", "[broker]") {
    Fleet fleet;
    Inbox b_in;
    store::PgBroker a(fleet.options("a")), b(fleet.options("b"));
    a.start({}, {});
    b.start(b_in.receiver(), b_in.gap_handler());

    // Characters of 1 to 4 bytes, so part boundaries fall inside characters unless avoided.
    std::string big;
    const char* pieces[] = {"x", "\xC3\xA9", "\xE2\x82\xAC", "\xF0\x9F\x8F\x9B", "{\"k\":\"v\\\"\"}"};
    for (std::size_t i = 0; big.size() < 200 * 1024; ++i) big += pieces[i % 5];
    a.send("b", big);
    a.send("b", "after");
    REQUIRE(b_in.wait_count(2));
    std::lock_guard lock(b_in.mutex);
    CHECK(b_in.messages[0].second.size() == big.size());
    CHECK(b_in.messages[0].second == big);
    CHECK(b_in.messages[1].second == "after");
}

TEST_CASE("PgBroker: equal payloads both arrive", "[broker]") {
    Fleet fleet;
    Inbox b_in;
    store::PgBroker a(fleet.options("a")), b(fleet.options("b"));
    a.start({}, {});
    b.start(b_in.receiver(), b_in.gap_handler());
    // Queued together, so they very likely share a transaction, where PostgreSQL would fold
    // two identical notifications into one.
    for (int i = 0; i < 3; ++i) a.send("b", "same");
    for (int i = 0; i < 2; ++i) a.broadcast("same");
    REQUIRE(b_in.wait_count(5));
    std::this_thread::sleep_for(100ms);
    CHECK(b_in.count() == 5);
}

TEST_CASE("PgBroker: a listener whose backend is terminated reports a gap and listens again",
          "[broker]") {
    Fleet fleet;
    const std::string app = unique_name("broker_gap_");
    Inbox b_in;
    store::PgBroker a(fleet.options("a"));
    auto b_options = fleet.options("b");
    b_options.url = store_test::with_schema(fleet.url, "public", app);
    store::PgBroker b(b_options);
    a.start({}, {});
    b.start(b_in.receiver(), b_in.gap_handler());

    a.send("b", "before");
    REQUIRE(b_in.wait_count(1));

    // B has sent nothing, so its only connection is the listener.
    {
        pqxx::connection c(fleet.url);
        pqxx::nontransaction n(c);
        auto r = n.exec_params(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = $1",
            app);
        REQUIRE(r[0][0].as<int>() == 1);
    }
    REQUIRE(b_in.wait([&] { return b_in.gaps == 1; }));
    CHECK(b.stats().gaps == 1);

    a.send("b", "after");
    REQUIRE(b_in.wait_count(2));
    std::lock_guard lock(b_in.mutex);
    CHECK(b_in.messages[1].second == "after");
}

TEST_CASE("PgBroker: the outgoing queue is bounded in bytes; beyond, sends are dropped and counted",
          "[broker]") {
    Fleet fleet;
    Inbox b_in;
    auto a_options = fleet.options("a");
    a_options.max_queued_bytes = 20000;
    store::PgBroker a(a_options), b(fleet.options("b"));
    b.start(b_in.receiver(), b_in.gap_handler());

    // Not started: nothing leaves the queue yet.
    const std::string kilobyte(1000, 'k');
    for (int i = 0; i < 100; ++i) a.send("b", kilobyte);
    auto s = a.stats();
    CHECK(s.sent > 0);
    CHECK(s.sent < 20);
    CHECK(s.dropped == 100 - s.sent);
    CHECK(s.queued_bytes <= 20000);
    CHECK(s.queued_bytes > 0);

    // Not text PostgreSQL takes: dropped too.
    a.send("b", std::string("nul\0inside", 10));
    a.send("b", "\xC3");
    CHECK(a.stats().dropped == s.dropped + 2);

    a.start({}, {});
    REQUIRE(b_in.wait_count(s.sent));
    std::this_thread::sleep_for(100ms);
    CHECK(b_in.count() == s.sent);
    CHECK(a.stats().queued_bytes == 0);
}

TEST_CASE("PgBroker: stop() is prompt, whether the database answers or not", "[broker]") {
    Fleet fleet;
    SECTION("idle and connected: no wait for the listener's poll") {
        store::PgBroker a(fleet.options("a"));
        a.start({}, {});
        a.send("a", "x");
        const auto t0 = std::chrono::steady_clock::now();
        a.stop();
        CHECK(std::chrono::steady_clock::now() - t0 < 500ms);
        a.stop();  // idempotent
    }
    SECTION("the database unreachable: the queue is given up after stop_wait") {
        auto options = fleet.options("a");
        options.url = "postgresql://postgres@127.0.0.1:1/nothing";
        options.stop_wait = 300ms;
        store::PgBroker a(options);
        a.start({}, {});
        for (int i = 0; i < 10; ++i) a.send("b", "lost");
        const auto t0 = std::chrono::steady_clock::now();
        a.stop();
        const auto took = std::chrono::steady_clock::now() - t0;
        CHECK(took >= 250ms);
        CHECK(took < 1500ms);
        CHECK(a.stats().dropped == 10);
        CHECK(a.stats().queued_bytes == 0);
    }
}

TEST_CASE("PgBroker: a sender whose backend is terminated connects again by itself", "[broker]") {
    Fleet fleet;
    const std::string app = unique_name("broker_sender_");
    Inbox b_in;
    auto a_options = fleet.options("a");
    a_options.url = store_test::with_schema(fleet.url, "public", app);
    store::PgBroker a(a_options), b(fleet.options("b"));
    a.start({}, {});
    b.start(b_in.receiver(), b_in.gap_handler());
    a.send("b", "before");
    REQUIRE(b_in.wait_count(1));

    // Both of A's connections: its listener reports a gap, its sender reconnects.
    {
        pqxx::connection c(fleet.url);
        pqxx::nontransaction n(c);
        auto r = n.exec_params(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE application_name = $1",
            app);
        REQUIRE(r[0][0].as<int>() == 2);
    }
    // The first batch on the dead connection may be lost (it cannot tell whether it was sent);
    // the ones after go through.
    bool arrived = false;
    for (int i = 0; i < 200 && !arrived; ++i) {
        a.send("b", "after");
        arrived = b_in.wait_count(2, 50ms);
    }
    CHECK(arrived);
    CHECK(a.stats().dropped <= 1);
    CHECK(b_in.gaps == 0);
}

TEST_CASE("PgBroker: a slow receiver does not hold the listener; what does not fit is dropped and "
          "a gap follows",
          "[broker]") {
    Fleet fleet;
    std::mutex gate;
    std::unique_lock held(gate);  // B's receiver waits here until the test lets it go
    std::mutex seen_mutex;
    std::vector<std::string> seen;  // payloads, and "GAP"
    store::PgBroker a(fleet.options("a"));
    auto b_options = fleet.options("b");
    b_options.max_queued_bytes = 20000;
    store::PgBroker b(b_options);
    a.start({}, {});
    std::atomic<bool> receiving{false};  // B's receiver has the first message and waits
    b.start(
        [&](std::string_view, std::string payload) {
            receiving = true;
            std::lock_guard wait(gate);
            std::lock_guard lock(seen_mutex);
            seen.push_back(std::move(payload));
        },
        [&] {
            std::lock_guard lock(seen_mutex);
            seen.push_back("GAP");
        });
    const std::string kilobyte(1000, 'k');
    // The first message is in the receiver's hands before the others are sent: otherwise the
    // delivery thread might take it from the inbox only after the inbox had filled, and the
    // room it frees would let one later message in between two runs of drops (two gaps).
    a.send("b", "0" + kilobyte);
    for (const auto until = std::chrono::steady_clock::now() + 30s;
         !receiving && std::chrono::steady_clock::now() < until;)
        std::this_thread::sleep_for(5ms);
    REQUIRE(receiving);
    for (int i = 1; i < 100; ++i) a.send("b", std::to_string(i) + kilobyte);
    // The listener reads on while the receiver waits: the rest is dropped at B. A deadline,
    // not a count of sleeps: a sanitizer build beside other tests reads the 100 notifications
    // many times slower than a release build.
    const auto deadline = std::chrono::steady_clock::now() + 30s;
    while (b.stats().dropped < 80 && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(10ms);
    CHECK(b.stats().dropped >= 80);
    held.unlock();
    std::this_thread::sleep_for(100ms);  // what was kept is delivered
    a.send("b", "after");
    for (const auto until = std::chrono::steady_clock::now() + 30s;
         std::chrono::steady_clock::now() < until;) {
        {
            std::lock_guard lock(seen_mutex);
            if (!seen.empty() && seen.back() == "after") break;
        }
        std::this_thread::sleep_for(10ms);
    }
    std::lock_guard lock(seen_mutex);
    REQUIRE(seen.size() >= 3);
    CHECK(seen.size() < 25);
    CHECK(seen.back() == "after");
    CHECK(seen[seen.size() - 2] == "GAP");  // told of the loss before the next message
    CHECK(seen[0].rfind("0k", 0) == 0);
    CHECK(b.stats().gaps == 1);
}
