// The database goes away under a running server, and comes back: the santorini-server binary
// reaches a real PostgreSQL through a loopback TCP proxy (tcp_proxy.hpp) that the test cuts.
// While it is cut, steps are refused with `unavailable` and change nothing (no acknowledgement,
// no patch, the same view), and new guests get 503; once it is back, the server recovers by
// itself: the same game goes on to its end, and every acknowledged step is stored in order.

#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/integration/support.hpp"
#include "tests/integration/tcp_proxy.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace database_outage_test {

namespace {

using namespace integration;
namespace http = boost::beast::http;

constexpr auto test_deadline = 60s;

/// What must not change when a step is refused: everything but the clocks and presence.
json position(const json& view) { return {view["status"], view["history"], view["state"]}; }

}  // namespace

TEST_CASE("the database goes away and comes back: refused steps change nothing, play resumes",
          "[integration][postgres]") {
    const std::string url = fresh_schema_url(database_url());
    TcpProxy proxy(port_of(url));
    const std::uint16_t port = free_port();
    const std::string log = std::string(SANTORINI_SERVER_LOG) + ".outage";
    std::fclose(std::fopen(log.c_str(), "w"));
    ServerProcess server(port, with_port(url, proxy.port()), log);
    server.start();
    const auto deadline = std::chrono::steady_clock::now() + test_deadline;

    std::vector<Player> players;
    for (const char* name : {"Ann", "Bob"}) {
        players.push_back(new_guest(port, name));
        connect(players.back(), port);
    }
    const json settings = {{"game", "santorini"}, {"players", 2},    {"powers", "none"},
                           {"draft", "random"},   {"public", false}, {"rated", true},
                           {"clock", {{"kind", "none"}}}};
    Game game = start_match(players[0], 0, players[1], 1, settings);
    std::mt19937 rng(2026);

    // Placement and a few moves with the database up.
    for (int i = 0; i < 8; ++i) {
        auto [p, view] = decider_view(players, game);
        const json step = pick(view, rng);
        const json reply =
            request(*p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
        INFO(reply.dump());
        REQUIRE(reply["type"] == "ack");
        game.steps.push_back(step);
    }

    proxy.cut();
    auto [p, before] = decider_view(players, game);
    for (int attempt = 0; attempt < 3; ++attempt) {
        const json step = pick(before, rng);
        std::vector<json> seen;
        const json reply =
            request(*p, {{"type", "match.step"}, {"match", game.match}, {"step", step}}, &seen);
        INFO(reply.dump());
        REQUIRE(reply["type"] == "error");
        CHECK(reply["code"] == "unavailable");
        for (const json& m : seen) CHECK(m.value("type", "") != "match.patch");
    }
    // Nothing changed, for either side.
    CHECK(position(decider_view(players, game).second) == position(before));
    CHECK(view_of(players[0], game)["state"]["board"] == before["state"]["board"]);
    // A new guest needs the database too.
    const auto guest = test::http_request(port, http::verb::post, "/api/guests",
                                          json{{"name", "Cyd"}}.dump());
    CHECK(guest.result() == http::status::service_unavailable);
    CHECK(proxy.accepted() > 0);

    // The database is back: the store reconnects by itself (with backoff); the same game
    // goes on. The first steps may still be refused while it does.
    proxy.restore();
    int refused_after_restore = 0;
    while (true) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        auto [q, view] = decider_view(players, game);
        const json step = pick(view, rng);
        const json reply =
            request(*q, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
        if (reply["type"] == "ack") {
            game.steps.push_back(step);
            break;
        }
        INFO(reply.dump());
        REQUIRE(reply["code"] == "unavailable");
        ++refused_after_restore;
        std::this_thread::sleep_for(100ms);
    }
    INFO("refused after the restore: " << refused_after_restore);
    CHECK(refused_after_restore < 50);

    // To the end.
    while (true) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        auto [q, view] = decider_view(players, game);
        if (q == nullptr) {
            REQUIRE(view["status"] == "finished");
            break;
        }
        const json step = pick(view, rng);
        const json reply =
            request(*q, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
        INFO(reply.dump());
        REQUIRE(reply["type"] == "ack");
        game.steps.push_back(step);
    }

    // Stored: exactly the acknowledged steps, in order; finished and rated.
    check_stored_finished(url, game);
    // And guests can be created again.
    CHECK(test::http_request(port, http::verb::post, "/api/guests", json{{"name", "Dee"}}.dump())
              .result() == http::status::created);
}

}  // namespace database_outage_test
