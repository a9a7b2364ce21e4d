// check_invariants on states broken by hand: each seat's bought cards (Player::bought) must
// be the cards found nowhere else, each exactly once, and must make that seat's bonuses, card
// count and points (with its nobles'). In total over the seats is not enough: two seats
// swapping cards, or bonuses, keep the totals.

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace invariants_test {

using namespace splendor;

namespace {
// A bought blue card 9 and green card 23 (1 point), B red card 25.
State bought_position() {
    State s = position(
        "nobles=0,3,7 row1=0,8,16,26 row2=40,46,52,58 row3=70,74,78,82 A: bought=9,23 B: "
        "bought=25");
    REQUIRE(check_invariants(s) == "");
    return s;
}
}  // namespace

TEST_CASE("invariants: the seats' bought cards swapped, totals unchanged, are refused") {
    State s = bought_position();
    std::swap(s.seat(0).bought, s.seat(1).bought);
    CHECK_FALSE(check_invariants(s).empty());
    State t = bought_position();
    std::swap(t.seat(0).bonuses, t.seat(1).bonuses);  // the colours of the cards, swapped
    std::swap(t.seat(0).cards, t.seat(1).cards);
    CHECK(check_invariants(t).find("seat 0's bonuses are not its bought cards' colours") !=
          std::string::npos);
    State u = bought_position();
    u.seat(0).points = 0;  // A's point moved to B
    u.seat(1).points = 1;
    CHECK(check_invariants(u).find("seat 0's points are not its bought cards'") !=
          std::string::npos);
}

TEST_CASE("invariants: a bought card must be nowhere else, and no card nowhere") {
    State s = bought_position();
    mark_bought(s.seat(1), 9);  // A's card in B's record too
    CHECK(check_invariants(s).find("card #9 twice") != std::string::npos);
    State t = bought_position();
    mark_bought(t.seat(0), 0);  // face up in row 1
    CHECK(check_invariants(t).find("card #0 twice") != std::string::npos);
    State u = bought_position();
    u.seat(1).bought = {};  // B's card nowhere, and B's bonus from nothing
    std::string e = check_invariants(u);
    CHECK(e.find("cards are not conserved (card #25 is nowhere)") != std::string::npos);
    CHECK(e.find("seat 1's card count is not its bought cards'") != std::string::npos);
}

TEST_CASE("invariants: bought ids above 89 and seats beyond the players are refused") {
    State s = bought_position();
    s.seat(0).bought[1] |= std::uint64_t{1} << 40;  // id 104
    CHECK(check_invariants(s).find("bought a card id out of range") != std::string::npos);
    State t = bought_position();
    t.seat(2).bought = t.seat(1).bought;  // a third seat in a 2-player game
    CHECK(check_invariants(t).find("seat 2 is not in the game, yet not empty") !=
          std::string::npos);
}

}  // namespace invariants_test
