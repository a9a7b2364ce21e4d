// The pure pairing rules (server/rooms/matchmaker.hpp) with a made-up clock: the window widens per
// missed wave, the closest rating is preferred, queues and clocks never mix, leaving works at
// any moment, nobody queues twice, and the oldest waiter is served first.

#include "protocol/games.hpp"
#include "server/rooms/matchmaker.hpp"

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <string>

#include "server/match/match.hpp"
#include "server/rooms/queue_catalog.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace matchmaker_test {

using namespace server;
using namespace std::chrono_literals;

namespace {

const auto t0 = std::chrono::steady_clock::time_point{} + 1000h;
const QueueKey blitz{"santorini", 180, 2};

QueueEntry entry(const std::string& player, double rating,
                 std::chrono::steady_clock::time_point joined = t0, QueueKey key = blitz) {
    QueueEntry e;
    e.player = player;
    e.key = std::move(key);
    e.rating = rating;
    e.deviation = 60;
    e.joined = joined;
    return e;
}

bool paired(const QueuePair& p, const std::string& a, const std::string& b) {
    return (p.first.player == a && p.second.player == b) ||
           (p.first.player == b && p.second.player == a);
}

}  // namespace

TEST_CASE("The window is base + 12 per missed wave, up to the maximum", "[matchmaker]") {
    Matchmaker mm;  // wave 1 s, base 100, +12, max 500
    const auto e = entry("p_a", 1500);
    CHECK(mm.missed_waves(e, t0) == 0);
    CHECK(mm.window(e, t0) == 100);
    CHECK(mm.window(e, t0 + 999ms) == 100);
    CHECK(mm.missed_waves(e, t0 + 1s) == 1);
    CHECK(mm.window(e, t0 + 1s) == 112);
    CHECK(mm.window(e, t0 + 10s + 500ms) == 220);
    CHECK(mm.window(e, t0 + 33s) == 496);
    CHECK(mm.window(e, t0 + 34s) == 500);
    CHECK(mm.window(e, t0 + 1h) == 500);
    CHECK(mm.window(e, t0 - 5s) == 100);  // a clock that seems to run back widens nothing

    Matchmaker custom(MatchmakerParameters{2000ms, 50, 25, 150});
    CHECK(custom.window(e, t0 + 3999ms) == 75);
    CHECK(custom.window(e, t0 + 20s) == 150);
}

TEST_CASE("Far ratings wait until both windows reach the gap", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_low", 1500, t0)));
    REQUIRE(mm.join(entry("p_high", 1700, t0 + 5s)));  // gap 200
    CHECK(mm.pair(t0 + 5s).empty());     // windows 160 and 100
    CHECK(mm.pair(t0 + 10s).empty());    // 220 and 160: the newcomer does not accept it yet
    CHECK(mm.pair(t0 + 13s).empty());    // 256 and 196
    auto pairs = mm.pair(t0 + 14s);      // 268 and 208
    REQUIRE(pairs.size() == 1);
    CHECK(pairs[0].first.player == "p_low");  // the one who waited longer comes first
    CHECK(pairs[0].second.player == "p_high");
    CHECK(mm.empty());
}

TEST_CASE("Gaps beyond the maximum window are never paired", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_a", 1000)));
    REQUIRE(mm.join(entry("p_b", 1600)));
    CHECK(mm.pair(t0 + 10h).empty());
    CHECK(mm.size() == 2);
}

TEST_CASE("Equal ratings pair at once; the closest rating is preferred", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_a", 1500, t0)));
    REQUIRE(mm.join(entry("p_far", 1590, t0)));
    REQUIRE(mm.join(entry("p_near", 1520, t0)));
    REQUIRE(mm.join(entry("p_other", 1585, t0)));
    auto pairs = mm.pair(t0);
    REQUIRE(pairs.size() == 2);
    CHECK(paired(pairs[0], "p_a", "p_near"));
    CHECK(paired(pairs[1], "p_far", "p_other"));
    CHECK(mm.empty());
}

TEST_CASE("Only present players are paired when the wave is told who is present", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_away", 1500, t0)));
    REQUIRE(mm.join(entry("p_a", 1500, t0 + 1s)));
    REQUIRE(mm.join(entry("p_b", 1510, t0 + 2s)));
    auto present = [](const std::string& p) { return p != "p_away"; };
    auto pairs = mm.pair(t0 + 2s, present);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_a", "p_b"));
    // The absent player keeps the place, and is paired once present.
    REQUIRE(mm.find("p_away"));
    REQUIRE(mm.join(entry("p_c", 1500, t0 + 3s)));
    CHECK(mm.pair(t0 + 3s, present).empty());
    pairs = mm.pair(t0 + 3s);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_away", "p_c"));
}

TEST_CASE("Ties in the gap go to whoever waited longer", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_a", 1500, t0)));
    REQUIRE(mm.join(entry("p_later", 1450, t0 + 2s)));
    REQUIRE(mm.join(entry("p_earlier", 1550, t0 + 1s)));
    auto pairs = mm.pair(t0 + 2s);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_a", "p_earlier"));
    CHECK(mm.find("p_later"));
}

