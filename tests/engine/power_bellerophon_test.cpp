// Bellerophon, Tamer of Pegasus (hero). Your Move: Once, your Worker moves up two levels.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA5): once per game a move to a free neighbour
// exactly two levels up (0 -> 2, or 1 -> 3: a win); a move up one level is a normal move and
// spends nothing; move restrictions and win vetoes bind the climb as any move up.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Bellerophon climbs two levels once", "[bellerophon]") {
    State s = position("00000/00000/00200/00000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,-");
    CHECK(legal(s, "move B2 C3"));
    play(s, {"move B2 C3"});
    CHECK(powers::hero_spent(s, 0));
    play(s, {"build C3 D4", "move A5 A4", "build A4 A5"});
    CHECK(to_notation(s) ==
          "10000/00010/00200/00000/00000 A:C3,E5 B:A4,E1 A powers=Bellerophon,- counter=1,0");
    // Once per game: the next two-level climb is not offered.
    State again = position(
        "00000/00000/00200/00000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,- counter=1,0");
    CHECK_FALSE(legal(again, "move B2 C3"));
}

TEST_CASE("Bellerophon wins by climbing from level 1 to level 3", "[bellerophon]") {
    State s = position("00000/00000/00300/01000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,-");
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Bellerophon's winning climb spends his power", "[bellerophon][hero]") {
    // Spent by the use itself (rulings HA5, "Heroes: Jason to Theseus"), not by what follows it:
    // a climb that ends the game is a use like any other.
    State s = position("00000/03000/13000/00000/00000 A:A3,E3 B:E5,E1 A powers=Bellerophon,-");
    play(s, {"move A3 B4"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(powers::hero_spent(s, 0));
}

TEST_CASE("Bellerophon: normal moves, one level up included, leave the power unused",
          "[bellerophon]") {
    State s = position("00000/00000/00210/00000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,-");
    CHECK(legal(s, "move B2 B3"));
    play(s, {"move B2 B3", "build B3 A3"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    play(s, {"move A5 A4", "build A4 A5", "move B3 C3"});  // 0 -> 2: the climb
    CHECK(powers::hero_spent(s, 0));
}

TEST_CASE("Bellerophon climbs exactly two levels: not three, not onto a dome or a worker",
          "[bellerophon]") {
    // C3 level 3 (three up), B3 level 2 with a dome, A3 level 2 with a worker, C1 level 2.
    State s = position("00000/00000/22D300/00000/00200 A:B2,E5 B:A3,E1 A powers=Bellerophon,-");
    CHECK(legal_starting(s, "move B2") ==
          sorted({"move B2 A1", "move B2 A2", "move B2 B1", "move B2 C1", "move B2 C2"}));
}

TEST_CASE("Bellerophon under Athena's restriction does not climb", "[bellerophon][athena]") {
    State s = position(
        "00000/00000/00200/00000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,Athena memory=0,1");
    CHECK_FALSE(legal(s, "move B2 C3"));
}

TEST_CASE("Bellerophon's climb to level 3 on the perimeter wins nothing against Hera",
          "[bellerophon][hera]") {
    State s = position("00000/00000/30000/01000/00000 A:B2,E5 B:C5,E1 A powers=Bellerophon,Hera");
    play(s, {"move B2 A3"});
    CHECK_FALSE(s.over());
    CHECK(powers::hero_spent(s, 0));
}

TEST_CASE("Persephone cannot make Bellerophon climb: a demand only his power meets is waived",
          "[bellerophon][persephone]") {
    // His only way up is the two-level climb onto C3.
    State s =
        position("00000/00000/00200/00000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,Persephone");
    CHECK(s.turn.if_possible_waived);
    CHECK(legal(s, "move B2 B3"));
    CHECK(legal(s, "move B2 C3"));  // he may still choose it
    // With a normal move up too, that one (or the climb) is required.
    State up =
        position("00000/00000/01200/00000/00000 A:B2,E5 B:A5,E1 A powers=Bellerophon,Persephone");
    CHECK_FALSE(up.turn.if_possible_waived);
    CHECK_FALSE(legal(up, "move B2 A2"));
    CHECK(legal(up, "move B2 B3"));
    CHECK(legal(up, "move B2 C3"));
}

TEST_CASE("Nemesis' swap lifting Bellerophon's workers two levels is no use of his power",
          "[bellerophon][nemesis]") {
    // D5 and E5 on level 2: Bellerophon's workers are forced there from the ground.
    State s =
        position("00022/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A powers=Nemesis,Bellerophon");
    play(s, {"move A1 A2", "build A2 A3", "force D5 A2", "force E5 B1"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(powers::hero_spent(s, 1));
    CHECK(to_notation(s) ==
          "00022/00000/10000/00000/00000 A:D5,E5 B:A2,B1 B powers=Nemesis,Bellerophon");
}

TEST_CASE("Bellerophon's winning climb into Moerae's Fate wins for Moerae",
          "[bellerophon][moerae]") {
    // The Fate is B2, C2, B3, C3; D2 on level 1, C3 on level 3.
    State s = position(
        "00000/00000/00300/00010/00000 A:D5,E5,A5 B:D2,E1 B powers=Moerae,Bellerophon data=18c0,0");
    play(s, {"move D2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}
