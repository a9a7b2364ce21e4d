// The loose ends of crash recovery (docs/storage.md, "Recovery"), each at its moment, with the real
// santorini-server binary over real sockets against a real PostgreSQL (scripts/with-postgres):
// a match that finished just before a kill -9 still opens after the restart; a kill during
// lobby.start leaves a live match that its players are told of and that the abandonment rule
// aborts; a restart with many live matches accepts connections at once and restores them all;
// a hung database (frozen, not gone) answers every request by its deadline. And the
// abandonment rule in play: an away seat loses.

#include <pqxx/pqxx>

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/store/repository.hpp"
#include "tests/integration/support.hpp"
#include "tests/integration/tcp_proxy.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace recovery_loose_ends_test {

namespace {

using namespace integration;
namespace http = boost::beast::http;
using Clock = std::chrono::steady_clock;

const json santorini_no_clock = {{"game", "santorini"}, {"players", 2},    {"powers", "none"},
                                 {"draft", "random"},   {"public", true},  {"clock", {{"kind", "none"}}}};
const json rated_queue_join = {{"type", "queue.join"},
                               {"queue", "santorini"},
                               {"clock", {{"kind", "realtime"}, {"base_seconds", 180}, {"increment_seconds", 2}}}};

std::string log_path() { return std::string(SANTORINI_SERVER_LOG) + ".loose_ends"; }

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// Everything that arrives on `p`'s connection within `wait`.
std::vector<json> read_for(Player& p, std::chrono::milliseconds wait) {
    std::vector<json> out;
    const auto until = Clock::now() + wait;
    while (Clock::now() < until) {
        auto m = p.ws->read_json(std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()));
        if (m) out.push_back(*m);
    }
    return out;
}

/// A lobby made by `host` and joined by `guest`; its id.
std::string open_lobby(Player& host, Player& guest, const json& settings) {
    std::vector<json> seen;
    REQUIRE(request(host, {{"type", "lobby.create"}, {"settings", settings}}, &seen)["type"] == "ack");
    std::string lobby, code;
    for (const json& m : seen)
        if (m.value("type", "") == "lobby") {
            lobby = m["lobby"]["id"];
            code = m["lobby"]["code"];
        }
    REQUIRE(!code.empty());
    REQUIRE(request(guest, {{"type", "lobby.join"}, {"code", code}})["type"] == "ack");
    return lobby;
}

/// A legal step for the decider that does not win: the games run as long as a test needs.
json quiet_step(const json& view, std::mt19937& rng) {
    const json& legal = view["state"]["legal"];
    const json& board = view["state"]["board"];
    std::vector<json> quiet;
    for (const json& s : legal) {
        if (s["kind"] == "move" && s.contains("to") && s["to"].is_string()) {
            const std::string sq = s["to"];
            const std::string cell = board[static_cast<std::size_t>((sq[0] - 'A') + (sq[1] - '1') * 5)];
            if (cell[0] == '3') continue;
        }
        quiet.push_back(s);
    }
    const json& from = quiet.empty() ? legal : json(quiet);
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
}

/// One step of `game` by its decider (`winning`: pick() prefers a win, else quiet_step). Returns
/// false once the game is over; `moved` counts the moves of each seat.
bool play_one(std::vector<Player*> seats_players, const Game& game, std::mt19937& rng, bool winning,
              std::vector<int>* moved = nullptr) {
    json view = view_of(*seats_players[0], game);
    if (view["status"] == "finished" || view["status"] == "aborted") return false;
    const int decider = view["state"]["decider"];
    Player& p = *seats_players[static_cast<std::size_t>(decider)];
    if (decider != 0) view = view_of(p, game);
    const json step = winning ? pick(view, rng) : quiet_step(view, rng);
    const json reply = request(p, {{"type", "match.step"}, {"match", game.match}, {"step", step}});
    INFO(reply.dump());
    REQUIRE(reply["type"] == "ack");
    if (moved && step["kind"] == "move") ++(*moved)[static_cast<std::size_t>(decider)];
    return true;
}

/// The players of `game` by seat.
std::vector<Player*> by_seat(const Game& game, std::vector<Player>& players) {
    std::vector<Player*> out;
    for (int index : game.players) out.push_back(&players[static_cast<std::size_t>(index)]);
    return out;
}

/// New guests with these names (not yet connected).
std::vector<Player> guests(std::uint16_t port, const std::vector<std::string>& names) {
    std::vector<Player> out;
    for (const std::string& name : names) out.push_back(new_guest(port, name));
    return out;
}

