// End to end over real sockets with more than two players: a 3-player game in which one player
// is eliminated by the rules (no move at the start of its turn) while the other two play on to a
// winner, and a 4-player team game played to a win. Every seat and a spectator follow every
// version; at the end each patched view equals a fresh snapshot. All traffic is validated
// against the schemas.

#include <algorithm>
#include <array>
#include <catch2/catch_test_macros.hpp>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

// A table of n seated players and one spectator, connected and said hello, in a started match
// that everyone has opened.
struct Table {
    test::RunningServer running{e2e::config()};
    e2e::Traffic traffic;
    std::vector<e2e::Guest> guests;  // guests[i] is players[i]
    std::vector<std::unique_ptr<e2e::Player>> players;
    e2e::Guest watcher;
    std::unique_ptr<e2e::Player> spectator;
    std::string match;

    explicit Table(const json& settings) {
        const std::uint16_t port = running.port();
        const int n = settings["players"].get<int>();
        static constexpr std::array names = {"Ann", "Bob", "Cid", "Dot"};
        for (int i = 0; i < n; ++i) {
            guests.push_back(e2e::http_guest(port, names[static_cast<std::size_t>(i)]));
            players.push_back(
                std::make_unique<e2e::Player>(port, traffic, names[static_cast<std::size_t>(i)]));
            players.back()->hello(guests.back().token);
        }
        watcher = e2e::http_guest(port, "Eve");
        spectator = std::make_unique<e2e::Player>(port, traffic, "spectator");
        spectator->hello(watcher.token);
        std::vector<e2e::Player*> joining;
        for (int i = 1; i < n; ++i) joining.push_back(players[static_cast<std::size_t>(i)].get());
        match = e2e::start_private_match(*players[0], joining, settings).match;
        e2e::open_match(*spectator, match);
        for (auto& p : players) e2e::open_match(*p, match);
        e2e::sync(everyone(), match);
    }

    // Players by seat (the lobby seats them in the order they joined).
    std::vector<e2e::Player*> by_seat() {
        std::vector<e2e::Player*> out(players.size(), nullptr);
        for (auto& p : players) {
            const json& you = p->match(match).view["you"];
            REQUIRE(you.is_number_integer());
            out.at(you.get<std::size_t>()) = p.get();
        }
        return out;
    }
    std::vector<e2e::Player*> everyone() {
        std::vector<e2e::Player*> out;
        for (auto& p : players) out.push_back(p.get());
        out.push_back(spectator.get());
        return out;
    }
    const json& view() { return spectator->match(match).view; }

    // Each player's and the spectator's view, built from patches, equals a fresh snapshot
    // taken by a second connection of the same player.
    void check_fresh_snapshots() {
        std::vector<std::pair<e2e::Player*, std::string>> who;
        for (std::size_t i = 0; i < players.size(); ++i)
            who.emplace_back(players[i].get(), guests[i].token);
        who.emplace_back(spectator.get(), watcher.token);
        for (auto& [player, token] : who) {
            e2e::Player tab(running.port(), traffic, player->label() + "-tab");
            tab.hello(token);
            const std::vector<json> fresh = e2e::open_match(tab, match, std::nullopt, "fresh");
            INFO(player->label());
            REQUIRE(fresh.size() == 1);
            CHECK(fresh[0]["type"] == "match.snapshot");
            CHECK(tab.version_of(match) == player->version_of(match));
            CHECK(tab.match(match).view == player->match(match).view);
            tab.close();
        }
    }

    // The spectator saw every version from its snapshot on, once each, in order.
    void check_spectator_saw_every_version() {
        const e2e::MatchView& watched = spectator->match(match);
        CHECK(watched.snapshots == 1);
        for (std::size_t i = 1; i < watched.versions.size(); ++i)
            CHECK(watched.versions[i] == watched.versions[i - 1] + 1);
    }
};

// The first entry of the decider's legal list that is `kind` (and goes to `to`, if given), or
// null if there is none (play_chosen then fails the test: it only plays legal steps).
json pick(const json& view, const std::string& kind, const std::string& to = "") {
    for (const json& step : view["state"]["legal"])
        if (step.value("kind", "") == kind && (to.empty() || step.value("to", "") == to))
            return step;
    return nullptr;
}

// The worker standing on `square` in `view`, or null.
json worker_on(const json& view, const std::string& square) {
    for (const json& w : view["state"]["workers"])
        if (w["square"] == square) return w;
    return nullptr;
}

json simple_full_draft(int players) {
    return {{"game", "santorini"},
            {"players", players},
            {"powers", "simple"},
            {"draft", "full"},
            {"clock", {{"kind", "none"}}}};
}

}  // namespace

