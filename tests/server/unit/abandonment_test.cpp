// An away seat on a fake time source (docs/protocol.md, "Abandonment"; docs/rulings.md, "Away
// players"): every viewer's view carries the seat's fixed instants and loses them when the
// player returns; a claim is refused, changing nothing, until the claim time has passed and
// unless it names what the rule would do; then it ends the match at once with the timer's record.

#include <catch2/catch_test_macros.hpp>
#include <random>

#include "server/match/match.hpp"
#include "server/time/epoch_ms.hpp"
#include "tests/server/support/hub_harness.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace abandonment_test {

using namespace server;
using namespace server::test;
using namespace std::chrono_literals;

namespace {

const SteadyTime t0 = SteadyTime{} + 1000h;
const WallTime wall0 = WallTime{} + 480000h;

// A match made directly with a 10 s abandonment time (a claim after 2 s), two seats and a
// spectator, each with the match open, and a time source the test moves.
struct AwayRig {
    explicit AwayRig(int players = 2) {
        MatchOptions o;
        o.id = "m_away";
        o.settings.players = players;
        o.settings.powers = players == 2 ? "none" : "simple";
        o.seed = 7;
        o.abandon = 10s;
        o.spectators_interval = 0ms;
        o.now = [this] { return now; };
        o.wall_now = [this] { return wall; };
        for (int i = 0; i < players; ++i) {
            o.seats.push_back(Member{"p_" + std::to_string(i), "P" + std::to_string(i)});
            seats.push_back(std::make_shared<FakeParticipant>("p_" + std::to_string(i),
                                                              static_cast<std::uint64_t>(i + 1)));
        }
        auto created = Match::create(io, std::move(o), store, metrics, [](auto&&...) {});
        REQUIRE(std::holds_alternative<std::shared_ptr<Match>>(created));
        match = std::get<std::shared_ptr<Match>>(created);
        for (const auto& s : seats) match->open(s, std::nullopt, std::nullopt);
        match->open(watcher, std::nullopt, std::nullopt);
        settle();
    }
    void settle() {
        io.restart();
        io.poll();
    }
    void advance(std::chrono::milliseconds d) {
        now += d;
        wall += d;
    }
    json view(const FakeParticipant& who) const { return who.view("m_away").view; }
    /// The reply to a claim by `who`: "ack", or the error code.
    std::string claim(const std::shared_ptr<FakeParticipant>& who, int seat, bool abort) {
        who->take();
        match->claim(who, seat, abort, json("c"));
        settle();
        for (const json& m : who->take())
            if (m.contains("ref")) return m["type"] == "ack" ? "ack" : m.value("code", "?");
        return "no reply";
    }
    void leave(int seat) {
        match->close(seats[static_cast<std::size_t>(seat)], std::nullopt);
        settle();
    }

    boost::asio::io_context io;
    Metrics metrics;
    RecordingStore store;
    SteadyTime now = t0;
    WallTime wall = wall0;
    std::vector<std::shared_ptr<FakeParticipant>> seats;
    std::shared_ptr<FakeParticipant> watcher = std::make_shared<FakeParticipant>("p_watcher", 99);
    std::shared_ptr<Match> match;
};

}  // namespace

TEST_CASE("an away seat's instants reach every viewer, stay fixed and go when it returns",
          "[match][abandonment]") {
    AwayRig r;
    for (int s = 0; s < 2; ++s) CHECK(r.view(*r.watcher)["seats"][s]["away"].is_null());
    r.advance(3s);
    r.leave(1);
    const std::int64_t since = epoch_ms(r.wall);
    const json expected = {{"since_ms", since},
                           {"claim_ms", since + 2000},
                           {"deadline_ms", since + 10000},
                           {"claim", "abort"}};
    CHECK(r.view(*r.seats[0])["seats"][1]["away"] == expected);
    CHECK(r.view(*r.watcher)["seats"][1]["away"] == expected);
    CHECK(r.view(*r.seats[0])["seats"][0]["away"].is_null());
    // Time passes and something else changes (a spectator comes): the instants stay.
    r.advance(1s);
    auto late = std::make_shared<FakeParticipant>("p_late", 50);
    r.match->open(late, std::nullopt, std::nullopt);
    r.settle();
    CHECK(r.view(*late)["seats"][1]["away"] == expected);
    CHECK(r.view(*r.watcher)["seats"][1]["away"] == expected);
    // Back: gone for everyone, and the patched views are the snapshot's.
    r.match->open(r.seats[1], std::nullopt, std::nullopt);
    r.settle();
    for (const auto& who : {r.seats[0], r.seats[1], r.watcher}) {
        const TrackedView tracked = who->view("m_away");
        CHECK(tracked.errors == 0);
        CHECK(tracked.view["seats"][1]["away"].is_null());
    }
    CHECK(r.view(*r.seats[0]) == [&] {
        auto tab = std::make_shared<FakeParticipant>("p_0", 51);
        r.match->open(tab, std::nullopt, std::nullopt);
        r.settle();
        return r.view(*tab);
    }());
}