TEST_CASE("Queues and clocks never mix", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_a", 1500, t0, {"santorini", 180, 2})));
    REQUIRE(mm.join(entry("p_b", 1500, t0, {"santorini", 300, 3})));
    REQUIRE(mm.join(entry("p_c", 1500, t0, {"santorini_simple", 180, 2})));
    REQUIRE(mm.join(entry("p_d", 1500, t0, {"santorini_gods", 180, 2})));
    CHECK(mm.pair(t0 + 1h).empty());
    CHECK(mm.waiting({"santorini", 180, 2}) == 1);
    CHECK(mm.waiting({"santorini", 600, 5}) == 0);
    REQUIRE(mm.join(entry("p_e", 1500, t0 + 1h, {"santorini_simple", 180, 2})));
    auto pairs = mm.pair(t0 + 1h);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_c", "p_e"));
    CHECK(pairs[0].first.key == pairs[0].second.key);
}

TEST_CASE("A player waits in one queue at a time; leaving works at any moment", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_a", 1500)));
    CHECK_FALSE(mm.join(entry("p_a", 1500)));                                 // the same queue
    CHECK_FALSE(mm.join(entry("p_a", 1500, t0, {"santorini_gods", 600, 5})));  // another one
    CHECK(mm.size() == 1);
    CHECK(mm.find("p_a")->key == blitz);

    auto left = mm.leave("p_a");
    REQUIRE(left);
    CHECK(left->rating == 1500);
    CHECK_FALSE(mm.leave("p_a"));  // already gone
    CHECK_FALSE(mm.leave("p_nobody"));
    CHECK(mm.empty());

    // Leaving between waves: the partner stays and is paired with the next comer.
    REQUIRE(mm.join(entry("p_a", 1500, t0)));
    REQUIRE(mm.join(entry("p_b", 1700, t0)));
    CHECK(mm.pair(t0 + 1s).empty());
    REQUIRE(mm.leave("p_b"));
    REQUIRE(mm.join(entry("p_c", 1510, t0 + 2s)));
    auto pairs = mm.pair(t0 + 2s);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_a", "p_c"));
    // After a pair, both may join again.
    CHECK(mm.join(entry("p_a", 1500, t0 + 3s)));
}

TEST_CASE("The oldest waiter is served first, not starved by closer newcomers", "[matchmaker]") {
    Matchmaker mm;
    REQUIRE(mm.join(entry("p_old", 1500, t0)));
    // Newcomers arrive in pairs that suit each other perfectly, 90 points from the old waiter:
    // within everyone's window, so the old waiter takes one of them in the first wave.
    REQUIRE(mm.join(entry("p_new1", 1590, t0 + 30s)));
    REQUIRE(mm.join(entry("p_new2", 1590, t0 + 30s)));
    auto pairs = mm.pair(t0 + 30s);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_old", "p_new1"));
    CHECK(mm.find("p_new2"));

    // A closer pair elsewhere does not take precedence over the oldest waiter's best match.
    Matchmaker other;
    REQUIRE(other.join(entry("p_old", 1500, t0)));
    REQUIRE(other.join(entry("p_x", 1560, t0 + 20s)));
    REQUIRE(other.join(entry("p_y", 1565, t0 + 20s)));
    pairs = other.pair(t0 + 20s);
    REQUIRE(pairs.size() == 1);
    CHECK(paired(pairs[0], "p_old", "p_x"));
}

TEST_CASE("A wave pairs everyone it can; an odd one waits for the next", "[matchmaker]") {
    Matchmaker mm;
    for (int i = 0; i < 9; ++i)
        REQUIRE(mm.join(entry("p_" + std::to_string(i), 1400 + 10 * i, t0 + std::chrono::seconds(i))));
    auto pairs = mm.pair(t0 + 10s);
    CHECK(pairs.size() == 4);
    CHECK(mm.size() == 1);
    for (const auto& p : pairs) CHECK(p.first.joined <= p.second.joined);
}

TEST_CASE("Every queue and preset makes valid settings, rated in the right pool", "[matchmaker][queues]") {
    REQUIRE(queue_kinds().size() == 4);
    REQUIRE(clock_presets().size() == 3);
    CHECK(offered({180, 2}));
    CHECK(offered({300, 3}));
    CHECK(offered({600, 5}));
    CHECK_FALSE(offered({180, 3}));
    CHECK(offered_text() == "3+2, 5+3, 10+5");
    CHECK(find_queue("santorini_gods"));
    CHECK(find_queue("splendor"));
    CHECK_FALSE(find_queue("chess"));
    for (const auto& kind : queue_kinds())
        for (const auto& clock : clock_presets()) {
            auto s = queue_settings(kind, clock);
            INFO(kind.name);
            CHECK(s.players == 2);
            CHECK(s.clock == "realtime");
            CHECK(s.base_seconds == clock.base_seconds);
            CHECK(s.rated);
            CHECK(s.game == kind.game);
            CHECK(std::holds_alternative<std::unique_ptr<protocol::Game>>(
                protocol::start_game(s, 7, 0)));
            CHECK(rating_pool(s) == (kind.name == "santorini"   ? "santorini"
                                     : kind.name == "splendor" ? "splendor"
                                                               : "santorini_powers"));
        }
    CHECK(queue_settings(*find_queue("santorini"), {180, 2}).powers == "none");
    CHECK(queue_settings(*find_queue("santorini_simple"), {180, 2}).powers == "simple");
    CHECK(queue_settings(*find_queue("santorini_gods"), {180, 2}).powers == "all");
    CHECK(queue_settings(*find_queue("santorini_gods"), {180, 2}).draft == "random");
}

}  // namespace matchmaker_test