store::StoredMatch stored_match(store::Repository& repo, const std::string& id) {
    auto stored = repo.match(id);
    REQUIRE(stored.ok());
    return *stored;
}

}  // namespace

TEST_CASE("kill -9 right after the winning step: the finished match opens with its result",
          "[integration][postgres][recovery]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    ServerProcess server(port, url, log_path());
    server.start();
    store::Repository repo(url, 1);
    std::vector<Player> players = guests(port, {"Ann", "Bob", "Cy"});
    for (Player& p : players) connect(p, port);
    const Game game = start_match(players[0], 0, players[1], 1, santorini_no_clock);
    std::mt19937 rng(2026);
    int steps = 0;
    while (play_one(by_seat(game, players), game, rng, true)) REQUIRE(++steps < 500);
    // The winning step was acknowledged a moment ago: kill the server before anything else.
    server.kill_now();
    server.start();
    for (Player& p : players) connect(p, port);

    const store::StoredMatch stored = stored_match(repo, game.match);
    REQUIRE(stored.status == "finished");
    for (Player& p : players) {  // both seats and a spectator
        const json view = view_of(p, game);
        CHECK(view["status"] == "finished");
        CHECK(view["result"] == json::parse(stored.result_json));
        CHECK(view["result"]["reason"] == "win");
        CHECK(view["history"].size() == stored.steps.size());
    }
    // A step on it is refused as on any finished match; an id that was never stored is unknown.
    const json refused = request(players[0], {{"type", "match.resign"}, {"match", game.match}});
    CHECK(refused.value("code", "") == "wrong_phase");
    const json unknown = request(players[2], {{"type", "match.open"}, {"match", "m_neverstored0000"}});
    CHECK(unknown.value("code", "") == "unknown_match");
}

TEST_CASE("kill -9 during lobby.start: the players are told of the match, and nobody playing "
          "it aborts it",
          "[integration][postgres][recovery][abandonment]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    ServerProcess server(port, url, log_path(), {"--abandon-seconds", "3"});
    server.start();
    store::Repository repo(url, 1);
    std::vector<Player> players = guests(port, {"Ann", "Bob"});
    for (Player& p : players) connect(p, port);
    const std::string lobby = open_lobby(players[0], players[1], santorini_no_clock);
    REQUIRE(players[0].ws->send_json({{"type", "lobby.start"}, {"lobby", lobby}, {"ref", "start"}}));
    // Kill the moment the match's row is committed (the players may or may not have been told).
    std::string match;
    const auto give_up = Clock::now() + 10s;
    while (match.empty() && Clock::now() < give_up) {
        auto live = repo.live_matches();
        REQUIRE(live.ok());
        if (!live->empty()) match = live->front().id;
    }
    server.kill_now();
    REQUIRE(!match.empty());

    server.start();
    const auto restarted = Clock::now();
    for (Player& p : players) {
        connect(p, port);
        bool told = false;
        for (const json& m : read_for(p, 500ms))
            if (m.value("type", "") == "playing" && m["matches"] == json::array({match})) told = true;
        CHECK(told);
        // Seated in a live match: no rated queue yet.
        CHECK(request(p, rated_queue_join).value("code", "") == "already_in_game");
    }
    // Nobody opens it: it is aborted once the abandonment time has passed since the restart.
    store::StoredMatch stored;
    do {
        std::this_thread::sleep_for(100ms);
        stored = stored_match(repo, match);
    } while (stored.status == "live" && seconds_since(restarted) < 15);
    INFO("after " << seconds_since(restarted) << " s");
    REQUIRE(stored.status == "aborted");
    CHECK(seconds_since(restarted) >= 2.0);
    CHECK(json::parse(stored.result_json)["reason"] == "aborted");
    REQUIRE(!stored.steps.empty());
    CHECK(json::parse(stored.steps.back().step_json)["kind"] == "abandon");
    CHECK(stored.steps.back().player_id.empty());
    // Free again, and the aborted match still opens, as stored.
    std::this_thread::sleep_for(200ms);
    CHECK(request(players[0], rated_queue_join)["type"] == "ack");
    CHECK(request(players[0], {{"type", "queue.leave"}})["type"] == "ack");
    Game game;
    game.match = match;
    CHECK(view_of(players[1], game)["status"] == "aborted");
}

