// Taking gems: three different colours, two of one colour from a pile of four or more, and
// the ruling for fewer than three colours left (docs/rulings.md S1).

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace take_test {

using namespace splendor;

TEST_CASE("take: every three different colours, then two of any colour with 4 in its pile") {
    State s = position(std::string(table) + " A: B:");
    CHECK(legal_starting(s, "take") ==
          std::vector<std::string>{
              "take white blue green", "take white blue red", "take white blue black",
              "take white green red", "take white green black", "take white red black",
              "take blue green red", "take blue green black", "take blue red black",
              "take green red black", "take white white", "take blue blue", "take green green",
              "take red red", "take black black"});
}

TEST_CASE("take: the gems move from the bank to the hand, and the turn passes") {
    State s = position(std::string(table) + " A: tokens=1,0,0,0,0,0 B:");
    play(s, {"take white blue green"});
    CHECK(s.seat(0).tokens == Tokens{2, 1, 1, 0, 0, 0});
    CHECK(s.supply == Tokens{2, 3, 3, 4, 4, 5});
    CHECK(s.current == 1);
    CHECK(s.turn == 1);
    play(s, {"take red red"});
    CHECK(s.seat(1).tokens == Tokens{0, 0, 0, 2, 0, 0});
    CHECK(s.supply[Red] == 2);
    CHECK(s.current == 0);
}

TEST_CASE("take two of a colour needs at least 4 in the pile") {
    // Red: 3 left in the bank (B holds one), so no two reds; reds still come in threes.
    State s = position(std::string(table) + " A: B: tokens=0,0,0,1,0,0");
    CHECK(s.supply[Red] == 3);
    CHECK_FALSE(legal(s, "take red red"));
    CHECK(legal(s, "take white white"));
    CHECK(legal(s, "take white green red"));
    // With 4 players a pile of 7 allows it, and still after 3 were taken (4 left).
    State four = position(std::string(table4) + " A: B: tokens=0,0,0,3,0,0 C: D:");
    CHECK(four.supply[Red] == 4);
    CHECK(legal(four, "take red red"));
}

TEST_CASE("take with fewer than 3 colours left: exactly one of each colour left (ruling S1)") {
    // The bank holds 2 white and 1 blue; everything else is in the hands.
    State two = position(std::string(table) + " A: tokens=2,3,4,0,1,0 B: tokens=0,0,0,4,3,0");
    CHECK(two.supply == Tokens{2, 1, 0, 0, 0, 5});
    CHECK(legal_starting(two, "take") == std::vector<std::string>{"take white blue"});
    CHECK_FALSE(legal(two, "take white"));
    CHECK_FALSE(legal(two, "take white white"));
    play(two, {"take white blue"});
    CHECK(two.seat(0).tokens == Tokens{3, 4, 4, 0, 1, 0});
    CHECK(two.supply == Tokens{1, 0, 0, 0, 0, 5});

    // One colour left: one gem of it.
    State one = position(std::string(table) + " A: tokens=3,4,3,0,0,0 B: tokens=0,0,1,4,4,0");
    CHECK(legal_starting(one, "take") == std::vector<std::string>{"take white"});

    // No gem left: no take at all (reserving is still possible).
    State none = position(std::string(table) + " A: tokens=4,4,2,0,0,0 B: tokens=0,0,2,4,4,0");
    CHECK(legal_starting(none, "take").empty());
    CHECK_FALSE(legal_starting(none, "reserve").empty());
}

TEST_CASE("take: an empty pile is skipped in the three-colour combinations") {
    State s = position(std::string(table) + " A: tokens=0,0,4,0,0,0 B:");
    CHECK(legal_starting(s, "take") ==
          std::vector<std::string>{"take white blue red", "take white blue black",
                                   "take white red black", "take blue red black",
                                   "take white white", "take blue blue", "take red red",
                                   "take black black"});
}

}  // namespace take_test
