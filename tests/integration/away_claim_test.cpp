// An opponent who is away (docs/protocol.md, "Abandonment"; docs/rulings.md, "Away players"),
// with the real santorini-server binary over real sockets against a real PostgreSQL
// (scripts/with-postgres): every viewer's view carries the away seat's fixed instants, which go
// when the player returns; a claim before the claim time is refused and changes nothing; a claim
// after it ends the match at once as the rule's timer would, stored the same way.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/store/repository.hpp"
#include "tests/integration/support.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace away_claim_test {

namespace {

using namespace integration;
using Clock = std::chrono::steady_clock;

// The abandonment time the server runs with; the claim time is a fifth of it.
constexpr int abandon_seconds = 10;
constexpr std::int64_t abandon_ms = abandon_seconds * 1000;
constexpr std::int64_t claim_ms = abandon_ms / 5;

const json santorini_no_clock = {{"game", "santorini"}, {"players", 2},
                                 {"powers", "none"},    {"draft", "random"},
                                 {"public", true},      {"clock", {{"kind", "none"}}}};

std::string log_path() {
    return std::string(SANTORINI_SERVER_LOG) + ".away_claim";
}

double seconds_since(Clock::time_point t) {
    return std::chrono::duration<double>(Clock::now() - t).count();
}

/// A viewer's copy of a match's view, kept by applying the patches it is sent.
struct Follower {
    Player* player = nullptr;
    json view;
    /// Applies every patch of `match` that arrives within `wait`.
    void follow(const std::string& match, std::chrono::milliseconds wait = 300ms) {
        const auto until = Clock::now() + wait;
        while (Clock::now() < until) {
            auto m = player->ws->read_json(
                std::chrono::duration_cast<std::chrono::milliseconds>(until - Clock::now()));
            if (m && m->value("type", "") == "match.patch" && (*m)["match"] == match)
                view = view.patch((*m)["patch"]);
        }
    }
};

json claim(Player& p, const Game& game, int seat, const char* what) {
    return request(
        p, {{"type", "match.claim"}, {"match", game.match}, {"seat", seat}, {"what", what}});
}

store::StoredMatch stored_match(store::Repository& repo, const std::string& id) {
    auto stored = repo.match(id);
    REQUIRE(stored.ok());
    return *stored;
}

/// A legal step that does not win, so the game lasts.
json quiet_step(const json& view, std::mt19937& rng) {
    const json& legal = view["state"]["legal"];
    const json& board = view["state"]["board"];
    std::vector<json> quiet;
    for (const json& s : legal) {
        if (s["kind"] == "move" && s.contains("to") && s["to"].is_string()) {
            const std::string sq = s["to"];
            const std::string cell =
                board[static_cast<std::size_t>((sq[0] - 'A') + (sq[1] - '1') * 5)];
            if (cell[0] == '3') continue;
        }
        quiet.push_back(s);
    }
    const json& from = quiet.empty() ? legal : json(quiet);
    return from[std::uniform_int_distribution<std::size_t>(0, from.size() - 1)(rng)];
}

}  // namespace

