// Real sockets on 127.0.0.1: every limit on what comes in and what piles up.

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/net/websocket_session.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace transport_limits_test {

namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

std::string type_of(const std::string& text) {
    const json message = json::parse(text, nullptr, false);
    return message.is_object() ? message.value("type", "") : "";
}

std::string code_of(const std::string& text) {
    const json message = json::parse(text, nullptr, false);
    return message.is_object() ? message.value("code", "") : "";
}

bool metric_line(server::Server& server, const std::string& line) {
    return server.metrics().render().find(line + "\n") != std::string::npos;
}

// The one WebSocket session of a server that has exactly one.
std::shared_ptr<server::WebsocketSession> only_session(server::Server& server) {
    std::vector<std::shared_ptr<server::WebsocketSession>> sessions;
    test::eventually([&] {
        sessions = server.sessions().sessions();
        return sessions.size() == 1;
    });
    REQUIRE(sessions.size() == 1);
    return sessions.front();
}

}  // namespace

TEST_CASE("a frame over max_frame_bytes closes the socket with 1009", "[transport][limits]") {
    server::Config config = test::transport_config();
    config.max_frame_bytes = 1024;
    test::RunningServer running(config);
    test::WsClient client(running.port());
    REQUIRE(client.hello(running.guest_token()));

    // Exactly at the limit is fine (a ping padded with whitespace).
    std::string at_limit = R"({"type":"ping","ref":1})";
    at_limit.append(config.max_frame_bytes - at_limit.size(), ' ');
    REQUIRE(client.send(at_limit));
    const std::optional<json> pong = client.read_json();
    REQUIRE(pong);
    CHECK((*pong)["type"] == "pong");

    // One byte more is not.
    REQUIRE(client.send(at_limit + " "));
    CHECK(client.read_close(5s) == std::optional<std::uint16_t>(1009));
    // Counted when the server's read completes, after Beast has sent the close frame.
    CHECK(test::eventually(
        [&] { return metric_line(running.server(), "santorini_rejected_messages_total{reason=\"frame_too_large\"} 1"); }));
    CHECK(test::eventually([&] { return running.server().metrics().open_sockets.load() == 0; }));
}

TEST_CASE("a flooding client gets rate_limited, then 1008, while others are served promptly",
          "[transport][limits]") {
    server::Config config = test::transport_config();
    config.messages_per_second = 5;
    config.message_burst = 10;
    config.rate_strikes_before_close = 20;
    test::RunningServer running(config);

    test::WsClient calm(running.port());
    REQUIRE(calm.hello(running.guest_token("calm")));
    test::WsClient flooder(running.port());
    REQUIRE(flooder.hello(running.guest_token("flooder")));

    std::atomic<bool> flooding{true};
    std::vector<std::string> flood_replies;
    std::optional<std::uint16_t> flood_close;
    std::thread flood([&] {
        for (int i = 0; i < 300; ++i) {
            if (!flooder.send(R"({"type":"ping"})", 2s)) break;
        }
        flood_close = flooder.read_close(8s, &flood_replies);
        flooding = false;
    });

    // The calm client's pings are answered promptly during the flood (and after it).
    int answered = 0;
    Clock::duration slowest{};
    for (int i = 0; i < 8; ++i) {
        const auto sent = Clock::now();
        REQUIRE(calm.send_json({{"type", "ping"}, {"ref", i}}));
        const std::optional<json> pong = calm.read_type("pong", 2s);
        REQUIRE(pong);
        CHECK((*pong)["ref"] == i);
        slowest = std::max(slowest, Clock::now() - sent);
        ++answered;
        std::this_thread::sleep_for(30ms);
    }
    flood.join();
    CHECK(answered == 8);
    CHECK(slowest < 500ms);

    CHECK(flood_close == std::optional<std::uint16_t>(1008));
    int pongs = 0;
    int limited = 0;
    for (const std::string& reply : flood_replies) {
        if (type_of(reply) == "pong") ++pongs;
        if (type_of(reply) == "error" && code_of(reply) == "rate_limited") ++limited;
    }
    // The burst (less the hello's token) is served; then exactly `strikes` errors, then the close.
    CHECK(pongs >= 1);
    CHECK(pongs <= 12);
    CHECK(limited == config.rate_strikes_before_close);
    CHECK(metric_line(running.server(), "santorini_rejected_messages_total{reason=\"rate_limited\"} 20"));
    CHECK_FALSE(calm.ended());
}

