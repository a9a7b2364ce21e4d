// End to end over real sockets: a player drops mid-game and resumes with since:<version>,
// receiving exactly the missed patches; a player too far behind the bounded history gets a
// snapshot instead.

#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace e2e_resume_test {

using e2e::json;
using namespace std::chrono_literals;

namespace {

constexpr std::size_t history = 6;

struct Table {
    test::RunningServer running;
    e2e::Traffic traffic;
    e2e::Guest alice, bob;
    std::unique_ptr<e2e::Player> a, b;
    std::string match;

    Table()
        : running([] {
              server::Config c = e2e::config();
              c.history_per_match = history;
              return c;
          }()) {
        alice = e2e::http_guest(running.port(), "Alice");
        bob = e2e::http_guest(running.port(), "Bob");
        a = std::make_unique<e2e::Player>(running.port(), traffic, "alice");
        b = std::make_unique<e2e::Player>(running.port(), traffic, "bob");
        a->hello(alice.token);
        b->hello(bob.token);
        const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"clock", {{"kind", "none"}}}};
        match = e2e::start_private_match(*a, *b, settings).match;
        e2e::open_match(*a, match);
        e2e::open_match(*b, match);
        e2e::sync({a.get(), b.get()}, match);
    }

    int seat_of(e2e::Player& p) { return p.match(match).view["you"].get<int>(); }
    std::vector<e2e::Player*> seats() {
        std::vector<e2e::Player*> out(2);
        out[static_cast<std::size_t>(seat_of(*a))] = a.get();
        out[static_cast<std::size_t>(seat_of(*b))] = b.get();
        return out;
    }
};

}  // namespace

TEST_CASE("a player who drops mid-game resumes with exactly the missed patches", "[e2e]") {
    Table t;
    const std::string& match = t.match;
    int steps = 0;
    // Play until the game is under way and it is Alice's turn to begin it.
    while (!(t.a->match(match).view["status"] == "playing" &&
             e2e::decider(t.a->match(match).view) == t.seat_of(*t.a) &&
             t.a->match(match).view["state"]["phase"] == "begin")) {
        REQUIRE(steps < 40);
        e2e::play_first_legal(t.seats(), {t.a.get(), t.b.get()}, match, ++steps);
    }
    const int bob_seat = t.seat_of(*t.b);
    const std::uint64_t last = t.b->version_of(match);
    const json bob_view_before = t.b->match(match).view;

    // Bob drops; Alice sees him disconnected (a new version) and plays her whole turn.
    t.b->close();
    t.b.reset();
    REQUIRE(t.a->until([&](const json&) {
        return t.a->match(match).view["seats"][static_cast<std::size_t>(bob_seat)]["connected"] == false;
    }));
    CHECK(t.a->version_of(match) == last + 1);
    int played = 0;
    while (e2e::decider(t.a->match(match).view) == t.seat_of(*t.a) && t.a->match(match).view["status"] == "playing") {
        REQUIRE(played < 4);
        std::vector<e2e::Player*> seats(2, nullptr);
        seats[static_cast<std::size_t>(t.seat_of(*t.a))] = t.a.get();
        e2e::play_first_legal(seats, {t.a.get()}, match, ++steps);
        ++played;
    }
    CHECK(played >= 2);  // a move and a build at least
    const std::uint64_t missed_until = t.a->version_of(match);
    REQUIRE(missed_until - last + 1 <= history);  // still within the history after the reconnect

    // Bob comes back on a new connection and resumes from the last version he had.
    t.b = std::make_unique<e2e::Player>(t.running.port(), t.traffic, "bob-again");
    t.b->hello(t.bob.token);
    t.b->match(match) = e2e::MatchView{last, bob_view_before, 1, 0, {}};
    const std::vector<json> caught_up = e2e::open_match(*t.b, match, last, "resume");
    std::vector<std::uint64_t> versions;
    for (const json& m : caught_up) {
        INFO(m.dump());
        CHECK(m["type"] == "match.patch");
        if (m.value("type", "") == "match.patch") versions.push_back(m["version"].get<std::uint64_t>());
    }
    // Missed: his own disconnection, Alice's steps, and his reconnection.
    std::vector<std::uint64_t> expected;
    for (std::uint64_t v = last + 1; v <= missed_until + 1; ++v) expected.push_back(v);
    CHECK(versions == expected);
    CHECK(t.b->match(match).snapshots == 1);  // only the one he had before dropping
    // Alice sees him connected again.
    REQUIRE(t.a->until_version(match, missed_until + 1));
    CHECK(t.a->match(match).view["seats"][static_cast<std::size_t>(bob_seat)]["connected"] == true);

    // The patched view equals a fresh snapshot.
    e2e::Player tab(t.running.port(), t.traffic, "bob-tab");
    tab.hello(t.bob.token);
    const std::vector<json> fresh = e2e::open_match(tab, match, std::nullopt, "fresh");
    REQUIRE(fresh.size() == 1);
    CHECK(fresh[0]["type"] == "match.snapshot");
    CHECK(tab.match(match).version == t.b->version_of(match));
    CHECK(tab.match(match).view == t.b->match(match).view);
    CHECK(t.b->match(match).view["you"] == bob_seat);

    // Resuming when already up to date sends nothing but the ack.
    const std::vector<json> nothing = e2e::open_match(tab, match, tab.version_of(match), "again");
    CHECK(nothing.empty());

    // And the game goes on: Bob can play his turn.
    e2e::play_first_legal(t.seats(), {t.a.get(), t.b.get(), &tab}, match, ++steps);

    e2e::check_traffic(t.traffic);
}