TEST_CASE("abandonment in play: the seat nobody has open loses, the other wins",
          "[integration][postgres][abandonment]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    ServerProcess server(port, url, log_path(), {"--abandon-seconds", "1.5"});
    server.start();
    store::Repository repo(url, 1);
    std::vector<Player> players = guests(port, {"Ann", "Bob"});
    for (Player& p : players) connect(p, port);
    const Game game = start_match(players[0], 0, players[1], 1, santorini_no_clock);
    const std::vector<Player*> seats = by_seat(game, players);
    view_of(*seats[1], game);  // both seats have it open
    // Placement, then until each seat has moved once: both have played in play.
    std::mt19937 rng(99);
    std::vector<int> moved(2);
    for (int i = 0; i < 40 && (moved[0] == 0 || moved[1] == 0); ++i)
        REQUIRE(play_one(seats, game, rng, false, &moved));
    REQUIRE(moved[0] > 0);
    REQUIRE(moved[1] > 0);
    // Seat 1 leaves the match; seat 0 stays and is told the result.
    REQUIRE(request(*seats[1], {{"type", "match.close"}, {"match", game.match}})["type"] == "ack");
    const auto left = Clock::now();
    json result;
    while (result.is_null() && seconds_since(left) < 8) {
        auto m = seats[0]->ws->read_json(500ms);
        if (m && m->value("type", "") == "match.patch")
            for (const json& op : (*m)["patch"])
                if (op["path"] == "/result" && !op["value"].is_null()) result = op["value"];
    }
    INFO("after " << seconds_since(left) << " s");
    REQUIRE(!result.is_null());
    CHECK(seconds_since(left) >= 1.2);
    CHECK(result["reason"] == "abandoned");
    CHECK(result["winners"] == json::array({0}));
    const store::StoredMatch stored = stored_match(repo, game.match);
    CHECK(stored.status == "finished");
    CHECK(json::parse(stored.steps.back().step_json) == json{{"kind", "abandon"}, {"seat", 1}});
}

TEST_CASE("restart with many live matches: connections are accepted at once, every match comes "
          "back",
          "[integration][postgres][recovery][restart]") {
    // 1,000 matches (100 when random games are cut down, as under ASan);
    // SANTORINI_RESTORE_MATCHES and SANTORINI_RESTORE_STEPS size it for the benchmark
    // (docs/benchmarks.md: 10,000 x 35).
    const char* percent_env = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    const int percent = percent_env ? std::atoi(percent_env) : 100;
    const char* count_env = std::getenv("SANTORINI_RESTORE_MATCHES");
    const char* steps_env = std::getenv("SANTORINI_RESTORE_STEPS");
    const int count = count_env ? std::atoi(count_env) : percent < 100 ? 100 : 1000;
    const int steps = steps_env ? std::atoi(steps_env) : 35;
    REQUIRE(count >= 1);

    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    ServerProcess server(port, url, log_path());
    server.start();
    std::vector<Player> players = guests(port, {"Ann", "Bob"});
    for (Player& p : players) connect(p, port);
    // One live match of `steps` steps played over the sockets, then copied in SQL: every copy
    // replays exactly (same settings, seed and steps) under an id of its own.
    Game game;
    int played = 0;
    for (int attempt = 0; attempt < 5 && played < steps; ++attempt) {
        game = start_match(players[0], 0, players[1], 1, santorini_no_clock);
        std::mt19937 rng(static_cast<unsigned>(attempt));
        for (played = 0; played < steps && play_one(by_seat(game, players), game, rng, false);) ++played;
    }
    REQUIRE(played == steps);
    server.kill_now();
    // The other live matches of this schema are aborted ones' leftovers: none.
    copy_match(url, game.match, count);

    const auto begin = Clock::now();
    server.start(false);  // returns once HTTP answers, recovery or not
    const double accepting = seconds_since(begin);
    // A connection during recovery: welcome at once; a match not yet restored answers a
    // retryable unavailable, a restored one its snapshot.
    connect(players[1], port);
    Game last;
    last.match = game.match + "_" + std::to_string(count);
    if (count == 1) last.match = game.match;
    const json early = request(players[1], {{"type", "match.open"}, {"match", last.match}});
    CHECK((early.value("type", "") == "ack" || early.value("code", "") == "unavailable"));
    bool recovering = true;
    while (recovering && seconds_since(begin) < 120) {
        const auto health = test::http_request(port, http::verb::get, "/healthz", {}, 1s);
        recovering = json::parse(health.body()).contains("recovering");
        if (recovering) std::this_thread::sleep_for(5ms);
    }
    const double restored = seconds_since(begin);
    REQUIRE(!recovering);
    const std::string metrics = test::http_request(port, http::verb::get, "/metrics", {}, 2s).body();
    CHECK(metrics.find("santorini_live_matches " + std::to_string(count) + "\n") != std::string::npos);
    const json view = view_of(players[1], last);
    CHECK(view["status"] == "playing");
    CHECK(view["history"].size() == static_cast<std::size_t>(steps));
    std::printf("restart with %d live matches x %d steps: accepting after %.3f s, restored after "
                "%.3f s\n",
                count, steps, accepting, restored);
    // Accepting does not wait for the replays (migrations and the seats' read come first).
    CHECK(accepting < 5);
}

