// Time controls: the clock bookkeeping on its own, then matches whose clocks run out (on a
// fake time source, and once on a real one-second timer).

#include "server/match/clock.hpp"

#include <catch2/catch_test_macros.hpp>

#include "server/match/match.hpp"
#include "server/time/epoch_ms.hpp"
#include "tests/server/support/hub_harness.hpp"

using namespace server;
using namespace server::test;
using namespace std::chrono_literals;

namespace {

const SteadyTime t0 = SteadyTime{} + 1000h;
const WallTime wall0 = WallTime{} + 480000h;

protocol::LobbySettings clocked(int players, const std::string& kind, int base = 60,
                                int increment = 0) {
    protocol::LobbySettings s;
    s.players = players;
    s.powers = players == 2 ? "none" : "simple";
    s.clock = kind;
    s.base_seconds = base;
    s.increment_seconds = increment;
    s.hours_per_move = 24;
    return s;
}

// A match made directly (no lobby), its seats' connections, and a time source the test moves.
struct Rig {
    explicit Rig(const protocol::LobbySettings& settings, bool fake_time = true,
                 StepStore* custom_store = nullptr)
        : store(custom_store ? *custom_store : recording) {
        MatchOptions o;
        o.id = "m_test";
        o.settings = settings;
        o.seed = 42;
        o.challenger = 0;
        for (int i = 0; i < settings.players; ++i) {
            o.seats.push_back(Member{"p_" + std::to_string(i), "P" + std::to_string(i)});
            seats.push_back(std::make_shared<FakeParticipant>("p_" + std::to_string(i),
                                                              static_cast<std::uint64_t>(i + 1)));
        }
        if (fake_time) {
            o.now = [this] { return now; };
            o.wall_now = [this] { return wall; };
        }
        auto created = Match::create(
            io, std::move(o), store, metrics,
            [this](const std::string&, const json& entry) { live = entry; });
        REQUIRE(std::holds_alternative<std::shared_ptr<Match>>(created));
        match = std::get<std::shared_ptr<Match>>(created);
        for (const auto& s : seats) match->open(s, std::nullopt, std::nullopt);
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
    json view(int seat = 0) const {
        return seats[static_cast<std::size_t>(seat)]->view("m_test").view;
    }
    int decider() const {
        for (std::size_t i = 0; i < seats.size(); ++i)
            if (decides(*seats[i], "m_test")) return static_cast<int>(i);
        return -1;
    }
    void step(int seat, const json& s) {
        match->step(seats[static_cast<std::size_t>(seat)], s, std::nullopt);
        settle();
    }
    // Plays random legal steps until turns are being played.
    void play_to_turns() {
        std::mt19937 rng(9);
        for (int i = 0; i < 100 && view()["status"] != "playing"; ++i) {
            const int d = decider();
            REQUIRE(d >= 0);
            step(d, pick_step(view(d), rng));
        }
        REQUIRE(view()["status"] == "playing");
    }

    boost::asio::io_context io;
    Metrics metrics;
    RecordingStore recording;
    StepStore& store;
    SteadyTime now = t0;
    WallTime wall = wall0;
    std::vector<std::shared_ptr<FakeParticipant>> seats;
    std::shared_ptr<Match> match;
    json live;
};

}  // namespace

TEST_CASE("Realtime clock: the decider's time runs; passing the decision adds the increment",
          "[clock]") {
    Clock clock(TimeControl{TimeControl::Kind::Realtime, 60s, 5s, 0ms}, 2);
    CHECK(clock.running() == -1);
    CHECK_FALSE(clock.expiry());
    clock.switch_to(0, true, t0);
    CHECK(clock.remaining(0, t0 + 10s) == 50s);
    CHECK(clock.remaining(1, t0 + 10s) == 60s);
    CHECK(*clock.expiry() == t0 + 60s);
    CHECK_FALSE(clock.expired(t0 + 59s));
    CHECK(clock.expired(t0 + 60s));

    clock.switch_to(1, true, t0 + 10s);
    CHECK(clock.remaining(0, t0 + 10s) == 55s);
    CHECK(*clock.expiry() == t0 + 70s);
    clock.switch_to(1, false, t0 + 20s);  // same decision: nothing happens
    CHECK(*clock.expiry() == t0 + 70s);
    clock.switch_to(1, true, t0 + 20s);  // a new turn of the same seat (an extra turn)
    CHECK(clock.remaining(1, t0 + 20s) == 55s);

    clock.stop(t0 + 30s);
    CHECK(clock.running() == -1);
    CHECK(clock.to_json(t0 + 99s, wall0) ==
          json{{"kind", "realtime"}, {"remaining_ms", {55000, 45000}}, {"running", nullptr}});
}

TEST_CASE("Realtime clock: a seat that ran out gets no increment and shows zero", "[clock]") {
    Clock clock(TimeControl{TimeControl::Kind::Realtime, 10s, 5s, 0ms}, 3);
    clock.switch_to(2, true, t0);
    CHECK(clock.remaining(2, t0 + 11s) == 0s);
    clock.switch_to(0, true, t0 + 11s);
    CHECK(clock.remaining(2, t0 + 11s) == 0s);
    CHECK(clock.to_json(t0 + 12s, wall0)["remaining_ms"] == json{9000, 10000, 0});
    CHECK(clock.to_json(t0 + 12s, wall0)["running"] == 0);
}

TEST_CASE("Turn-based clock: each decision gets a fresh deadline shown in epoch ms", "[clock]") {
    Clock clock(TimeControl{TimeControl::Kind::Turn, 0ms, 0ms, 24h}, 2);
    CHECK(clock.to_json(t0, wall0) ==
          json{{"kind", "turn"}, {"deadline_ms", nullptr}, {"hours_per_move", 24}});
    clock.switch_to(0, true, t0);
    CHECK(*clock.expiry() == t0 + 24h);
    const auto due = server::epoch_ms(wall0 + 23h);
    CHECK(clock.to_json(t0 + 1h, wall0 + 1h)["deadline_ms"] == due + 3600000);
    clock.switch_to(1, true, t0 + 1h);
    CHECK(*clock.expiry() == t0 + 25h);
    CHECK(clock.expired(t0 + 25h));
}

TEST_CASE("No clock: nothing runs out", "[clock]") {
    Clock clock(TimeControl{}, 2);
    clock.switch_to(0, true, t0);
    CHECK_FALSE(clock.expiry());
    CHECK_FALSE(clock.expired(t0 + 1000h));
    CHECK(clock.to_json(t0, wall0) == json{{"kind", "none"}});
    auto tc = TimeControl::from_settings(clocked(2, "realtime", 300, 5));
    CHECK(tc.kind == TimeControl::Kind::Realtime);
    CHECK(tc.base == 300s);
    CHECK(tc.increment == 5s);
    CHECK(TimeControl::from_settings(clocked(2, "turn")).per_move == 24h);
}

TEST_CASE("A clock's text is the compact JSON of its object, members by key, as views had it",
          "[clock]") {
    // Clock::text is what every view and patch carries; to_json reads it back. Writing the
    // tree out again must give the same bytes: no member out of order, no space.
    auto same_bytes = [](const Clock& clock, SteadyTime at, WallTime wall) {
        const std::string text = clock.text(at, wall);
        INFO(text);
        CHECK(clock.to_json(at, wall).dump() == text);
    };
    Clock realtime(TimeControl{TimeControl::Kind::Realtime, 60s, 5s, 0ms}, 3);
    same_bytes(realtime, t0, wall0);
    realtime.switch_to(1, true, t0);
    same_bytes(realtime, t0 + 7s, wall0 + 7s);
    CHECK(realtime.text(t0 + 7s, wall0) ==
          R"({"kind":"realtime","remaining_ms":[60000,53000,60000],"running":1})");
    Clock turn(TimeControl{TimeControl::Kind::Turn, 0ms, 0ms, 24h}, 2);
    same_bytes(turn, t0, wall0);
    turn.switch_to(0, true, t0);
    same_bytes(turn, t0 + 1h, wall0 + 1h);
    CHECK(turn.text(t0, wall0) == R"({"deadline_ms":)" +
                                      std::to_string(server::epoch_ms(wall0 + 24h)) +
                                      R"(,"hours_per_move":24,"kind":"turn"})");
    same_bytes(Clock(TimeControl{}, 2), t0, wall0);
    CHECK(Clock(TimeControl{}, 4).text(t0, wall0) == R"({"kind":"none"})");
}

TEST_CASE("No clock runs in the draft; the first one starts when it ends, with no increment",
          "[clock][match]") {
    Rig rig(clocked(2, "realtime", 60, 5));
    CHECK(rig.view()["status"] == "draft");
    CHECK(rig.view()["clock"] ==
          json{{"kind", "realtime"}, {"remaining_ms", {60000, 60000}}, {"running", nullptr}});
    rig.advance(10s);
    rig.step(0, {{"kind", "start_player"}, {"seat", 1}});
    CHECK(rig.view(1)["status"] == "placement");
    CHECK(rig.view(1)["clock"] ==
          json{{"kind", "realtime"}, {"remaining_ms", {60000, 60000}}, {"running", 1}});
    // Seat 1 places its first worker: its time is running (and charged) from the draft's end.
    rig.advance(10s);
    rig.step(1, rig.view(1)["state"]["legal"][0]);
    CHECK(rig.view()["clock"] ==
          json{{"kind", "realtime"}, {"remaining_ms", {60000, 50000}}, {"running", 1}});
}

TEST_CASE("Running out of time in play loses the game; the server records the timeout",
          "[clock][match]") {
    Rig rig(clocked(2, "realtime", 60, 0));
    rig.play_to_turns();
    const int d = rig.decider();
    rig.advance(59s);
    rig.match->check_clock();
    rig.settle();
    CHECK(rig.view()["status"] == "playing");
    rig.advance(1s);
    rig.match->check_clock();
    rig.settle();
    auto view = rig.view();
    CHECK(view["status"] == "finished");
    CHECK(view["result"] == json{{"winners", {1 - d}}, {"reason", "timeout"}});
    CHECK(view["clock"]["remaining_ms"][d] == 0);
    CHECK(view["clock"]["running"].is_null());
    CHECK(rig.live.is_null());
    auto last = rig.recording.records().back();
    CHECK(last.player_id.empty());
    CHECK(json::parse(last.step_json) == json{{"kind", "timeout"}, {"seat", d}});
}

TEST_CASE("A step that arrives after the flag fell is too late", "[clock][match]") {
    Rig rig(clocked(2, "realtime", 60, 0));
    rig.play_to_turns();
    const int d = rig.decider();
    rig.advance(61s);
    rig.step(d, rig.view(d)["state"]["legal"][0]);
    CHECK(rig.seats[static_cast<std::size_t>(d)]->last("error")["code"] == "busy");
    CHECK(rig.view()["result"]["reason"] == "timeout");
}

TEST_CASE("A timeout the store could not keep changes nothing until it is stored",
          "[clock][match][durability]") {
    HoldingStore holding;
    Rig rig(clocked(2, "realtime", 60, 0), true, &holding);
    rig.step(0, {{"kind", "start_player"}, {"seat", 1}});
    REQUIRE(holding.waiting() == 1);
    holding.answer(true);
    rig.settle();
    rig.advance(60s);
    rig.match->check_clock();
    rig.settle();
    REQUIRE(holding.waiting() == 1);
    holding.answer(false);
    rig.settle();
    CHECK(rig.view()["status"] == "placement");
    rig.match->check_clock();  // the retry (a timer would do it a second later)
    rig.settle();
    REQUIRE(holding.waiting() == 1);
    CHECK(holding.answer(true).player_id.empty());
    rig.settle();
    CHECK(rig.view()["status"] == "aborted");
}

TEST_CASE("Nobody runs out of time in the draft; in placement a timeout aborts the match",
          "[clock][match]") {
    Rig rig(clocked(2, "realtime", 60, 0));
    rig.advance(600s);
    rig.match->check_clock();
    rig.settle();
    CHECK(rig.view()["status"] == "draft");
    CHECK(rig.view()["clock"]["running"].is_null());
    rig.step(0, {{"kind", "start_player"}, {"seat", 1}});
    rig.advance(60s);
    rig.match->check_clock();
    rig.settle();
    CHECK(rig.view()["status"] == "aborted");
    CHECK(rig.view()["result"] == json{{"winners", json::array()}, {"reason", "aborted"}});
}

TEST_CASE("With 3 players running out of time eliminates the seat and the game goes on",
          "[clock][match][3p]") {
    Rig rig(clocked(3, "realtime", 60, 0));
    rig.play_to_turns();
    const int d = rig.decider();
    const auto left = rig.view()["clock"]["remaining_ms"];
    rig.advance(std::chrono::milliseconds(left[d].get<std::int64_t>()));
    rig.match->check_clock();
    rig.settle();
    auto view = rig.view();
    INFO(view.dump());
    CHECK(view["status"] == "playing");
    CHECK(view["seats"][d]["out"] == true);
    CHECK(view["result"].is_null());
    const int next = view["state"]["decider"];
    CHECK(next != d);
    CHECK(view["clock"]["running"] == next);
    CHECK(rig.decider() == next);
}

TEST_CASE("Turn-based: missing the deadline loses", "[clock][match]") {
    Rig rig(clocked(2, "turn"));
    rig.play_to_turns();
    const int d = rig.decider();
    const std::int64_t due = rig.view()["clock"]["deadline_ms"];
    CHECK(due == server::epoch_ms(wall0 + 24h));
    rig.advance(24h);
    rig.match->check_clock();
    rig.settle();
    CHECK(rig.view()["result"] == json{{"winners", {1 - d}}, {"reason", "timeout"}});
}

TEST_CASE("The match's own timer flags a realtime clock (one second, real time)",
          "[clock][match][slow]") {
    Rig rig(clocked(2, "realtime", 1, 0), false);
    rig.play_to_turns();
    CHECK(rig.view()["status"] == "playing");
    rig.io.restart();
    rig.io.run_for(3s);  // returns once the timeout has been settled: no timer is left
    CHECK(rig.view()["status"] == "finished");
    CHECK(rig.view()["result"]["reason"] == "timeout");
}

TEST_CASE("Splendor on the clock: a timeout loses with 2 players, puts the seat out with 3",
          "[clock][match][splendor]") {
    auto splendor = [](int players) {
        protocol::LobbySettings s = clocked(players, "realtime", 60, 5);
        s.game = "splendor";
        s.powers = "none";
        return s;
    };
    {
        Rig rig(splendor(2));
        CHECK(rig.view()["status"] == "playing");  // no setup: the clock runs from the start
        const int d = rig.decider();
        REQUIRE(d >= 0);
        CHECK(rig.view()["clock"]["running"] == d);
        rig.advance(60s);
        rig.match->check_clock();
        rig.settle();
        const json view = rig.view();
        CHECK(view["status"] == "finished");
        CHECK(view["result"] == json{{"winners", {1 - d}}, {"reason", "timeout"}});
        CHECK(view["state"]["winners"] == json{1 - d});
        CHECK(json::parse(rig.recording.records().back().step_json) ==
              json{{"kind", "timeout"}, {"seat", d}});
    }
    {
        Rig rig(splendor(3));
        const int d = rig.decider();
        REQUIRE(d >= 0);
        // A whole turn (one action, no returns at the start) passes the decision and earns the
        // increment.
        std::mt19937 rng(4);
        rig.advance(10s);
        rig.step(d, pick_step(rig.view(d), rng));
        const int next = rig.decider();
        REQUIRE(next >= 0);
        CHECK(next != d);
        CHECK(rig.view()["clock"]["remaining_ms"][d] == 55000);
        rig.advance(60s);
        rig.match->check_clock();
        rig.settle();
        const json view = rig.view();
        CHECK(view["status"] == "playing");
        CHECK(view["result"] == nullptr);
        CHECK(view["seats"][next]["out"] == true);
        CHECK(view["state"]["hands"][next]["out"] == true);
        const int after = view["state"]["decider"];
        CHECK(after != next);
        CHECK(view["clock"]["running"] == after);
        CHECK(json::parse(rig.recording.records().back().step_json) ==
              json{{"kind", "timeout"}, {"seat", next}});
    }
}
