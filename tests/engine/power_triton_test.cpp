// Triton, God of the Waves. Your Move: each time your worker moves into a perimeter space, it
// may immediately move again.
// Rulings (RULES.md; docs/rulings.md B5): the same worker, normal moves, optional each time,
// a win checked after each; any square may be entered again, the starting one included, but
// the turn never repeats a whole state (the same square after the same moves so far).

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Triton moving into a perimeter space may move the same worker again", "[triton]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2"});
    CHECK(legal_starting(s, "move") ==
          sorted({"move A2 A1", "move A2 A3", "move A2 B1", "move A2 B2", "move A2 B3"}));
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

TEST_CASE("Athena's restriction binds Triton's further moves", "[triton][athena]") {
    State s =
        position("00000/00000/10000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,Athena memory=0,1");
    play(s, {"move B2 A2"});
    CHECK_FALSE(legal(s, "move A2 A3"));
    CHECK(legal(s, "move A2 A1"));
}

TEST_CASE(
    "Triton may come back to a square his worker left: out to the perimeter and back, then build",
    "[triton]") {
    // B2 -> A2 (perimeter) -> B2: the worker has moved twice, which is not the turn's start.
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2"});
    CHECK(legal(s, "move A2 B2"));
    play(s, {"move A2 B2"});
    CHECK(legal_starting(s, "move").empty());  // B2 is not on the perimeter
    play(s, {"build B2 A2"});
    CHECK(to_notation(s) == "00000/00000/00000/10000/00000 A:B2,D4 B:A5,E5 B powers=Triton,-");
}

TEST_CASE("Triton whose only turn comes back to his starting square has that turn",
          "[triton][limus]") {
    // B's B2 can only go to A2, where every build is a dome or next to Limus' C3; from A2
    // (perimeter) it may come back to B2 and build on A2. The E5 worker is walled in.
    State s =
        position("0000D0/0000D0D/0D0D000/000D00/0D0D0D00 A:C3,E1 B:B2,E5 B powers=Limus,Triton");
    REQUIRE_FALSE(s.over());
    CHECK(legal_texts(s) == std::vector<std::string>{"move B2 A2"});
    play(s, {"move B2 A2"});
    CHECK(legal_texts(s) == std::vector<std::string>{"move A2 B2"});
    play(s, {"move A2 B2"});
    CHECK(legal_texts(s) == std::vector<std::string>{"build B2 A2"});
    play(s, {"build B2 A2"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Triton's turn never repeats a whole turn state: the same square after the same moves",
          "[triton]") {
    // After two or more moves, on the ground, the placement alone tells the turn state apart.
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(s, {"move B2 A2", "move A2 A1", "move A1 A2"});  // A2 after one move, then after three
    CHECK_FALSE(legal(s, "move A2 A1"));                  // A1 after two or more: passed through
    CHECK(legal(s, "move A2 B1"));
    play(s, {"move A2 B1"});
    CHECK_FALSE(legal(s, "move B1 A2"));
    CHECK_FALSE(legal(s, "move B1 A1"));
    CHECK(legal(s, "move B1 B2"));  // the start square: never after two or more moves yet
    // Moving up changes the turn's state: the squares before it may be passed through again.
    State up = position("00000/00000/00000/00000/01000 A:B2,D4 B:A5,E5 A powers=Triton,-");
    play(up, {"move B2 A2", "move A2 A1", "move A1 B1"});  // B1 is one level up
    CHECK(legal(up, "move B1 A1"));
    play(up, {"move B1 A1"});
    CHECK(legal(up, "move A1 A2"));
}