TEST_CASE("a reader that falls behind is closed with 4000 and its queue stays bounded",
          "[transport][limits]") {
    server::Config config = test::transport_config();
    config.max_queued_messages = 16;
    test::RunningServer running(config);
    test::WsClient slow(running.port());
    REQUIRE(slow.hello(running.guest_token()));
    const auto session = only_session(running.server());

    // The client stops reading while the server keeps sending: first the kernel buffers fill,
    // then the queue; once it passes the limit the session drops it and closes.
    const auto message = std::make_shared<const std::string>(
        json{{"type", "lobbies"}, {"padding", std::string(16 * 1024, 'x')}}.dump());
    int delivered = 0;
    const auto deadline = Clock::now() + 20s;
    while (running.server().sessions().session_count() == 1 && session->peak_queued() <= config.max_queued_messages &&
           Clock::now() < deadline) {
        for (int i = 0; i < 8; ++i) session->deliver(message);
        delivered += 8;
        std::this_thread::sleep_for(1ms);
    }
    INFO("delivered " << delivered);
    REQUIRE(test::eventually([&] { return session->queued() == 0; }));
    CHECK(session->peak_queued() == config.max_queued_messages + 1);
    CHECK(test::eventually(
        [&] { return metric_line(running.server(), "santorini_rejected_messages_total{reason=\"busy\"} 1"); }));

    // More messages for a closing session are dropped, not queued.
    for (int i = 0; i < 1000; ++i) session->deliver(message);
    std::this_thread::sleep_for(50ms);
    CHECK(session->queued() == 0);
    CHECK(session->peak_queued() == config.max_queued_messages + 1);

    // When the client reads again it finds what was already on the wire, then the close.
    std::vector<std::string> seen;
    CHECK(slow.read_close(10s, &seen) == std::optional<std::uint16_t>(4000));
    CHECK(!seen.empty());
    CHECK(seen.size() < static_cast<std::size_t>(delivered));
    CHECK(test::eventually([&] { return running.server().metrics().open_sockets.load() == 0; }));
}

TEST_CASE("a reader that keeps up gets every message in order and is not cut", "[transport][limits]") {
    server::Config config = test::transport_config();
    config.max_queued_messages = 16;
    test::RunningServer running(config);
    test::WsClient reader(running.port());
    REQUIRE(reader.hello(running.guest_token()));
    const auto session = only_session(running.server());

    // 2000 x 4 KiB is more than the socket buffers hold: the client has to read to get it all.
    constexpr int count = 2000;
    std::atomic<int> received{0};
    std::atomic<bool> in_order{true};
    std::thread read_all([&] {
        while (received < count) {
            const std::optional<json> message = reader.read_json(5s);
            if (!message) break;
            if ((*message)["n"] != received.load()) in_order = false;
            ++received;
        }
    });
    const std::string padding(4096, 'y');
    for (int n = 0; n < count; ++n) {
        // Deliver about as fast as the client reads (at most 8 ahead), as a room does with a
        // live client.
        const auto wait_until = Clock::now() + 5s;
        while (n - received.load() >= 8 && Clock::now() < wait_until) std::this_thread::sleep_for(100us);
        session->deliver(std::make_shared<const std::string>(json{{"type", "lobbies"}, {"n", n}, {"p", padding}}.dump()));
    }
    read_all.join();
    CHECK(received == count);
    CHECK(in_order);
    CHECK_FALSE(reader.ended());
    CHECK(session->peak_queued() <= config.max_queued_messages);
}

TEST_CASE("a client that answers no pings is dropped after the idle timeout", "[transport][limits]") {
    server::Config config = test::transport_config();
    config.idle_timeout = 1s;
    test::RunningServer running(config);

    test::WsClient silent(running.port());
    REQUIRE(silent.hello(running.guest_token("silent")));
    test::WsClient alive(running.port());
    REQUIRE(alive.hello(running.guest_token("alive")));

    // `alive` keeps a read pending, so its stream answers the server's keep-alive pings;
    // `silent` does nothing at all for the same time.
    CHECK_FALSE(alive.read(2500ms));
    CHECK_FALSE(alive.ended());

    // Beast closed the silent socket without a close frame: the client sees the stream end.
    CHECK_FALSE(silent.read(3s));
    CHECK(silent.ended());
    CHECK_FALSE(silent.close_code());

    REQUIRE(alive.send(R"({"type":"ping"})"));
    CHECK(alive.read_type("pong", 2s));
    CHECK(test::eventually([&] { return running.server().metrics().open_sockets.load() == 1; }));
}

TEST_CASE("connections beyond max_connections are refused", "[transport][limits]") {
    server::Config config = test::transport_config();
    config.max_connections = 3;
    test::RunningServer running(config);

    std::vector<std::unique_ptr<test::WsClient>> clients;
    for (int i = 0; i < 3; ++i) {
        clients.push_back(std::make_unique<test::WsClient>(running.port()));
        REQUIRE(clients.back()->hello(running.guest_token()));
    }
    CHECK_THROWS(test::WsClient(running.port(), "/ws", 2s));
    // Plain HTTP is refused the same way: a 503 or a closed connection.
    try {
        const test::HttpResponse response =
            test::http_request(running.port(), boost::beast::http::verb::get, "/healthz", {}, 2s);
        CHECK(response.result_int() == 503);
        CHECK(response["X-Content-Type-Options"] == "nosniff");
        CHECK(response["Content-Security-Policy"].starts_with("default-src 'self';"));
        CHECK(response.body() == R"({"error":"too many connections","code":"unavailable"})");
    } catch (const std::exception&) {
        SUCCEED("connection closed");
    }
    CHECK(running.server().sessions().connections() == 3);
    CHECK(running.server().metrics().render().find("santorini_rejected_messages_total{reason=\"unavailable\"} 0") ==
          std::string::npos);

    // The existing clients are unaffected.
    REQUIRE(clients[0]->send(R"({"type":"ping"})"));
    CHECK(clients[0]->read_type("pong"));

    // A place frees up when a client leaves.
    clients.pop_back();  // dropped without a close handshake
    std::unique_ptr<test::WsClient> late;
    CHECK(test::eventually([&] {
        try {
            late = std::make_unique<test::WsClient>(running.port(), "/ws", 1s);
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }));
    REQUIRE(late);
    CHECK(late->hello(running.guest_token()));
}

}  // namespace transport_limits_test
