// Splendor with `confirm_turns` and undos against a real PostgreSQL (SANTORINI_TEST_DATABASE_URL,
// see scripts/with-postgres): the santorini-server binary plays a 2-player game over WebSocket to
// its end, the players taking steps back at random; every undo gives back the decider's earlier
// state. In the middle of a turn with steps to take back the server is SIGKILLed and restarted:
// recovery replays the stored undo steps, checking every stored state hash, and the recovered
// match offers the same undo as before. At the end the store holds every undo, and the replay
// API shows them: their records, the line `undo`, the position they restored.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/store/repository.hpp"
#include "tests/integration/support.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace splendor_undo_test {

namespace {

using namespace integration;
namespace http = boost::beast::http;

const json undo = {{"kind", "undo"}};
const json end_turn = {{"kind", "end_turn"}};

bool has(const json& legal, const json& step) {
    for (const auto& s : legal)
        if (s == step) return true;
    return false;
}

json get_ok(std::uint16_t port, const std::string& target) {
    const auto response = test::http_request(port, http::verb::get, target);
    INFO(target << ": " << response.body());
    REQUIRE(response.result() == http::status::ok);
    return json::parse(response.body());
}

}  // namespace

TEST_CASE("Splendor with confirm turns: undos stored, recovered with their hashes, replayed",
          "[integration][postgres][undo]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    const std::string log =
        (std::filesystem::path(SANTORINI_SERVER_LOG).parent_path() / "splendor_undo_server.log")
            .string();
    std::fclose(std::fopen(log.c_str(), "w"));
    ServerProcess server(port, url, log);
    server.start();
    store::Repository repo(url, 2);

    std::vector<Player> players;
    players.push_back(new_guest(port, "Ann"));
    players.push_back(new_guest(port, "Bob"));
    for (Player& p : players) connect(p, port);
    Game game = start_match(players[0], 0, players[1], 1,
                            {{"game", "splendor"},
                             {"players", 2},
                             {"confirm_turns", true},
                             {"public", true},  // its replay is fetched without the invite code
                             {"clock", {{"kind", "none"}}}});

    std::mt19937 rng(20261125);
    // The decider's states before the steps it may still take back, latest last.
    std::vector<json> earlier;
    int undos = 0, end_turns = 0, confirms = 0, restarts = 0;
    std::vector<json> steps;
    while (true) {
        REQUIRE(steps.size() < 3000);
        json view = view_of(players[static_cast<std::size_t>(game.players[0])], game);
        if (view["status"] == "finished") break;
        const int seat = view["state"]["decider"];
        Player& p = players[static_cast<std::size_t>(game.players[static_cast<std::size_t>(seat)])];
        if (seat != 0) view = view_of(p, game);
        const json& legal = view["state"]["legal"];
        REQUIRE(legal.is_array());
        CHECK(has(legal, undo) == !earlier.empty());
        if (view["state"]["phase"] == "confirm") {
            ++confirms;
            CHECK(legal.front() == end_turn);
            CHECK(legal.size() == (earlier.empty() ? 1u : 2u));
        }
        // In the middle of a turn with steps to take back, once: the server dies and recovers.
        if (restarts == 0 && undos >= 3 && !earlier.empty()) {
            REQUIRE(server.kill_if_ready());
            server.restart();
            ++restarts;
            for (Player& q : players) connect(q, port);
            const json again = view_of(p, game);
            CHECK(again["state"] == view["state"]);  // legal, undo included
            CHECK(again["history"] == view["history"]);
        }
        json step;
        if (has(legal, undo) && rng() % 3 == 0)
            step = undo;
        else if (has(legal, end_turn))
            step = end_turn;
        else
            do step = pick(view, rng);
            while (step == undo);
        const json reply = request(p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
        INFO(reply.dump());
        REQUIRE(reply["type"] == "ack");
        steps.push_back(step);
        const json after = view_of(p, game);
        REQUIRE(after["history"].is_array());
        if (step == undo) {
            ++undos;
            CHECK(after["history"].back() == "undo");
            CHECK(after["state"] == earlier.back());
            earlier.pop_back();
            continue;
        }
        end_turns += step == end_turn;
        if (after["state"]["decider"] == seat && has(after["state"]["legal"], undo))
            earlier.push_back(view["state"]);
        else
            earlier.clear();
    }
    INFO("steps " << steps.size() << ", undos " << undos << ", end_turns " << end_turns);
    CHECK(restarts == 1);
    CHECK(undos >= 5);
    CHECK(confirms >= end_turns);

    // The store: every step, undos included, with its state hash; the match finished.
    auto stored = repo.match(game.match);
    REQUIRE(stored.ok());
    CHECK(stored->status == "finished");
    REQUIRE(stored->steps.size() == steps.size());
    int stored_undos = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        CHECK(json::parse(stored->steps[i].step_json) == steps[i]);
        CHECK(!stored->steps[i].state_hash.empty());
        stored_undos += steps[i] == undo;
    }
    CHECK(stored_undos == undos);
    // An undo stores the hash of the state it restored: the one stored two records earlier
    // when it took back the record just before it.
    for (std::size_t i = 2; i < steps.size(); ++i)
        if (steps[i] == undo && steps[i - 1] != undo)
            CHECK(stored->steps[i].state_hash == stored->steps[i - 2].state_hash);

    // The replay API: the undo records, their line, and the position they restored.
    const json replay = get_ok(port, "/api/matches/" + game.match + "/replay");
    REQUIRE(replay["steps"].size() == steps.size());
    int checked = 0;
    for (std::size_t i = 0; i < steps.size() && checked < 4; ++i) {
        CHECK(replay["steps"][i]["step"] == steps[i]);
        if (steps[i] != undo || i < 2 || steps[i - 1] == undo) continue;
        const std::string base = "/api/matches/" + game.match + "/view?after=";
        const json at_undo = get_ok(port, base + std::to_string(i + 1));
        const json before_undone = get_ok(port, base + std::to_string(i - 1));
        CHECK(at_undo["view"]["history"].back() == "undo");
        CHECK(at_undo["view"]["state"] == before_undone["view"]["state"]);
        ++checked;
    }
    CHECK(checked > 0);
    WARN("steps " << steps.size() << ", undos " << undos << ", end_turns " << end_turns
                  << ", replayed undo positions checked " << checked);
    for (Player& p : players) p.ws.reset();
}

}  // namespace splendor_undo_test
