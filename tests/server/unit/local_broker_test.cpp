// server::LocalBroker: the in-process broker the fleet's unit tests run several nodes on. Same
// semantics as store::PgBroker (tests/store/pg_broker_test.cpp).

#include "server/fleet/local_broker.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace {

using namespace std::chrono_literals;

struct Inbox {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::pair<std::string, std::string>> messages;
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
    template <class Done>
    bool wait(Done done) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, 10s, done);
    }
    bool wait_count(std::size_t n) {
        return wait([&] { return messages.size() >= n; });
    }
    std::size_t count() {
        std::lock_guard lock(mutex);
        return messages.size();
    }
};

}  // namespace

TEST_CASE("LocalBroker: a message sent to a node reaches that node only", "[broker]") {
    server::LocalExchange exchange;
    Inbox a_in, b_in;
    server::LocalBroker a(exchange, "a"), b(exchange, "b");
    a.start(a_in.receiver(), a_in.gap_handler());
    b.start(b_in.receiver(), b_in.gap_handler());

    a.send("b", "hello b");
    a.send("nobody", "lost");  // not listening: lost, as with PostgreSQL
    REQUIRE(b_in.wait_count(1));
    std::this_thread::sleep_for(20ms);
    CHECK(a_in.count() == 0);
    std::lock_guard lock(b_in.mutex);
    REQUIRE(b_in.messages.size() == 1);
    CHECK(b_in.messages[0] == std::pair<std::string, std::string>{"a", "hello b"});
    CHECK(a.stats().sent == 2);
    CHECK(b.stats().received == 1);
    CHECK(a.node() == "a");
}

TEST_CASE("LocalBroker: a broadcast reaches every node, the sender included", "[broker]") {
    server::LocalExchange exchange;
    Inbox a_in, b_in, c_in;
    server::LocalBroker a(exchange, "a"), b(exchange, "b"), c(exchange, "c");
    a.start(a_in.receiver(), a_in.gap_handler());
    b.start(b_in.receiver(), b_in.gap_handler());
    c.start(c_in.receiver(), c_in.gap_handler());
    b.broadcast("sync");
    b.send("b", "self");
    for (Inbox* in : {&a_in, &c_in}) {
        REQUIRE(in->wait_count(1));
        CHECK(in->messages[0] == std::pair<std::string, std::string>{"b", "sync"});
    }
    REQUIRE(b_in.wait_count(2));
    CHECK(b_in.messages[0].second == "sync");
    CHECK(b_in.messages[1].second == "self");
}

TEST_CASE("LocalBroker: each sender's messages arrive in the order sent", "[broker]") {
    server::LocalExchange exchange;
    Inbox c_in;
    server::LocalBroker a(exchange, "a"), b(exchange, "b"), c(exchange, "c");
    c.start(c_in.receiver(), c_in.gap_handler());
    constexpr int n = 10000;
    auto flood = [n, &c](server::LocalBroker& from) {
        for (int i = 0; i < n; ++i) {
            if (i % 7 == 0)
                from.broadcast(std::to_string(i));
            else
                from.send("c", std::to_string(i));
        }
        (void)c;
    };
    std::thread ta([&] { flood(a); });
    std::thread tb([&] { flood(b); });
    ta.join();
    tb.join();
    REQUIRE(c_in.wait_count(2 * n));
    std::lock_guard lock(c_in.mutex);
    int next_a = 0, next_b = 0, wrong = 0;
    for (const auto& [from, payload] : c_in.messages) {
        int& next = from == "a" ? next_a : next_b;
        if (payload != std::to_string(next)) ++wrong;
        ++next;
    }
    CHECK(wrong == 0);
    CHECK(next_a == n);
    CHECK(next_b == n);
}

TEST_CASE("LocalBroker: a receiver may send (answers do not deadlock)", "[broker]") {
    server::LocalExchange exchange;
    Inbox a_in;
    server::LocalBroker a(exchange, "a"), b(exchange, "b");
    a.start(a_in.receiver(), a_in.gap_handler());
    b.start([&b](std::string_view from, std::string payload) { b.send(from, "re: " + payload); },
            {});
    for (int i = 0; i < 100; ++i) a.send("b", std::to_string(i));
    REQUIRE(a_in.wait_count(100));
    CHECK(a_in.messages[99] == std::pair<std::string, std::string>{"b", "re: 99"});
}

TEST_CASE("LocalBroker: what waits for a node is bounded in bytes; the sender drops and counts",
          "[broker]") {
    server::LocalExchange exchange;
    std::mutex gate;
    std::unique_lock closed(gate);  // the receiver blocks until the test lets it go
    std::atomic<int> got{0};
    server::LocalBroker a(exchange, "a"), b(exchange, "b", 10000);
    a.start({}, {});
    b.start(
        [&](std::string_view, std::string) {
            std::lock_guard wait(gate);
            ++got;
        },
        {});
    const std::string kilobyte(1000, 'k');
    for (int i = 0; i < 30; ++i) a.send("b", kilobyte);
    // One is being delivered (held at the gate), ten wait, the rest are dropped.
    CHECK(a.stats().sent == 30);
    CHECK(a.stats().dropped >= 19);
    CHECK(a.stats().dropped <= 20);
    CHECK(b.stats().queued_bytes <= 10000);
    const auto kept = 30 - a.stats().dropped;
    closed.unlock();
    for (int i = 0; i < 1000 && got < static_cast<int>(kept); ++i) std::this_thread::sleep_for(1ms);
    CHECK(got == static_cast<int>(kept));
}

TEST_CASE("LocalBroker: simulate_gap drops what waits and reports a gap on the broker's thread",
          "[broker]") {
    server::LocalExchange exchange;
    Inbox b_in;
    server::LocalBroker a(exchange, "a"), b(exchange, "b");
    b.start(b_in.receiver(), b_in.gap_handler());
    b.simulate_gap();
    REQUIRE(b_in.wait([&] { return b_in.gaps == 1; }));
    CHECK(b.stats().gaps == 1);
    a.send("b", "after");
    REQUIRE(b_in.wait_count(1));
}

TEST_CASE("LocalBroker: after stop(), no receiver call and nothing is delivered to it",
          "[broker]") {
    server::LocalExchange exchange;
    std::atomic<int> calls{0};
    server::LocalBroker a(exchange, "a"), b(exchange, "b");
    b.start(
        [&](std::string_view, std::string) {
            std::this_thread::sleep_for(1ms);
            ++calls;
        },
        {});
    for (int i = 0; i < 1000; ++i) a.send("b", "x");
    const auto t0 = std::chrono::steady_clock::now();
    b.stop();
    CHECK(std::chrono::steady_clock::now() - t0 < 100ms);
    const int at_stop = calls;
    a.send("b", "late");
    std::this_thread::sleep_for(20ms);
    CHECK(calls == at_stop);
    CHECK(at_stop < 1000);
    b.stop();  // idempotent
    b.send("a", "after stop");
    CHECK(b.stats().dropped >= 1);
}
