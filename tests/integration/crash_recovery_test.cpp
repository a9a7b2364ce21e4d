// Crash recovery against a real PostgreSQL (SANTORINI_TEST_DATABASE_URL, see
// scripts/with-postgres): the santorini-server binary runs as a child process on a free loopback
// port, several games (Santorini and Splendor) are played at once by WebSocket clients taking
// random legal steps, the server is SIGKILLed at random moments (a bounded number of times) and
// restarted, and after every restart each step a client saw acknowledged must be stored, in order;
// then every game is played to its end and must be stored finished and rated.

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdio>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/store/repository.hpp"
#include "tests/integration/support.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace crash_recovery_test {

namespace {

using namespace integration;

constexpr int game_count = 6;
constexpr int kill_count = 3;
constexpr auto test_deadline = 50s;  // the whole test stops by itself well before a minute

/// Checks that what the clients saw acknowledged is stored, in order, and adopts the stored
/// steps as the truth (a step may be stored without its acknowledgement having arrived).
void check_stored(store::Repository& repo, std::vector<Game>& games) {
    for (Game& game : games) {
        auto stored = repo.match(game.match);
        INFO("match " << game.match);
        REQUIRE(stored.ok());
        REQUIRE(stored->steps.size() >= game.steps.size());
        std::vector<json> steps;
        for (std::size_t i = 0; i < stored->steps.size(); ++i) {
            REQUIRE(stored->steps[i].number == i + 1);
            REQUIRE(!stored->steps[i].state_hash.empty());
            steps.push_back(json::parse(stored->steps[i].step_json));
            if (i < game.steps.size()) CHECK(steps[i] == game.steps[i]);
        }
        game.steps = std::move(steps);
    }
}

}  // namespace

TEST_CASE("SIGKILLed server: every acknowledged step survives and every game finishes",
          "[integration][postgres]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    std::fclose(std::fopen(SANTORINI_SERVER_LOG, "w"));  // this run's log only
    ServerProcess server(port, url, SANTORINI_SERVER_LOG);
    server.start();
    store::Repository repo(url, 2);
    const auto deadline = std::chrono::steady_clock::now() + test_deadline;

    std::vector<Player> players;
    for (int i = 0; i < 2 * game_count; ++i) {
        players.push_back(new_guest(port, "P" + std::to_string(i)));
        connect(players.back(), port);
    }

    // Santorini without powers, with simple powers (confirming turns: the random steps take
    // some back with `undo`, which recovery must replay too), and Splendor (three rating pools).
    // Splendor's reserves from a deck draw hidden cards: recovery replays them from the seed
    // and the stored hashes, never from anything a client saw.
    std::vector<Game> games;
    for (int g = 0; g < game_count; ++g) {
        const json settings = g % 3 == 2 ? json{{"game", "splendor"},
                                                {"players", 2},
                                                {"public", false},
                                                {"rated", true},
                                                {"clock", {{"kind", "none"}}}}
                                         : json{{"game", "santorini"},
                                                {"players", 2},
                                                {"powers", g % 3 ? "simple" : "none"},
                                                {"draft", "random"},
                                                {"confirm_turns", g % 3 == 1},
                                                {"public", false},
                                                {"rated", true},
                                                {"clock", {{"kind", "none"}}}};
        games.push_back(start_match(players[static_cast<std::size_t>(2 * g)], 2 * g,
                                    players[static_cast<std::size_t>(2 * g + 1)], 2 * g + 1,
                                    settings));
    }

    // The killer: SIGKILL at random moments while the games are played, a bounded number of
    // times, each time waiting for the restart before the next. The moments are tied to the
    // play, not to the clock (a fast server finishes these games in well under a second): each
    // kill waits for a random number of acknowledged steps, then a random few milliseconds, so
    // it lands between steps or in the middle of one.
    std::atomic<bool> done{false};
    std::atomic<int> steps_played{0};
    std::thread killer([&] {
        std::mt19937 rng(std::random_device{}());
        std::uniform_int_distribution<int> steps_between(3, 40);
        std::uniform_int_distribution<int> pause_us(0, 3000);
        int next_kill_at = 0;
        for (int k = 0; k < kill_count && !done; ++k) {
            next_kill_at = steps_played + steps_between(rng);
            while (!done && steps_played < next_kill_at &&
                   std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(100us);
            std::this_thread::sleep_for(std::chrono::microseconds(pause_us(rng)));
            server.wait_ready(deadline);
            if (done) break;
            server.kill_if_ready();
        }
    });
    struct JoinKiller {
        std::atomic<bool>& done;
        std::thread& thread;
        ServerProcess& server;
        ~JoinKiller() {
            done = true;
            server.stop_waiting();
            thread.join();
        }
    } join_killer{done, killer, server};

    std::mt19937 rng(12345);
    int restarts = 0;
    bool reconnect = false;
    auto all_over = [&] {
        for (const Game& g : games)
            if (!g.over) return false;
        return true;
    };
    while (!all_over()) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        try {
            // After a restart: what was acknowledged is stored; then everyone reconnects. (Inside
            // the try: the killer may strike again while they do.)
            if (reconnect) {
                check_stored(repo, games);
                for (Player& p : players) connect(p, port);
                reconnect = false;
            }
            for (Game& game : games) {
                if (game.over) continue;
                // Who decides: seat 0's view says; the decider's own view lists its legal steps.
                json view = view_of(players[static_cast<std::size_t>(game.players[0])], game);
                if (view["status"] == "finished" || view["status"] == "aborted") {
                    game.over = true;
                    continue;
                }
                const json decider = view["state"]["decider"];
                REQUIRE(decider.is_number_integer());
                Player& p =
                    players[static_cast<std::size_t>(game.players[decider.get<std::size_t>()])];
                if (decider != 0) view = view_of(p, game);
                const json legal = view["state"]["legal"];
                REQUIRE(legal.is_array());
                REQUIRE(!legal.empty());
                const json step = pick(view, rng);
                const json reply =
                    request(p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
                if (reply["type"] == "ack") {
                    game.steps.push_back(step);
                    ++steps_played;
                } else {
                    INFO(reply.dump());
                    // The database may be catching up after a restart: try again.
                    REQUIRE(reply["code"] == "unavailable");
                }
            }
        } catch (const Lost&) {
            // The server is gone: it must have been killed (never by itself).
            REQUIRE(server.kills() > restarts);
            server.restart();
            ++restarts;
            reconnect = true;
        }
    }
    done = true;
    INFO("steps " << steps_played.load() << ", restarts " << restarts);
    check_stored(repo, games);
    int splendor = 0;
    for (const Game& game : games) {
        auto stored = repo.match(game.match);
        REQUIRE(stored.ok());
        splendor += stored->game == "splendor";
        CHECK(stored->status == "finished");
        CHECK(!stored->result_json.empty());
        CHECK(!stored->state_hash.empty());
        for (const store::StoredSeat& seat : stored->seats) CHECK(seat.rating_after.has_value());
    }
    CHECK(splendor == 2);
    // A final restart with nothing live recovers nothing and loses nothing.
    if (server.kill_if_ready()) server.restart();
    check_stored(repo, games);
    CHECK(restarts >= 1);
    SUCCEED();
}

}  // namespace crash_recovery_test
