// Real sockets on loopback: frames the message rate limit never sees (pings, empty
// continuation frames, a message that never ends) and outgoing queues bounded in bytes. In
// each, an attacker from 127.0.0.1 does its worst while an honest client from 127.0.0.2 keeps
// making round trips, which must stay fast; the attacker is closed, and the server's CPU time
// stays far from the cores it would burn unbounded.

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/net/websocket_session.hpp"
#include "tests/server/support/abuse_support.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

namespace {

using namespace std::chrono_literals;
using abuse::Clock;
using abuse::RawClient;

// The honest client's slowest round trip while `attacking` holds (at least 5 round trips).
Clock::duration slowest_round_trip(RawClient& honest, const std::atomic<bool>& attacking, int& trips) {
    Clock::duration slowest{};
    trips = 0;
    while (attacking || trips < 5) {
        const auto trip = honest.round_trip();
        if (!trip) return Clock::duration::max();
        slowest = std::max(slowest, *trip);
        ++trips;
        std::this_thread::sleep_for(100ms);  // 10 a second: well within the message rate
    }
    return slowest;
}

bool metric_above_zero(server::Server& server, const std::string& name) {
    const std::string text = server.metrics().render();
    const auto at = text.find(name + " ");
    return at != std::string::npos && text.compare(at + name.size() + 1, 2, "0\n") != 0;
}

const auto round_trip_bound = abuse::sanitized ? 1000ms : 250ms;

}  // namespace

TEST_CASE("a ping flood is closed with 1008 while an honest client's round trips stay fast", "[abuse][frames]") {
    test::RunningServer running;
    RawClient honest(running.port(), "127.0.0.2");
    REQUIRE(honest.hello(running.guest_token("honest")));
    RawClient attacker(running.port(), "127.0.0.1");
    REQUIRE(attacker.hello(running.guest_token("pinger")));

    // Pings in batches of 500 (3 KB), as fast as the socket takes them, for at most 5 s.
    std::string batch;
    for (int i = 0; i < 500; ++i) batch += abuse::frame(abuse::Ping, true, "");
    std::atomic<bool> attacking{true};
    std::thread flood([&] {
        const auto until = Clock::now() + 5s;
        while (Clock::now() < until && !attacker.poll_close() && attacker.write(batch, until)) {
        }
        attacking = false;
    });
    int trips = 0;
    const Clock::duration slowest = slowest_round_trip(honest, attacking, trips);
    flood.join();
    INFO("attacker sent " << attacker.sent() << " bytes; honest slowest round trip "
                          << std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count() << " ms");
    CHECK(slowest < round_trip_bound);
    // Cut long before the 5 s were up: its writes failed once the server closed the socket.
    CHECK(attacker.read_close(3s) == std::optional<std::uint16_t>(1008));
    CHECK(metric_above_zero(running.server(), "santorini_rejected_messages_total{reason=\"rate_limited\"}"));
    CHECK(honest.round_trip());
    CHECK(test::eventually([&] { return running.server().sessions().session_count() == 1; }));
}

TEST_CASE("a flood of empty continuation frames is throttled, then closed, at bounded CPU", "[abuse][frames]") {
    server::Config config = test::transport_config();
    config.read_bytes_per_second = 16 * 1024;
    test::RunningServer running(config);
    RawClient honest(running.port(), "127.0.0.2");
    REQUIRE(honest.hello(running.guest_token("honest")));
    RawClient attacker(running.port(), "127.0.0.1");
    REQUIRE(attacker.hello(running.guest_token("fragmenter")));

    // An empty first fragment, then empty continuations forever: Beast skips empty non-final
    // frames inside its read without ever returning one, so only the byte budget sees them.
    REQUIRE(attacker.write(abuse::frame(abuse::Text, false, "")));
    std::string batch;
    for (int i = 0; i < 1000; ++i) batch += abuse::frame(abuse::Continuation, false, "");
    std::atomic<bool> attacking{true};
    abuse::Clock::duration attack_time{};
    std::chrono::duration<double> attacker_cpu{};
    const auto cpu_before = abuse::process_cpu();
    const auto start = Clock::now();
    std::thread flood([&] {
        const auto cpu0 = abuse::thread_cpu();
        const auto until = Clock::now() + 8s;
        while (Clock::now() < until && !attacker.poll_close() && attacker.write(batch, until)) {
        }
        attack_time = Clock::now() - start;
        attacker_cpu = abuse::thread_cpu() - cpu0;
        attacking = false;
    });
    int trips = 0;
    const Clock::duration slowest = slowest_round_trip(honest, attacking, trips);
    flood.join();
    const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    // Everything but the attacker's own thread: the server (and the honest client's few trips).
    const double server_cpu = (abuse::process_cpu() - cpu_before - attacker_cpu).count();
    INFO("attacker sent " << attacker.sent() << " bytes in "
                          << std::chrono::duration<double>(attack_time).count() << " s; others' CPU "
                          << server_cpu << " s in " << seconds << " s; slowest round trip "
                          << std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count() << " ms");
    CHECK(slowest < round_trip_bound);
    // Unbounded, parsing frames as fast as loopback delivers them keeps a core busy.
    CHECK(server_cpu < 0.35 * seconds);
    // Kept beyond its budget for starved_before_close seconds or so: closed.
    CHECK(attacker.read_close(3s) == std::optional<std::uint16_t>(1008));
    CHECK(attack_time > 1s);  // throttled first: a burst alone is not a reason to close
    CHECK(attack_time < 7s);
    CHECK(honest.round_trip());
}