TEST_CASE("three players: one is walled in and eliminated, the other two play on to a winner",
          "[e2e]") {
    Table t(simple_full_draft(3));
    const std::string& match = t.match;
    const std::vector<e2e::Player*> seats = t.by_seat();
    const std::vector<e2e::Player*> everyone = t.everyone();
    int steps = 0;

    // The draft: the challenger offers powers that never move into an occupied square (no
    // Apollo, no Minotaur), so a walled-in player really has no move; the others choose the
    // first they are offered; the challenger names seat 0 start player.
    static const std::vector<std::string> calm = {"Pan",     "Athena",     "Atlas",
                                                  "Demeter", "Hephaestus", "Artemis"};
    while (t.view()["state"]["phase"] != "place") {
        REQUIRE(steps < 10);
        e2e::play_chosen(seats, everyone, match, ++steps, [](const json& view) {
            const json& legal = view["state"]["legal"];
            if (view["state"]["phase"] == "offer") {
                for (const std::string& power : calm)
                    for (const json& step : legal)
                        if (step["power"] == power) return step;
            }
            if (view["state"]["phase"] == "start_player")
                return json{{"kind", "start_player"}, {"seat", 0}};
            return legal[0];
        });
    }
    const json& powers = t.view()["state"]["powers"];
    INFO("powers " << powers.dump());
    for (const json& power : powers)
        CHECK(std::find(calm.begin(), calm.end(), power) != calm.end());
    CHECK(t.view()["state"]["draft"]["start_player"] == 0);
    CHECK(t.view()["status"] == "placement");

    // Placement, start player then clockwise: the first placer (S) takes A2 and D2, the second
    // (the victim, V) the corner A1 and B1, the third (T) B2 and C2. Only C1 is left free
    // around V's workers.
    std::vector<int> placers;
    static const std::array<const char*, 6> squares = {"A2", "D2", "A1", "B1", "B2", "C2"};
    for (const char* square : squares) {
        placers.push_back(e2e::decider(t.view()));
        e2e::play_chosen(seats, everyone, match, ++steps,
                         [square](const json& view) { return pick(view, "place", square); });
    }
    const int s = placers[0], v = placers[2], third = placers[4];
    CHECK(placers == std::vector<int>{s, s, v, v, third, third});
    CHECK(s == 0);
    CHECK(v == 1);
    CHECK(third == 2);
    CHECK(t.view()["status"] == "playing");
    CHECK(t.view()["state"]["turn"] == 1);
    REQUIRE(e2e::decider(t.view()) == s);
    const std::uint64_t before_trap = t.spectator->version_of(match);

    // Turn 1: S walks D2 -> C1, closing the last gap, and builds wherever it likes.
    const json move = e2e::play_chosen(seats, everyone, match, ++steps, [](const json& view) {
        for (const json& step : view["state"]["legal"])
            if (step["kind"] == "move" && step["from"] == "D2" && step["to"] == "C1") return step;
        return json(nullptr);  // not offered: play_chosen fails the test
    });
    CHECK(move["to"] == "C1");
    e2e::play_chosen(seats, everyone, match, ++steps, [](const json& view) {
        return pick(view, "build");  // a build from C1: D1 or D2, both harmless
    });
    int played = 2;
    while (e2e::decider(t.view()) == s) {  // a power's optional second build: declined
        REQUIRE(played < 4);
        e2e::play_chosen(seats, everyone, match, ++steps,
                         [](const json& view) { return pick(view, "pass"); });
        ++played;
    }

    // S's turn ended; V starts turn 2 with no move at all and is out: its workers leave the
    // board and T starts turn 3, all in the version that ended S's turn.
    for (e2e::Player* p : everyone) {
        INFO(p->label());
        const json& view = p->match(match).view;
        CHECK(p->version_of(match) == before_trap + static_cast<std::uint64_t>(played));
        CHECK(view["seats"][static_cast<std::size_t>(v)]["out"] == true);
        CHECK(view["state"]["out"][static_cast<std::size_t>(v)] == true);
        CHECK(view["seats"][static_cast<std::size_t>(s)]["out"] == false);
        CHECK(view["seats"][static_cast<std::size_t>(third)]["out"] == false);
        CHECK(view["status"] == "playing");
        CHECK(view["result"].is_null());
        CHECK(view["state"]["winners"].empty());
        CHECK(e2e::decider(view) == third);
        CHECK(view["state"]["turn"] == 3);
        CHECK(worker_on(view, "A1").is_null());
        CHECK(worker_on(view, "B1").is_null());
        for (const json& w : view["state"]["workers"])
            if (w["side"] == v) CHECK(w["square"].is_null());
        CHECK(worker_on(view, "C1")["side"] == s);
    }
    // The history holds only the steps played: V lost its turn before deciding anything.
    CHECK(t.view()["history"].size() == static_cast<std::size_t>(steps));

    // V is out: it may not step or resign, but it keeps watching its seat's view.
    e2e::Player& victim = *seats[static_cast<std::size_t>(v)];
    victim.send({{"type", "match.resign"}, {"ref", "r"}, {"match", match}});
    auto refused = victim.until_reply("r");
    REQUIRE(refused);
    CHECK((*refused)["type"] == "error");
    CHECK((*refused)["code"] == "wrong_phase");
    victim.send(
        {{"type", "match.step"}, {"ref", "st"}, {"match", match}, {"step", {{"kind", "pass"}}}});
    refused = victim.until_reply("st");
    REQUIRE(refused);
    CHECK((*refused)["code"] == "not_your_turn");

    // S and T play on, by the first legal step, until one of them wins.
    std::vector<int> deciders;
    while (t.view()["status"] != "finished") {
        REQUIRE(steps < 1500);
        const int d = e2e::decider(t.view());
        CHECK(d != v);
        deciders.push_back(d);
        e2e::play_first_legal(seats, everyone, match, ++steps);
    }
    INFO("steps played: " << steps);
    CHECK(std::count(deciders.begin(), deciders.end(), s) > 0);
    CHECK(std::count(deciders.begin(), deciders.end(), third) > 0);

    const json result = t.view()["result"];
    INFO("result " << result.dump());
    REQUIRE(result.is_object());
    REQUIRE(result["winners"].size() == 1);
    const int winner = result["winners"][0].get<int>();
    CHECK((winner == s || winner == third));
    CHECK((result["reason"] == "win" || result["reason"] == "no_turn"));
    for (e2e::Player* p : everyone) {
        INFO(p->label());
        CHECK(p->match(match).view["result"] == result);
        CHECK(p->match(match).view["status"] == "finished");
        CHECK(p->match(match).view["state"]["winners"] == result["winners"]);
        CHECK(p->match(match).view["seats"][static_cast<std::size_t>(v)]["out"] == true);
        CHECK(p->version_of(match) == t.spectator->version_of(match));
    }
    t.check_spectator_saw_every_version();
    t.check_fresh_snapshots();
    e2e::check_traffic(t.traffic);
}

