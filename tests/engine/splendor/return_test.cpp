// Returning tokens: a hand above ten after the action gives back one token per step, of any
// kind held (the ones just taken included), down to exactly ten.

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace return_test {

using namespace splendor;

TEST_CASE("return down to 10, just-taken tokens included, then the next seat plays") {
    State s = position(std::string(table) + " A: tokens=3,3,3,0,0,0 B:");
    play(s, {"take green red black"});
    CHECK(s.phase == Phase::Return);
    CHECK(decider(s) == 0);
    CHECK(total(s.seat(0).tokens) == 12);
    CHECK(legal_texts(s) == std::vector<std::string>{"return white", "return blue", "return green",
                                                     "return red", "return black"});
    play(s, {"return black"});
    CHECK(s.phase == Phase::Return);
    CHECK_FALSE(legal(s, "return black"));  // none left
    play(s, {"return red"});
    CHECK(s.phase == Phase::Action);
    CHECK(decider(s) == 1);
    CHECK(s.seat(0).tokens == Tokens{3, 3, 4, 0, 0, 0});
    CHECK(s.supply == Tokens{1, 1, 0, 4, 4, 5});
    CHECK(s.turn == 1);
}

TEST_CASE("a hand of exactly 10 returns nothing") {
    State s = position(std::string(table) + " A: tokens=2,2,2,1,0,0 B:");
    play(s, {"take white blue green"});
    CHECK(total(s.seat(0).tokens) == 10);
    CHECK(decider(s) == 1);
}

TEST_CASE("two of a colour taken into a full hand can both go back") {
    State s = position(std::string(table4) + " A: tokens=2,2,2,2,2,0 B: C: D:");
    play(s, {"take red red", "return red", "return red"});
    CHECK(s.seat(0).tokens == Tokens{2, 2, 2, 2, 2, 0});
    CHECK(s.supply[Red] == 5);
    CHECK(decider(s) == 1);
}

}  // namespace return_test
