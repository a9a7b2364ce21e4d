// Real sockets on 127.0.0.1: a graceful stop.

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/net/websocket_session.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace transport_shutdown_test {

namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

}  // namespace

TEST_CASE("stop writes what is queued, then closes every client with 1001", "[transport][shutdown]") {
    test::RunningServer running;
    test::WsClient first(running.port());
    REQUIRE(first.hello(running.guest_token("first")));
    test::WsClient second(running.port());
    REQUIRE(second.hello(running.guest_token("second")));
    REQUIRE(test::eventually([&] { return running.server().sessions().session_count() == 2; }));

    // Queue a few messages for every session, then stop at once.
    for (const auto& session : running.server().sessions().sessions()) {
        for (int n = 0; n < 5; ++n) {
            session->deliver(std::make_shared<const std::string>(json{{"type", "lobbies"}, {"n", n}}.dump()));
        }
    }
    const auto started = Clock::now();
    std::thread stopper([&] { running.stop(); });

    for (test::WsClient* client : {&first, &second}) {
        std::vector<std::string> seen;
        CHECK(client->read_close(5s, &seen) == std::optional<std::uint16_t>(1001));
        REQUIRE(seen.size() == 5);
        for (int n = 0; n < 5; ++n) CHECK(json::parse(seen[static_cast<std::size_t>(n)])["n"] == n);
    }
    stopper.join();
    CHECK(Clock::now() - started < 3s);
    CHECK(running.server().metrics().open_sockets.load() == 0);
    CHECK(running.server().sessions().session_count() == 0);

    // Nobody is accepted any more.
    CHECK_THROWS(test::WsClient(running.port(), "/ws", 1s));
}

TEST_CASE("stop does not wait forever for a client that never answers", "[transport][shutdown]") {
    test::RunningServer running;
    test::WsClient deaf(running.port());
    REQUIRE(deaf.hello(running.guest_token()));
    REQUIRE(test::eventually([&] { return running.server().sessions().session_count() == 1; }));

    // `deaf` never reads again, so it never answers the close frame.
    const auto started = Clock::now();
    running.stop();
    const auto took = Clock::now() - started;
    CHECK(took < server::Server::shutdown_grace + 2s);
}

TEST_CASE("stop before any client connects returns at once", "[transport][shutdown]") {
    test::RunningServer running;
    const auto started = Clock::now();
    running.stop();
    CHECK(Clock::now() - started < 1s);
}

}  // namespace transport_shutdown_test
