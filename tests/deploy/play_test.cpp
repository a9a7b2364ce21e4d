// A client that plays against a santorini-server already running on 127.0.0.1:PORT (a container,
// a systemd unit, a node behind HAProxy): deploy-play, run by tests/deploy/container_test.sh.
// Not a ctest: the server under test is started by the script, not by this program.
//
//   SANTORINI_DEPLOY_PORT=8080 build/release/deploy-play
//
// Two guests over HTTP, a private lobby each for a Santorini game (simple powers, the draft)
// and a Splendor game, played to the end over WebSocket with random legal steps; then each
// match must be `finished` in the HTTP API (container_test.sh checks again from a new
// container, so from the database). Like the integration tests, the players send faster than
// the default per-connection rate (20 messages/s): the server under test needs
// SANTORINI_MESSAGES_PER_SECOND and SANTORINI_MESSAGE_BURST raised, or a request is dropped.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/integration/support.hpp"

namespace {

using namespace integration;
namespace http = boost::beast::http;

constexpr auto play_deadline = 60s;  // both games take a second or two against a healthy server

std::uint16_t deploy_port() {
    const char* text = std::getenv("SANTORINI_DEPLOY_PORT");
    REQUIRE(text != nullptr);
    const int port = std::atoi(text);
    REQUIRE(port > 0);
    REQUIRE(port < 65536);
    return static_cast<std::uint16_t>(port);
}

/// Plays `game` to its end: the decider's own view lists its legal steps.
int play_to_end(std::vector<Player>& players, Game& game, std::mt19937& rng,
                std::chrono::steady_clock::time_point deadline) {
    int steps = 0;
    while (true) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        json view = view_of(players[static_cast<std::size_t>(game.players[0])], game);
        if (view["status"] == "finished" || view["status"] == "aborted") {
            CHECK(view["status"] == "finished");
            return steps;
        }
        const json decider = view["state"]["decider"];
        REQUIRE(decider.is_number_integer());
        Player& p = players[static_cast<std::size_t>(game.players[decider.get<std::size_t>()])];
        if (decider != 0) view = view_of(p, game);
        REQUIRE(!view["state"]["legal"].empty());
        const json step = pick(view, rng);
        const json reply =
            request(p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
        INFO(reply.dump());
        REQUIRE(reply["type"] == "ack");
        ++steps;
    }
}

}  // namespace

TEST_CASE("a deployed server: health, two games played to the end and stored", "[deploy]") {
    const std::uint16_t port = deploy_port();
    const auto deadline = std::chrono::steady_clock::now() + play_deadline;

    const auto health = test::http_request(port, http::verb::get, "/healthz");
    REQUIRE(health.result() == http::status::ok);
    // The image serves the browser client from its own web/.
    const auto index = test::http_request(port, http::verb::get, "/");
    REQUIRE(index.result() == http::status::ok);
    CHECK(index.body().find("<html") != std::string::npos);

    std::vector<Player> players;
    players.push_back(new_guest(port, "Deploy A"));
    players.push_back(new_guest(port, "Deploy B"));
    for (Player& p : players) connect(p, port);

    const std::vector<json> settings = {
        {{"game", "santorini"},
         {"players", 2},
         {"powers", "simple"},
         {"draft", "random"},
         {"public", false},
         {"clock", {{"kind", "none"}}}},
        {{"game", "splendor"}, {"players", 2}, {"public", false}, {"clock", {{"kind", "none"}}}},
    };
    std::mt19937 rng(2026);
    for (const json& s : settings) {
        Game game = start_match(players[0], 0, players[1], 1, s);
        const int steps = play_to_end(players, game, rng, deadline);
        INFO("match " << game.match << " after " << steps << " steps");
        CHECK(steps > 0);
        // Finished for the HTTP API too.
        const auto header = test::http_request(port, http::verb::get, "/api/matches/" + game.match);
        INFO(header.body());
        REQUIRE(header.result() == http::status::ok);
        CHECK(json::parse(header.body())["status"] == "finished");
        std::printf("deploy-play: %s %s finished after %d steps\n",
                    s["game"].get<std::string>().c_str(), game.match.c_str(), steps);
    }
}