TEST_CASE("a hung database: every request answers unavailable or 503 by its deadline, /readyz "
          "fails, and all is well once it answers again",
          "[integration][postgres][deadlines]") {
    const std::string url = fresh_schema_url(database_url());
    TcpProxy proxy(port_of(url));
    const std::uint16_t port = free_port();
    ServerProcess server(port, with_port(url, proxy.port()), log_path());
    server.start();
    store::Repository repo(url, 1);
    std::vector<Player> players = guests(port, {"Ann", "Bob", "Cy"});
    // After a restart no token is known in memory: a hello must read the database.
    server.kill_now();
    server.start();
    connect(players[0], port);
    connect(players[1], port);
    const std::string lobby = open_lobby(players[0], players[1], santorini_no_clock);
    CHECK(test::http_request(port, http::verb::get, "/readyz", {}, 2s).result() == http::status::ok);

    proxy.freeze();
    std::this_thread::sleep_for(100ms);
    constexpr double deadline = 2.0;  // Config::database_deadline
    constexpr double slack = 1.5;

    auto t = Clock::now();
    const json refused = request(players[0], {{"type", "lobby.start"}, {"lobby", lobby}});
    CHECK(refused.value("code", "") == "unavailable");
    CHECK(seconds_since(t) < deadline + slack);

    t = Clock::now();
    auto guest = test::http_request(port, http::verb::post, "/api/guests", json{{"name", "Dee"}}.dump(), 10s);
    CHECK(guest.result() == http::status::service_unavailable);
    CHECK(guest[http::field::retry_after] != "");
    CHECK(seconds_since(t) < deadline + slack);

    t = Clock::now();
    auto page = test::http_request(port, http::verb::get, "/api/players/" + players[0].id, {}, 10s);
    CHECK(page.result() == http::status::service_unavailable);
    CHECK(page[http::field::retry_after] != "");
    CHECK(seconds_since(t) < deadline + slack);

    t = Clock::now();
    test::WsClient hello(port);
    REQUIRE(hello.send_json({{"type", "hello"}, {"protocol", 1}, {"token", players[2].token}, {"ref", 1}}));
    auto answer = hello.read_json(10s);
    REQUIRE(answer);
    CHECK(answer->value("code", "") == "unavailable");
    CHECK(seconds_since(t) < deadline + slack);

    t = Clock::now();
    const json old = request(players[1], {{"type", "match.open"}, {"match", "m_stored_or_not"}});
    CHECK(old.value("code", "") == "unavailable");
    CHECK(seconds_since(t) < deadline + slack);

    // The health checks notice within the probe's deadline.
    http::status ready = http::status::ok;
    t = Clock::now();
    while (ready == http::status::ok && seconds_since(t) < 6) {
        ready = test::http_request(port, http::verb::get, "/readyz", {}, 2s).result();
        std::this_thread::sleep_for(50ms);
    }
    CHECK(ready == http::status::service_unavailable);
    const auto health = test::http_request(port, http::verb::get, "/healthz", {}, 2s);
    CHECK(health.result() == http::status::ok);
    CHECK(json::parse(health.body())["database"] == "unreachable");

    proxy.thaw();
    t = Clock::now();
    while (ready != http::status::ok && seconds_since(t) < 10) {
        std::this_thread::sleep_for(100ms);
        ready = test::http_request(port, http::verb::get, "/readyz", {}, 2s).result();
    }
    CHECK(ready == http::status::ok);
    json started;
    t = Clock::now();
    do {
        started = request(players[0], {{"type", "lobby.start"}, {"lobby", lobby}});
        if (started["type"] != "ack") std::this_thread::sleep_for(200ms);
    } while (started["type"] != "ack" && seconds_since(t) < 10);
    INFO(started.dump());
    REQUIRE(started["type"] == "ack");
    // A creation that committed after its deadline was told nobody: it is aborted, so the one
    // started now is the only live match.
    std::size_t live = 0;
    t = Clock::now();
    do {
        std::this_thread::sleep_for(100ms);
        auto matches = repo.live_matches();
        REQUIRE(matches.ok());
        live = matches->size();
    } while (live != 1 && seconds_since(t) < 10);
    CHECK(live == 1);
    CHECK(test::http_request(port, http::verb::post, "/api/guests", json{{"name", "Dee"}}.dump(), 5s)
              .result() == http::status::created);
}

}  // namespace recovery_loose_ends_test
