// Nobles: a visit at the end of the turn when the bonuses (never the tokens) meet a noble's
// requirements; one earned comes by itself, several earned at once are a choice; at most one
// noble a turn, and an earned noble left on the table comes at a later turn's end (ruling S5).

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace noble_test {

using namespace splendor;

TEST_CASE("one noble earned: it visits by itself at the end of the turn") {
    // A has 4 white and 3 blue bonuses; buying blue card 8 (1 white, 2 black) earns noble 0.
    State s = position(std::string(table) + " A: tokens=0,0,0,0,2,0 bought=1,2,3,4,9,10,11 B:");
    CHECK(line(s, "buy #8", 0) == "buy #8 (level 1 blue, 0 points) for black 2; noble #0 visits");
    play(s, {"buy #8 for black 2"});
    const Player& a = s.seat(0);
    CHECK(a.nobles == 1u << 0);
    CHECK(a.points == 3);
    CHECK(a.bonuses == Colours{4, 4, 0, 0, 0});
    CHECK((s.nobles & 1u) == 0);
    CHECK(decider(s) == 1);
}

TEST_CASE("nobles look at bonuses only, never at tokens") {
    State s = position(std::string(table) + " A: tokens=0,3,0,0,0,0 bought=1,2,3,4,9,10,11 B:");
    play(s, {"take white green red"});
    CHECK(s.seat(0).nobles == 0);
    CHECK(s.seat(0).points == 0);
}

TEST_CASE("two nobles earned at once: a choice, one only; the other comes at a later turn's end") {
    // Nobles 0 (4 white 4 blue) and 5 (3 white 3 blue 3 green): buying blue card 8 earns both.
    State s = position(
        "nobles=0,5,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 "
        "A: tokens=0,0,0,0,2,0 bought=1,2,3,4,9,10,11,17,18,19 B:");
    CHECK(line(s, "buy #8", 0) == "buy #8 (level 1 blue, 0 points) for black 2");  // no visit yet
    play(s, {"buy #8"});
    CHECK(s.phase == Phase::Noble);
    CHECK(decider(s) == 0);
    CHECK(legal_texts(s) == std::vector<std::string>{"noble #0", "noble #5"});
    CHECK(line(s, "noble #5", 1) == "noble #5");
    play(s, {"noble #5"});
    CHECK(s.seat(0).nobles == 1u << 5);
    CHECK(s.seat(0).points == 3);
    CHECK(s.nobles == ((1u << 0) | (1u << 9)));
    CHECK(decider(s) == 1);
    CHECK(s.turn == 1);
    // B's turn, then A's next turn ends with noble 0, whatever A does.
    play(s, {"take white blue green"});
    CHECK(line(s, "take white blue green", 1) == "take white blue green; noble #0 visits");
    play(s, {"take white blue green"});
    CHECK(s.seat(0).nobles == ((1u << 0) | (1u << 5)));
    CHECK(s.seat(0).points == 6);
}

TEST_CASE("a noble waits for the returns, then visits") {
    // A earned nobles 0 and 5 together earlier and chose 5; noble 0 is still earned.
    State s = position(
        "nobles=0,3 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 "
        "A: tokens=3,3,3,0,0,0 bought=1,2,3,4,9,10,11,12,17,18,19 nobles=5 B:");
    CHECK(s.seat(0).points == 3);
    play(s, {"take green red black"});
    CHECK(s.phase == Phase::Return);
    CHECK(s.seat(0).nobles == 1u << 5);
    CHECK(line(s, "return red", 0) == "return red");
    play(s, {"return red"});
    CHECK(line(s, "return black", 1) == "return black; noble #0 visits");
    play(s, {"return black"});
    CHECK(s.seat(0).nobles == ((1u << 0) | (1u << 5)));
    CHECK(s.seat(0).points == 6);
    CHECK(decider(s) == 1);
}

TEST_CASE("a noble owed visits at the end of a pass; the pass still counts (rulings S2, S5)") {
    // A earned nobles 0 and 5 at once earlier and chose 5; now every gem is in a hand, A holds
    // three reserves and can afford nothing: A passes, and noble 0 visits at the turn's end.
    State s = position(
        "nobles=0,3 row1=3,6,10,13 row2=40,41,44,46 row3=70,72,74,76 A: tokens=4,4,2,0,0,0 "
        "reserved=71*,73*,78* bought=0,2,4,5,9,11,12,14,17,18,19 nobles=5 B: "
        "tokens=0,0,2,4,4,0 reserved=77*,80*,81*");
    CHECK(legal_texts(s) == std::vector<std::string>{"pass"});
    CHECK(line(s, "pass", 1) == "pass; noble #0 visits");
    play(s, {"pass"});
    CHECK(s.seat(0).nobles == ((1u << 0) | (1u << 5)));
    CHECK(s.seat(0).points == 6);
    CHECK(s.passes == 1);  // a visit is not an action: nothing B could do has changed
    CHECK(decider(s) == 1);
    play(s, {"pass"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 0);
}

}  // namespace noble_test
