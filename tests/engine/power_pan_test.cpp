// Pan, God of the Wild. Win Condition: you also win if your worker moves down two or more
// levels. Ruling (RULES.md): in one move, and moved: a worker forced down does not win.

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Pan wins by moving down two levels", "[pan]") {
    State s = position("00000/00000/00200/00000/00000 A:C3,E1 B:A5,E5 A powers=Pan,-");
    play(s, {"move C3 C2"});
    CHECK(s.over());
    CHECK(s.winners == 0b01);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("Pan wins by moving down three levels, or from 3 to 1", "[pan]") {
    const char* fen = "00000/00000/00300/01000/00000 A:C3,E1 B:A5,E5 A powers=Pan,-";
    State three = position(fen);
    play(three, {"move C3 D2"});  // 3 -> 0
    CHECK(three.over());
    CHECK(three.winners == 0b01);
    State two = position(fen);
    play(two, {"move C3 B2"});  // 3 -> 1
    CHECK(two.over());
    CHECK(two.winners == 0b01);
}

TEST_CASE("Pan moving down one level does not win", "[pan]") {
    State s = position("00000/00000/00200/01000/00000 A:C3,E1 B:A5,E5 A powers=Pan,-");
    play(s, {"move C3 B2"});  // 2 -> 1
    CHECK_FALSE(s.over());
    play(s, {"build B2 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00300/01000/00000 A:B2,E1 B:A5,E5 B powers=Pan,-");
}

TEST_CASE("Pan also wins by moving up to level 3", "[pan]") {
    State s = position("00000/00000/00300/02000/00000 A:B2,E1 B:A5,E5 A powers=Pan,-");
    play(s, {"move B2 C3"});
    CHECK(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Pan's worker forced down two levels does not win", "[pan]") {
    // The Minotaur climbs B2 (1) -> C3 (2) and pushes Pan's worker from C3 (2) to D4 (0).
    State s = position("00000/00000/00200/01000/00000 A:C3,E1 B:B2,A5 B powers=Pan,Minotaur");
    play(s, {"move B2 C3"});
    CHECK_FALSE(s.over());
    play(s, {"build C3 B2"});
    CHECK_FALSE(s.over());
    CHECK(s.winners == 0);
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) == "00000/00000/00200/02000/00000 A:D4,E1 B:C3,A5 A powers=Pan,Minotaur");
}

TEST_CASE("Pan's opponent does not win by moving down two levels", "[pan]") {
    State s = position("00000/00000/00200/00000/00000 A:A1,E1 B:C3,A5 B powers=Pan,-");
    play(s, {"move C3 C2"});
    CHECK_FALSE(s.over());
    play(s, {"build C2 C3"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) == "00000/00000/00300/00000/00000 A:A1,E1 B:C2,A5 A powers=Pan,-");
}

TEST_CASE("Pan's teammate in a team game does not win by moving down two levels", "[pan]") {
    // 4 players: seat A holds Pan, seat C (same team, same workers) holds no power.
    State c = position("00000/00000/00200/00000/00000 A:C3,E1 B:A5,E5 C players=4 powers=Pan,-,-,-");
    play(c, {"move C3 C2"});
    CHECK_FALSE(c.over());
    State a = position("00000/00000/00200/00000/00000 A:C3,E1 B:A5,E5 A players=4 powers=Pan,-,-,-");
    play(a, {"move C3 C2"});
    CHECK(a.over());
    CHECK(a.winners == 0b0101);
}

TEST_CASE("Pan loses when he has no legal turn", "[pan]") {
    // Pan stands high, but every neighbour is domed: no move, so no drop either.
    State s = position("0000D0/0000D0D/00000/0D0D000/20D000 A:A1,E5 B:C3,E1 A powers=Pan,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