TEST_CASE(
    "away seats show their instants to every viewer; a claim before the claim time is "
    "refused and changes nothing; after it, the match ends as the rule's",
    "[integration][postgres][abandonment][claim]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    ServerProcess server(port, url, log_path(),
                         {"--abandon-seconds", std::to_string(abandon_seconds)});
    server.start();
    store::Repository repo(url, 1);
    std::vector<Player> players;
    for (const char* name : {"Ann", "Bob", "Cy"}) players.push_back(new_guest(port, name));
    for (Player& p : players) connect(p, port);
    // Ann opens the match as she starts it; Bob has not opened it yet: he is away.
    const Game game = start_match(players[0], 0, players[1], 1, santorini_no_clock);
    const int ann = game.players[0] == 0 ? 0 : 1;
    const int bob = 1 - ann;
    Follower ann_view{&players[0], view_of(players[0], game)};
    Follower cy_view{&players[2], view_of(players[2], game)};  // a spectator

    const json away = ann_view.view["seats"][bob]["away"];
    INFO(away.dump());
    REQUIRE(away.is_object());
    CHECK(away["deadline_ms"].get<std::int64_t>() - away["since_ms"].get<std::int64_t>() ==
          abandon_ms);
    CHECK(away["claim_ms"].get<std::int64_t>() - away["since_ms"].get<std::int64_t>() == claim_ms);
    CHECK(away["claim"] == "abort");  // nobody has moved yet
    CHECK(ann_view.view["seats"][ann]["away"].is_null());
    CHECK(cy_view.view["seats"][bob]["away"] == away);
    // Fixed instants: a later snapshot shows the same ones.
    std::this_thread::sleep_for(100ms);
    CHECK(view_of(players[2], game)["seats"][bob]["away"] == away);
    cy_view.view = view_of(players[2], game);

    // Bob comes: the away seat's instants go, in the patch every viewer gets.
    const json bob_first = view_of(players[1], game);
    CHECK(bob_first["seats"][bob]["away"].is_null());
    CHECK(bob_first["seats"][ann]["away"].is_null());
    ann_view.follow(game.match);
    cy_view.follow(game.match);
    CHECK(ann_view.view["seats"][bob]["away"].is_null());
    CHECK(cy_view.view["seats"][bob]["away"].is_null());
    CHECK(ann_view.view["seats"][bob]["connected"] == true);
    // Nobody away: nothing to claim.
    CHECK(claim(players[0], game, bob, "abort").value("code", "") == "not_claimable");

    // Bob leaves again: a new absence, shown to Ann and to the spectator alike.
    REQUIRE(request(players[1], {{"type", "match.close"}, {"match", game.match}})["type"] == "ack");
    const auto left = Clock::now();
    ann_view.follow(game.match);
    cy_view.follow(game.match);
    const json again = ann_view.view["seats"][bob]["away"];
    REQUIRE(again.is_object());
    CHECK(again["since_ms"].get<std::int64_t>() > away["since_ms"].get<std::int64_t>());
    CHECK(cy_view.view["seats"][bob]["away"] == again);
    CHECK(ann_view.view == view_of(players[0], game));  // the patches made the snapshot's view

    // Too early, the wrong ending, one's own seat, a spectator, a seat that does not exist.
    const std::size_t steps_before = stored_match(repo, game.match).steps.size();
    const json early = claim(players[0], game, bob, "abort");
    INFO(early.dump());
    CHECK(early.value("code", "") == "not_claimable");
    CHECK(seconds_since(left) * 1000 < claim_ms);  // it was too early indeed
    CHECK(claim(players[0], game, ann, "abort").value("code", "") == "not_claimable");
    CHECK(claim(players[2], game, bob, "abort").value("code", "") == "not_authorized");
    CHECK(claim(players[0], game, 3, "abort").value("code", "") == "invalid_field");
    const json refused =
        request(players[0], {{"type", "match.claim"}, {"match", game.match}, {"seat", bob}});
    CHECK(refused.value("code", "") == "missing_field");
    // Nothing changed.
    {
        const store::StoredMatch stored = stored_match(repo, game.match);
        CHECK(stored.status == "live");
        CHECK(stored.steps.size() == steps_before);
        const json view = view_of(players[0], game);
        CHECK(view["result"].is_null());
        CHECK(view["seats"][bob]["away"] == again);
        ann_view.view = view;
    }

    // Once the claim time has passed (the view says when), Ann may end it: here an abort.
    while (seconds_since(left) * 1000 < claim_ms + 200) std::this_thread::sleep_for(50ms);
    CHECK(claim(players[0], game, bob, "win").value("code", "") == "not_claimable");
    const json claimed = claim(players[0], game, bob, "abort");
    INFO(claimed.dump());
    REQUIRE(claimed["type"] == "ack");
    CHECK(seconds_since(left) < abandon_seconds);  // sooner than the rule's own deadline
    // Ann's request read past her patches (request() drops what comes before its reply): she
    // reads a snapshot; Cy, the spectator, keeps following his patches.
    ann_view.view = view_of(players[0], game);
    cy_view.follow(game.match);
    const json aborted = {{"winners", json::array()}, {"reason", "aborted"}};
    for (const json* view : {&ann_view.view, &cy_view.view}) {
        CHECK((*view)["status"] == "aborted");
        CHECK((*view)["result"] == aborted);
        CHECK((*view)["seats"][bob]["away"].is_null());
    }
    // Stored exactly as the timer stores it: the server's own abandon record, by no player.
    const store::StoredMatch stored = stored_match(repo, game.match);
    CHECK(stored.status == "aborted");
    CHECK(json::parse(stored.result_json) == aborted);
    REQUIRE(stored.steps.size() == steps_before + 1);
    CHECK(json::parse(stored.steps.back().step_json) == json{{"kind", "abandon"}, {"seat", bob}});
    CHECK(stored.steps.back().player_id.empty());
    // A finished match has nothing to claim.
    CHECK(claim(players[0], game, bob, "abort").value("code", "") == "wrong_phase");
}