TEST_CASE("a player far behind the bounded history gets a snapshot", "[e2e]") {
    Table t;
    const std::string& match = t.match;
    const int bob_seat = t.seat_of(*t.b);

    // Bob has a second tab that keeps his seat connected while the first one is away.
    auto tab = std::make_unique<e2e::Player>(t.running.port(), t.traffic, "bob-tab");
    tab->hello(t.bob.token);
    e2e::open_match(*tab, match);
    e2e::sync({t.a.get(), t.b.get(), tab.get()}, match);
    const std::uint64_t last = t.b->version_of(match);
    t.b->close();
    t.b.reset();

    // Alice and Bob (on the tab) play well past the history.
    std::vector<e2e::Player*> seats(2, nullptr);
    seats[static_cast<std::size_t>(t.seat_of(*t.a))] = t.a.get();
    seats[static_cast<std::size_t>(bob_seat)] = tab.get();
    int steps = 0;
    while (t.a->version_of(match) < last + history + 3) {
        REQUIRE(t.a->match(match).view["status"] != "finished");
        e2e::play_first_legal(seats, {t.a.get(), tab.get()}, match, ++steps);
    }

    // The first tab comes back asking for everything since `last`: too old, so a snapshot.
    e2e::Player back(t.running.port(), t.traffic, "bob-back");
    back.hello(t.bob.token);
    const std::vector<json> reply = e2e::open_match(back, match, last, "resume");
    REQUIRE(reply.size() == 1);
    INFO(reply[0].dump().substr(0, 300));
    CHECK(reply[0]["type"] == "match.snapshot");
    CHECK(reply[0]["version"] == tab->version_of(match));
    CHECK(back.match(match).view == tab->match(match).view);

    // A spectator far behind also gets a snapshot.
    const e2e::Guest carol = e2e::http_guest(t.running.port(), "Carol");
    e2e::Player s(t.running.port(), t.traffic, "spectator");
    s.hello(carol.token);
    const std::vector<json> watch = e2e::open_match(s, match, 1, "watch");
    REQUIRE(watch.size() == 1);
    CHECK(watch[0]["type"] == "match.snapshot");
    CHECK(s.match(match).view["you"].is_null());
    CHECK(s.match(match).view["state"]["board"] == t.a->match(match).view["state"]["board"]);

    e2e::check_traffic(t.traffic);
}

}  // namespace e2e_resume_test