TEST_CASE("four players in two teams play to a win reported to all four", "[e2e]") {
    Table t(simple_full_draft(4));
    const std::string& match = t.match;
    const std::vector<e2e::Player*> seats = t.by_seat();
    const std::vector<e2e::Player*> everyone = t.everyone();

    // Seats alternate teams: 0 and 2 play side 0, 1 and 3 side 1.
    for (std::size_t s = 0; s < 4; ++s)
        CHECK(t.view()["seats"][s]["side"] == static_cast<int>(s % 2));

    int steps = 0;
    std::map<int, int> moves_by_seat;
    std::vector<int> placers;
    while (t.view()["status"] != "finished") {
        REQUIRE(steps < 1500);
        const json& view = t.view();
        const int d = e2e::decider(view);
        const json& mine = seats[static_cast<std::size_t>(d)]->match(match).view["state"]["legal"];
        if (!mine.empty() && mine[0]["kind"] == "place") placers.push_back(d);
        if (!mine.empty() && mine[0]["kind"] == "move") {
            // A seat moves its team's workers: the shared pair of its side.
            INFO("seat " << d << " moves " << mine[0].dump());
            CHECK(worker_on(view, mine[0]["from"].get<std::string>())["side"] == d % 2);
            ++moves_by_seat[d];
        }
        e2e::play_first_legal(seats, everyone, match, ++steps);
    }
    INFO("steps played: " << steps);

    // Placement: each team's first player places the team's two workers; four workers in all.
    REQUIRE(placers.size() == 4);
    CHECK(placers[0] == placers[1]);
    CHECK(placers[2] == placers[3]);
    CHECK(placers[0] % 2 != placers[2] % 2);
    CHECK(t.view()["state"]["workers"].size() == 4);
    // Every seat took turns (the teammates alternate on their side's turns).
    CHECK(moves_by_seat.size() == 4);

    const json result = t.view()["result"];
    INFO("result " << result.dump());
    REQUIRE(result.is_object());
    REQUIRE(result["winners"].size() == 2);
    const int first = result["winners"][0].get<int>();
    const int second = result["winners"][1].get<int>();
    CHECK(first % 2 == second % 2);  // one whole team
    CHECK(second == first + 2);
    CHECK((result["reason"] == "win" || result["reason"] == "no_turn"));
    for (e2e::Player* p : everyone) {
        INFO(p->label());
        const json& view = p->match(match).view;
        CHECK(view["result"] == result);
        CHECK(view["status"] == "finished");
        CHECK(view["state"]["winners"] == result["winners"]);
        CHECK(p->version_of(match) == t.spectator->version_of(match));
        // Losing as a team is not an elimination: nobody is marked out unless it lost.
        for (std::size_t s = 0; s < 4; ++s)
            if (view["seats"][s]["out"] == true) CHECK(static_cast<int>(s % 2) != first % 2);
    }
    t.check_spectator_saw_every_version();
    t.check_fresh_snapshots();
    e2e::check_traffic(t.traffic);
}