TEST_CASE("a fragmented message that never completes is cut after fragment_timeout", "[abuse][frames]") {
    server::Config config = test::transport_config();
    config.fragment_timeout = 1000ms;
    test::RunningServer running(config);
    RawClient honest(running.port(), "127.0.0.2");
    REQUIRE(honest.hello(running.guest_token("honest")));

    // A fragmented message that completes in time is a message like any other.
    REQUIRE(honest.write(abuse::frame(abuse::Text, false, R"({"type":)")));
    std::this_thread::sleep_for(100ms);
    REQUIRE(honest.write(abuse::frame(abuse::Continuation, false, R"("ping",)")));
    REQUIRE(honest.write(abuse::frame(abuse::Continuation, true, R"("ref":7})")));
    const auto pong = honest.read_type("pong");
    REQUIRE(pong);
    CHECK((*pong)["ref"] == 7);

    // One that trickles a byte every 100 ms (never idle, never complete, never large) is cut.
    RawClient attacker(running.port(), "127.0.0.1");
    REQUIRE(attacker.hello(running.guest_token("trickler")));
    REQUIRE(attacker.write(abuse::frame(abuse::Text, false, R"({"type":)")));
    const auto start = Clock::now();
    std::atomic<bool> attacking{true};
    Clock::duration held{};
    std::thread trickle([&] {
        while (Clock::now() - start < 6s && !attacker.poll_close() &&
               attacker.write(abuse::frame(abuse::Continuation, false, " ")))
            std::this_thread::sleep_for(100ms);
        held = Clock::now() - start;
        attacking = false;
    });
    int trips = 0;
    const Clock::duration slowest = slowest_round_trip(honest, attacking, trips);
    trickle.join();
    INFO("held for " << std::chrono::duration_cast<std::chrono::milliseconds>(held).count() << " ms");
    CHECK(slowest < round_trip_bound);
    CHECK(attacker.read_close(3s) == std::optional<std::uint16_t>(1008));
    CHECK(held >= 900ms);
    CHECK(held < 4s);
    CHECK(honest.round_trip());
}

TEST_CASE("an outgoing queue is bounded in bytes: a reader of large messages is cut with 4000", "[abuse][frames]") {
    server::Config config = test::transport_config();
    config.max_queued_messages = 1000;
    config.max_queued_bytes = 256 * 1024;
    test::RunningServer running(config);
    test::WsClient slow(running.port(), "/ws", 5s, /*receive_window=*/4096);
    REQUIRE(slow.hello(running.guest_token()));
    std::shared_ptr<server::WebsocketSession> session;
    REQUIRE(test::eventually([&] {
        auto all = running.server().sessions().sessions();
        if (all.size() == 1) session = all.front();
        return session != nullptr;
    }));

    const std::size_t size = 32 * 1024;
    const auto message = std::make_shared<const std::string>(
        nlohmann::json{{"type", "lobbies"}, {"padding", std::string(size, 'x')}}.dump());
    const auto deadline = Clock::now() + 10s;
    int delivered = 0;
    while (session->peak_queued_bytes() <= config.max_queued_bytes && Clock::now() < deadline) {
        session->deliver(message);
        ++delivered;
        std::this_thread::sleep_for(1ms);
    }
    INFO("delivered " << delivered);
    // Cut on bytes, far below the message count: at most the bound plus the one that passed it,
    // and the queue dropped at once.
    REQUIRE(session->peak_queued_bytes() > config.max_queued_bytes);
    CHECK(test::eventually([&] { return session->queued() == 0; }));
    for (int i = 0; i < 100; ++i) session->deliver(message);
    std::this_thread::sleep_for(50ms);
    CHECK(session->queued() == 0);
    CHECK(session->peak_queued() < 20);
    CHECK(session->peak_queued_bytes() <= config.max_queued_bytes + message->size());
    CHECK(slow.read_close(10s) == std::optional<std::uint16_t>(server::close_codes::too_slow));
}