TEST_CASE(
    "a claim is refused until the claim time and unless it is what the rule does; then "
    "it ends the match with the timer's record",
    "[match][abandonment]") {
    AwayRig r;
    // Nobody away.
    CHECK(r.claim(r.seats[0], 1, true) == "not_claimable");
    r.leave(1);
    const auto version = r.seats[0]->view("m_away").version;
    r.advance(1999ms);
    CHECK(r.claim(r.seats[0], 1, true) == "not_claimable");  // too early
    CHECK(r.claim(r.seats[0], 0, true) == "not_claimable");  // one's own seat
    CHECK(r.claim(r.watcher, 1, true) == "not_authorized");  // not a player
    CHECK(r.claim(r.seats[1], 0, true) == "not_claimable");  // the away player himself
    CHECK(r.claim(r.seats[0], 2, true) == "invalid_field");  // no such seat
    // Nothing changed: no record, no new version.
    CHECK(r.store.records().empty());
    CHECK(r.seats[0]->view("m_away").version == version);
    r.advance(1ms);
    CHECK(r.claim(r.seats[0], 1, false) == "not_claimable");  // nobody has moved: an abort
    CHECK(r.claim(r.seats[0], 1, true) == "ack");
    const json view = r.view(*r.watcher);
    CHECK(view["status"] == "aborted");
    CHECK(view["result"] == json{{"winners", json::array()}, {"reason", "aborted"}});
    CHECK(view["seats"][1]["away"].is_null());
    const auto records = r.store.records();
    REQUIRE(records.size() == 1);
    CHECK(json::parse(records[0].step_json) == json{{"kind", "abandon"}, {"seat", 1}});
    CHECK(records[0].player_id.empty());  // the server's record, as the timer writes it
    REQUIRE(records[0].finish);
    CHECK(records[0].finish->status == "aborted");
    CHECK(r.claim(r.seats[0], 1, true) == "wrong_phase");
}

TEST_CASE("with three players a claimed win puts the away seat out and the game goes on",
          "[match][abandonment]") {
    AwayRig r(3);
    // Play until every seat has moved once in play (the draft and placement first).
    std::mt19937 rng(3);
    std::vector<bool> moved(3);
    for (int i = 0; i < 200 && !(moved[0] && moved[1] && moved[2]); ++i) {
        int decider = -1;
        for (int s = 0; s < 3; ++s)
            if (decides(*r.seats[static_cast<std::size_t>(s)], "m_away")) decider = s;
        REQUIRE(decider >= 0);
        const json step = pick_step(r.view(*r.seats[static_cast<std::size_t>(decider)]), rng);
        const bool in_play = r.view(*r.watcher)["status"] == "playing";
        r.match->step(r.seats[static_cast<std::size_t>(decider)], step, std::nullopt);
        r.settle();
        if (in_play && step["kind"] == "move") moved[static_cast<std::size_t>(decider)] = true;
        REQUIRE(r.view(*r.watcher)["status"] != "finished");
    }
    REQUIRE((moved[0] && moved[1] && moved[2]));
    r.leave(2);
    CHECK(r.view(*r.seats[0])["seats"][2]["away"]["claim"] == "win");
    r.advance(2s);
    CHECK(r.claim(r.seats[0], 2, true) == "not_claimable");
    CHECK(r.claim(r.seats[0], 2, false) == "ack");
    const json view = r.view(*r.watcher);
    CHECK(view["status"] == "playing");
    CHECK(view["seats"][2]["out"] == true);
    CHECK(view["seats"][2]["away"].is_null());
    CHECK(json::parse(r.store.records().back().step_json) ==
          json{{"kind", "abandon"}, {"seat", 2}});
}

}  // namespace abandonment_test
