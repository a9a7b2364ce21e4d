// Heracles, Doer of Great Deeds (hero). End of Your Turn: Once, both your Workers build any
// number of domes (even zero) at any level.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA6-HA8): after his normal turn, domes on any
// unoccupied spaces neighbouring his workers, any level; zero domes leave the power unused; the
// first dome spends it; the domes are a set, asked in board order (each after the last, each
// space once, by the first of his workers next to it); build restrictions bind each dome.

#include <algorithm>
#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Heracles' workers build domes at the end of his turn, once per game", "[heracles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Heracles,-");
    play(s, {"move B2 B3", "build B3 B2"});
    CHECK(legal(s, "dome B3 B2"));  // any level: on his fresh block too
    CHECK(legal(s, "dome E5 D5"));
    CHECK(legal(s, "pass"));
    play(s, {"dome B3 A4"});
    CHECK(powers::hero_spent(s, 0));
    play(s, {"dome E5 D5"});  // no space after D5 is left: the turn ends
    CHECK(to_notation(s) ==
          "0000D0/0D0000/00000/01000/00000 A:B3,E5 B:A5,E1 B powers=Heracles,- counter=1,0");
    play(s, {"move A5 B5", "build B5 A5"});
    play(s, {"move B3 C3", "build C3 C2"});  // spent: no domes, the turn ends with the build
    CHECK(decider(s) == 1);
}

TEST_CASE("Heracles may build zero domes and keep the power", "[heracles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Heracles,-");
    play(s, {"move B2 B3", "build B3 B2", "pass"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(powers::hero_spent(s, 0));
    State spent =
        position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Heracles,- counter=1,0");
    play(spent, {"move B2 B3", "build B3 B2"});
    CHECK(decider(spent) == 1);
}

TEST_CASE("Heracles' domes are asked in board order, each space once", "[heracles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D2 B:A5,E5 A powers=Heracles,-");
    play(s, {"move B2 B3", "build B3 A4"});
    // C2 and C3 neighbour both workers: one step each, by the first worker (B3).
    auto domes = legal_starting(s, "dome");
    CHECK(std::count(domes.begin(), domes.end(), "dome B3 C3") == 1);
    CHECK_FALSE(legal(s, "dome D2 C3"));
    CHECK_FALSE(legal(s, "dome D2 C2"));
    play(s, {"dome B3 C3"});
    CHECK_FALSE(legal(s, "dome B3 A2"));  // A2 comes before C3
    CHECK(legal(s, "dome B3 A4"));        // level 1, after C3
    CHECK(legal(s, "dome D2 E3"));
}

TEST_CASE("Heracles' domes wall in the opponent, who loses at his turn's start", "[heracles]") {
    State s = position("00000/00000/00000/00000/00000 A:A2,C5 B:A5,B5 A powers=Heracles,-");
    play(s, {"move A2 A3", "build A3 A2", "dome A3 A4", "dome A3 B4", "dome C5 C4", "pass"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Limus forbids Heracles' domes next to her workers, but for complete towers",
          "[heracles][limus]") {
    State s = position("00000/00000/00300/00000/00000 A:B2,E5 B:D3,A5 A powers=Heracles,Limus");
    play(s, {"move B2 B1", "build B1 A1"});
    CHECK_FALSE(legal(s, "dome B1 C2"));  // next to Limus' D3, ground level
    CHECK(legal(s, "dome B1 A2"));
    State tower = position("00000/00000/00000/00300/00000 A:B2,E5 B:D3,A5 A powers=Heracles,Limus");
    play(tower, {"move B2 B1", "build B1 A1"});
    CHECK(legal(tower, "dome B1 C2"));  // level 3: a complete tower
}

TEST_CASE("Heracles cannot dome Clio's coins or Talus", "[heracles][clio][europa]") {
    State clio = position(
        "00000/00000/00000/00100/00000 A:B3,E5 B:A5,E1 A powers=Heracles,Clio counter=0,1 "
        "tokens=-,C2");
    play(clio, {"move B3 B2", "build B2 A1"});
    CHECK_FALSE(legal(clio, "dome B2 C2"));
    CHECK(legal(clio, "dome B2 C1"));
    State talus = position(
        "00000/00000/00000/00000/00000 A:B3,E5 B:A5,E1 A powers=Heracles,EuropaTalus tokens=-,C2");
    play(talus, {"move B3 B2", "build B2 A1"});
    CHECK_FALSE(legal(talus, "dome B2 C2"));
    CHECK(legal(talus, "dome B2 C1"));
}

TEST_CASE("Heracles' domes against Chronus: a fifth complete tower wins for Chronus",
          "[heracles][chronus]") {
    // Four complete towers stand; C2 is on level 3.
    State s =
        position("3D3D3D3D0/00000/00000/00300/00000 A:B2,E1 B:A3,E3 A powers=Heracles,Chronus");
    play(s, {"move B2 B1", "build B1 A1", "dome B1 C2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    CHECK(powers::hero_spent(s, 0));  // the dome that ends the game is a use like any other
}
