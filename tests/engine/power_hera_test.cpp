// Hera, Goddess of Marriage. Opponent's Turn: an opponent cannot win by moving into a perimeter
// space. Ruling A1 (docs/rulings.md): the move stays legal and does not win; this holds for
// every win by a move (Pan's drop too); Hera herself and her teammate are not bound.

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Hera: an opponent moving up onto a perimeter level 3 does not win, and the turn goes on",
          "[hera]") {
    // B's worker on B2 (2) next to A1 (3, perimeter) and C3 (3, inside).
    const char* fen = "00000/00000/00300/02000/30000 A:D5,E5 B:B2,E1 B powers=Hera,-";
    State s = position(fen);
    play(s, {"move B2 A1"});
    CHECK_FALSE(s.over());
    CHECK(legal_starting(s, "build") == sorted({"build A1 A2", "build A1 B1", "build A1 B2"}));
    play(s, {"build A1 B1"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) == "00000/00000/00300/02000/31000 A:D5,E5 B:A1,E1 A powers=Hera,-");

    State inside = position(fen);
    play(inside, {"move B2 C3"});
    REQUIRE(inside.over());
    CHECK(inside.winners == 0b10);
}

TEST_CASE("Hera: an opponent moving from the perimeter up into an inside level 3 wins", "[hera]") {
    State s = position("00000/00000/23000/00000/00000 A:D5,E5 B:A3,E1 B powers=Hera,-");
    play(s, {"move A3 B3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Hera herself wins on the perimeter", "[hera]") {
    State s = position("00000/00000/00000/02000/30000 A:B2,E5 B:D5,E1 A powers=Hera,-");
    play(s, {"move B2 A1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Hera denies Pan's drop onto the perimeter, not inside", "[hera][pan]") {
    // Pan's worker on B2 (2): A1 (0) is perimeter, C3 (0) is inside.
    const char* fen = "00000/00000/00000/02000/00000 A:D5,E5 B:B2,E1 B powers=Hera,Pan";
    State s = position(fen);
    play(s, {"move B2 A1"});
    CHECK_FALSE(s.over());
    play(s, {"build A1 A2"});
    CHECK(decider(s) == 0);

    State inside = position(fen);
    play(inside, {"move B2 C3"});
    REQUIRE(inside.over());
    CHECK(inside.winners == 0b10);
}

TEST_CASE("Hera against Artemis: the denied first move may be followed by a second",
          "[hera][artemis]") {
    // Artemis on B2 (2) climbs to A1 (3, perimeter): no win, and she may move on from there.
    State s = position("00000/00000/00000/02000/30000 A:D5,E5 B:B2,E1 B powers=Hera,Artemis");
    play(s, {"move B2 A1"});
    CHECK_FALSE(s.over());
    CHECK(legal(s, "move A1 A2"));
    CHECK(legal(s, "move A1 B1"));
    CHECK_FALSE(legal(s, "move A1 B2"));  // Artemis never returns to where she started
    play(s, {"move A1 A2", "dome A2 A1"});
    CHECK_FALSE(s.over());
    CHECK(to_notation(s) == "00000/00000/00000/02000/3D0000 A:D5,E5 B:A2,E1 A powers=Hera,Artemis");
}

TEST_CASE("Hera in 3 players binds both opponents", "[hera][3p]") {
    // Level 2 on B2 and D2, level 3 on A1 and E1 (both perimeter), C3 level 3 (inside).
    const char* board = "00000/00000/00300/02020/30003 A:A5,E5 B:B2,C5 C:D2,B4";
    State b = position((std::string(board) + " B powers=Hera,-,-").c_str());
    play(b, {"move B2 A1"});
    CHECK_FALSE(b.over());
    play(b, {"build A1 A2"});
    CHECK(decider(b) == 2);
    play(b, {"move D2 E1"});
    CHECK_FALSE(b.over());
    play(b, {"build E1 E2"});
    CHECK(decider(b) == 0);

    State c = position((std::string(board) + " C powers=Hera,-,-").c_str());
    play(c, {"move D2 C3"});
    REQUIRE(c.over());
    CHECK(c.winners == 0b100);
}

TEST_CASE("Hera in 4 players binds the other team, not her teammate", "[hera][4p]") {
    // Team A (seats A, C) has B2 (2); team B (seats B, D) has D2 (2); A1 and E1 are level 3.
    const char* board = "00000/00000/00000/02020/30003 A:B2,A5 B:D2,E5";
    State mate = position((std::string(board) + " C players=4 powers=Hera,-,-,-").c_str());
    play(mate, {"move B2 A1"});
    REQUIRE(mate.over());
    CHECK(mate.winners == 0b0101);

    State other = position((std::string(board) + " D players=4 powers=Hera,-,-,-").c_str());
    play(other, {"move D2 E1"});
    CHECK_FALSE(other.over());
    play(other, {"build E1 E2"});
    CHECK(decider(other) == 0);
}
