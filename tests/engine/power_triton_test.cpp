// Triton, God of the Waves. Your Move: each time your worker moves into a perimeter space, it
// may immediately move again.
// Rulings (RULES.md; docs/rulings.md B5): the same worker, normal moves, optional each time,
// a win checked after each; the turn never passes twice through the same placement of his
// workers.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Triton moving into a perimeter space may move the same worker again", "[triton]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2"});
    // B2 would bring back the start placement.
    CHECK(legal_starting(s, "move") ==
          sorted({"move A2 A1", "move A2 A3", "move A2 B1", "move A2 B3"}));
    play(s, {"move A2 A3", "move A3 A4", "move A4 B3"});
    CHECK(legal_starting(s, "move").empty());  // B3 is not on the perimeter
    play(s, {"build B3 B2"});
    CHECK(to_notation(s) == "00000/00000/00000/01000/00000 A:B3,D4 B:A5,E5 B powers=Triton,-");
}

TEST_CASE("Triton moving to an inner space has no further move", "[triton]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 C3"});
    CHECK(legal_starting(s, "move").empty());
}

TEST_CASE("Triton's further moves are optional: he may build at once", "[triton]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2", "build A2 B2"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Triton's further moves are normal moves of that worker only", "[triton]") {
    // A3 is two levels above A2, B3 one level.
    State s = position("00000/00000/21000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2"});
    CHECK_FALSE(legal(s, "move A2 A3"));
    CHECK(legal(s, "move A2 B3"));
    CHECK_FALSE(legal(s, "move D4 D5"));
}

TEST_CASE("Triton wins by a move up to level 3 in the middle of his moves", "[triton]") {
    State s = position("00000/00000/30000/22000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2", "move A2 A3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Triton's turn never passes twice through the same placement of his workers",
          "[triton]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2", "move A2 A1"});
    CHECK(legal_starting(s, "move") == std::vector<std::string>{"move A1 B1"});
    play(s, {"move A1 B1", "move B1 C1"});
    CHECK_FALSE(legal(s, "move C1 B1"));
    CHECK(legal(s, "move C1 D1"));
}

TEST_CASE("Athena's restriction binds Triton's further moves", "[triton][athena]") {
    State s =
        position("00000/00000/10000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,Athena memory=0,1");
    play(s, {"move B2 A2"});
    CHECK_FALSE(legal(s, "move A2 A3"));
    CHECK(legal(s, "move A2 A1"));
}