TEST_CASE(
    "a claim after the first moves ends the match with the away seat losing, stored like "
    "the timer's",
    "[integration][postgres][abandonment][claim]") {
    const std::string url = fresh_schema_url(database_url());
    const std::uint16_t port = free_port();
    ServerProcess server(port, url, log_path(),
                         {"--abandon-seconds", std::to_string(abandon_seconds)});
    server.start();
    store::Repository repo(url, 1);
    std::vector<Player> players;
    for (const char* name : {"Ann", "Bob"}) players.push_back(new_guest(port, name));
    for (Player& p : players) connect(p, port);
    const Game game = start_match(players[0], 0, players[1], 1, santorini_no_clock);
    std::vector<Player*> seats(2);
    for (int s = 0; s < 2; ++s)
        seats[static_cast<std::size_t>(s)] = &players[static_cast<std::size_t>(game.players[s])];
    view_of(*seats[1], game);
    view_of(*seats[0], game);
    // Placement, then until each seat has moved once.
    std::mt19937 rng(7);
    std::vector<int> moved(2);
    for (int i = 0; i < 40 && (moved[0] == 0 || moved[1] == 0); ++i) {
        const json view = view_of(*seats[0], game);
        const int decider = view["state"]["decider"];
        Player& p = *seats[static_cast<std::size_t>(decider)];
        const json step = quiet_step(view_of(p, game), rng);
        REQUIRE(
            request(p, {{"type", "match.step"}, {"match", game.match}, {"step", step}})["type"] ==
            "ack");
        if (step["kind"] == "move") ++moved[static_cast<std::size_t>(decider)];
    }
    REQUIRE(moved[0] > 0);
    REQUIRE(moved[1] > 0);

    // Seat 1 leaves; its view entry now says a claim wins.
    REQUIRE(request(*seats[1], {{"type", "match.close"}, {"match", game.match}})["type"] == "ack");
    const auto left = Clock::now();
    const json away = view_of(*seats[0], game)["seats"][1]["away"];
    INFO(away.dump());
    REQUIRE(away.is_object());
    CHECK(away["claim"] == "win");
    CHECK(claim(*seats[0], game, 1, "win").value("code", "") == "not_claimable");
    // The away player cannot claim against the other seat (it is there, and he is not).
    CHECK(claim(*seats[1], game, 0, "win").value("code", "") == "not_claimable");

    while (seconds_since(left) * 1000 < claim_ms + 200) std::this_thread::sleep_for(50ms);
    CHECK(claim(*seats[0], game, 1, "abort").value("code", "") == "not_claimable");
    const std::size_t steps_before = stored_match(repo, game.match).steps.size();
    const json claimed = claim(*seats[0], game, 1, "win");
    INFO(claimed.dump());
    REQUIRE(claimed["type"] == "ack");
    CHECK(seconds_since(left) < abandon_seconds);
    const json view = view_of(*seats[0], game);
    CHECK(view["status"] == "finished");
    CHECK(view["result"] == json{{"winners", json::array({0})}, {"reason", "abandoned"}});
    CHECK(view["seats"][1]["away"].is_null());
    const store::StoredMatch stored = stored_match(repo, game.match);
    CHECK(stored.status == "finished");
    CHECK(json::parse(stored.result_json) == view["result"]);
    REQUIRE(stored.steps.size() == steps_before + 1);
    CHECK(json::parse(stored.steps.back().step_json) == json{{"kind", "abandon"}, {"seat", 1}});
    CHECK(stored.steps.back().player_id.empty());
    // The stored match opens again after it leaves memory, as stored (its replay accepts the
    // record by no player).
    server.kill_now();
    server.start();
    connect(players[0], port);
    const json reopened = view_of(players[0], game);
    CHECK(reopened["status"] == "finished");
    CHECK(reopened["result"] == view["result"]);
}

}  // namespace away_claim_test
