// The end of the game: 15 points finish the round so everyone has had as many turns; most
// points win, then fewest development cards, then a shared victory. A seat with no possible
// action passes; a whole round of passes ends the game (ruling S2).

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace end_test {

using namespace splendor;

namespace {
// A at 14 points (cards 73, 77, 45, 23) can buy card 40 (1 point) to reach 15.
constexpr const char* fourteen = "nobles=0,3,7 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82";
constexpr const char* a_fourteen = " A: tokens=0,0,2,2,2,0 bought=73,77,45,23";
}  // namespace

TEST_CASE("15 points mid-round: the round is finished, then the game ends") {
    State s = position(std::string(fourteen) + a_fourteen + " B:");
    CHECK(s.seat(0).points == 14);
    CHECK_FALSE(s.final_round);
    play(s, {"buy #40 for green 2 red 2 black 2"});
    CHECK(s.seat(0).points == 15);
    CHECK(s.final_round);
    CHECK(decider(s) == 1);  // B still plays this round
    CHECK(winners(s) == 0);
    play(s, {"take white blue green"});
    CHECK(s.phase == Phase::Over);
    CHECK(decider(s) == -1);
    CHECK(winners(s) == 1u << 0);
    StepList none;
    legal_steps(s, none);
    CHECK(none.empty());
    CHECK(places(s) == std::array<int, max_players>{1, 2, 0, 0});
}

TEST_CASE("15 points by the round's last seat: the game ends at once") {
    State s = position(std::string(fourteen) + " start=B current=A turn=1" + a_fourteen +
                       " B: tokens=1,1,1,0,0,0");
    play(s, {"buy #40"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 0);
}

TEST_CASE("15 points with 3 players: the seats after play, the game ends before the start player") {
    State s = position(std::string(table3) +
                       " start=B current=C turn=1 A: B: C: tokens=0,0,2,2,2,0 bought=73,77,45,23");
    play(s, {"buy #40"});
    CHECK(s.final_round);
    CHECK(decider(s) == 0);
    play(s, {"take white blue green"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 2);
    CHECK(places(s) == std::array<int, max_players>{2, 2, 1, 0});
}

TEST_CASE("more points win, whoever reached 15 first and whatever the cards") {
    // Final round, B last: A has 15 points from 5 cards; B buys card 42 (2 points) for 16 with 6.
    State s = position(
        "nobles=0,3,7 row1=0,8,16,39 row2=42,46,52,58 row3=70,74,78,82 current=B "
        "A: bought=73,77,45,23,31 B: tokens=0,0,0,3,0,0 bought=81,85,72,24,2");
    CHECK(s.final_round);
    play(s, {"buy #42 for red 3"});
    CHECK(s.seat(1).points == 16);
    CHECK(winners(s) == 1u << 1);
}

TEST_CASE("equal points: fewest development cards wins") {
    // Final round, B last: A has 15 points from 5 cards; B reaches 15 with 4.
    State s = position(
        "nobles=0,3,7 row1=39,8,16,24 row2=40,46,52,58 row3=70,74,78,82 current=B "
        "A: bought=73,77,45,23,31 B: tokens=0,4,0,0,0,0 bought=81,85,72");
    CHECK(s.final_round);
    play(s, {"buy #39 for blue 4"});
    CHECK(s.seat(1).points == 15);
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 1);
    CHECK(places(s) == std::array<int, max_players>{2, 1, 0, 0});
}

TEST_CASE("equal points and equal cards: a shared victory") {
    State s = position(
        "nobles=0,3,7 row1=39,8,16,24 row2=40,46,52,58 row3=70,74,78,82 current=B "
        "A: bought=73,77,45,23,31 B: tokens=0,4,0,0,0,0 bought=81,85,72,2");
    play(s, {"buy #39"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == ((1u << 0) | (1u << 1)));
    CHECK(places(s) == std::array<int, max_players>{1, 1, 0, 0});
}

namespace {
// Every gem is in a hand, every seat holds three reserved cards, and no card in sight is
// affordable: A (white, blue, green) cannot pay red or black, B (green, red, black) cannot
// pay white or blue.
constexpr const char* stuck =
    "nobles=0,3,7 row1=3,8,10,13 row2=40,41,44,46 row3=70,72,74,76 "
    "A: tokens=4,4,2,0,0,0 reserved=71*,75*,79* bought=23 "
    "B: tokens=0,0,2,4,4,0 reserved=77*,80*,81*";
}  // namespace

TEST_CASE("a seat with no possible action passes; the pass is offered only then") {
    State s = position(stuck);
    CHECK(legal_texts(s) == std::vector<std::string>{"pass"});
    // Give B a way out (card 1 costs 2 red 1 black): B acts, and the count of passes restarts.
    State t = position(
        "nobles=0,3,7 row1=3,8,10,1 row2=40,41,44,46 row3=70,72,74,76 "
        "A: tokens=4,4,2,0,0,0 reserved=71*,75*,79* bought=23 "
        "B: tokens=0,0,2,4,4,0 reserved=77*,80*,81*");
    play(t, {"pass"});
    CHECK(t.passes == 1);
    CHECK(decider(t) == 1);
    CHECK_FALSE(legal(t, "pass"));
    CHECK(line(t, "buy #1", 0) == "buy #1 (level 1 white, 0 points) for red 2 black 1");
    play(t, {"buy #1"});
    CHECK(t.passes == 0);
    CHECK(t.phase == Phase::Action);
}

TEST_CASE("every seat still in passes in a row: the game ends and is scored as usual (ruling S2)") {
    State s = position(stuck);
    CHECK(line(s, "pass", spectator) == "pass");
    play(s, {"pass"});
    CHECK(s.phase == Phase::Action);
    play(s, {"pass"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 0);  // A's one point
    CHECK(check_invariants(s) == "");
}

}  // namespace end_test
