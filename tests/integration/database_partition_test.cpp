// The database host goes dark under a running server: a partition with no resets, so every open
// connection stays open and nothing ever comes back on it (tcp_proxy.hpp, partition()), while new
// connections get through. libpq would wait in recv() until TCP gives up, hours later, pinning the
// threads that made the calls; the stall watch (server/store/stall_watch.hpp) cuts each call at
// --database-stall-ms, so the server serves again through new connections: guests are created,
// /readyz is ready, the same game goes on to its end, and exactly the acknowledged steps are
// stored.

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
namespace database_partition_test {

namespace {

using namespace integration;
namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

/// Plays one step of `game`, retrying while the server answers `unavailable`, until `until`;
/// false if the game is over. How many refusals came first goes to `refused`.
bool play_one(std::vector<Player>& players, Game& game, std::mt19937& rng, Clock::time_point until,
              int& refused) {
    while (true) {
        REQUIRE(Clock::now() < until);
        auto [p, view] = decider_view(players, game);
        if (p == nullptr) return false;
        const json step = pick(view, rng);
        const json reply = request(*p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
        if (reply["type"] == "ack") {
            game.steps.push_back(step);
            return true;
        }
        INFO(reply.dump());
        REQUIRE(reply["code"] == "unavailable");
        ++refused;
        std::this_thread::sleep_for(200ms);
    }
}

}  // namespace

TEST_CASE("a partitioned database: calls that never answer are cut at the stall limit, and the "
          "server serves again through new connections",
          "[integration][postgres][deadlines]") {
    const std::string url = fresh_schema_url(database_url());
    TcpProxy proxy(port_of(url));
    const std::uint16_t port = free_port();
    const std::string log = std::string(SANTORINI_SERVER_LOG) + ".partition";
    std::fclose(std::fopen(log.c_str(), "w"));
    constexpr auto stall = 3s;
    ServerProcess server(port, with_port(url, proxy.port()), log, {"--database-stall-ms", "3000"});
    server.start();
    const auto until = Clock::now() + 90s;

    std::vector<Player> players;
    for (const char* name : {"Ann", "Bob"}) {
        players.push_back(new_guest(port, name));
        connect(players.back(), port);
    }
    const json settings = {{"game", "santorini"}, {"players", 2},    {"powers", "none"},
                           {"draft", "random"},   {"public", false}, {"rated", true},
                           {"clock", {{"kind", "none"}}}};
    Game game = start_match(players[0], 0, players[1], 1, settings);
    std::mt19937 rng(2030);
    int refused = 0;
    for (int i = 0; i < 6; ++i) REQUIRE(play_one(players, game, rng, until, refused));
    REQUIRE(refused == 0);

    proxy.partition();
    const auto dark = Clock::now();
    // Every kind of caller meets a dark connection: the step store's writer, the repository's
    // pool (guests), the health probe. Each is answered by its deadline meanwhile.
    {
        auto [p, view] = decider_view(players, game);
        const json reply =
            request(*p, {{"type", "match.step"}, {"match", game.match}, {"step", pick(view, rng)}});
        INFO(reply.dump());
        CHECK(reply["type"] == "error");
        CHECK(reply.value("code", "") == "unavailable");
    }
    CHECK(test::http_request(port, http::verb::post, "/api/guests", json{{"name", "Cyd"}}.dump(), 10s)
              .result() == http::status::service_unavailable);

    // Guests again: once the stuck calls are cut, the pool connects anew. Without the cut the
    // hub's two database threads would wait for ever and every guest would get 503.
    http::status created = http::status::service_unavailable;
    while (created != http::status::created && Clock::now() < until) {
        created = test::http_request(port, http::verb::post, "/api/guests", json{{"name", "Dee"}}.dump(), 10s)
                      .result();
        if (created != http::status::created) std::this_thread::sleep_for(250ms);
    }
    REQUIRE(created == http::status::created);
    CHECK(Clock::now() - dark >= stall);

    // The health probe's ping was cut too: ready again.
    http::status ready = http::status::service_unavailable;
    while (ready != http::status::ok && Clock::now() < until) {
        ready = test::http_request(port, http::verb::get, "/readyz", {}, 5s).result();
        if (ready != http::status::ok) std::this_thread::sleep_for(250ms);
    }
    CHECK(ready == http::status::ok);
    const std::string metrics = test::http_request(port, http::verb::get, "/metrics", {}, 5s).body();
    INFO(metrics);
    CHECK(metrics.find("santorini_database_calls_cut_total 0\n") == std::string::npos);
    CHECK(metrics.find("santorini_database_calls_cut_total ") != std::string::npos);

    // The same game goes on to its end through the writer's new connection.
    refused = 0;
    while (play_one(players, game, rng, until, refused)) {
    }
    INFO("refused after the partition: " << refused);

    // Stored: exactly the acknowledged steps, in order (the step sent into the dark connection
    // never reached the database); finished and rated.
    check_stored_finished(url, game);
}

}  // namespace database_partition_test
