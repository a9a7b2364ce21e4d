// Hermes, God of Travel. Your Turn: if your workers do not move up or down, they may each move
// any number of times (even zero), and then either builds.
// Ruling (RULES.md): either a normal turn, or travel of both workers on their own levels, then
// either worker builds; a move that changes level makes it a normal turn (that worker builds);
// the turn never repeats a whole state (the same placement after the same moves so far).

#include <algorithm>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Hermes may build without moving (moving zero times), with either worker", "[hermes]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Hermes,-");
    CHECK(legal(s, "build B2 C3"));
    CHECK(legal(s, "build D4 D5"));
    play(s, {"build D4 D5"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00010/00000/00000/00000/00000 A:B2,D4 B:A5,E1 B powers=Hermes,-");
}

TEST_CASE("Hermes' workers travel on their own levels any number of times, then either builds", "[hermes]") {
    // The A1 worker travels on the ground, the E5 worker on the level-1 plateau D4-E5.
    State s = position("00011/00011/00000/00000/00000 A:A1,E5 B:A5,A3 A powers=Hermes,-");
    play(s, {"move A1 B1", "move B1 C1", "move E5 D4"});
    CHECK_FALSE(legal(s, "move D4 C4"));  // down to the ground: not travel
    CHECK_FALSE(legal(s, "move D4 C3"));
    play(s, {"move D4 E4"});
    CHECK(legal(s, "build E4 E5"));
    CHECK(legal(s, "build C1 C2"));  // the worker that moved first may build too
    play(s, {"build C1 C2"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00011/00011/00000/00100/00000 A:C1,E4 B:A5,A3 B powers=Hermes,-");
}

TEST_CASE("Hermes moving up makes it a normal turn: that worker builds", "[hermes]") {
    State s = position("00000/00000/00100/00000/00000 A:B2,D4 B:A5,E1 A powers=Hermes,-");
    play(s, {"move B2 C3"});
    auto texts = legal_texts(s);
    // C3's unoccupied neighbours: B2 B3 B4 C2 C4 D2 D3 (D4 holds the other worker).
    CHECK(texts.size() == 7);
    for (const auto& t : texts) CHECK(t.starts_with("build C3 "));
    play(s, {"build C3 C4"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00100/00100/00000/00000 A:C3,D4 B:A5,E1 B powers=Hermes,-");
}

TEST_CASE("Hermes moving down makes it a normal turn: no more moves, no other builder", "[hermes]") {
    State s = position("00000/00000/00000/01000/00000 A:B2,D4 B:A5,E1 A powers=Hermes,-");
    play(s, {"move B2 C2"});
    CHECK_FALSE(legal(s, "move C2 C3"));
    CHECK_FALSE(legal(s, "move D4 D5"));
    CHECK_FALSE(legal(s, "build D4 D5"));
    CHECK(legal(s, "build C2 B2"));
}

TEST_CASE("After travelling Hermes may not move up or down", "[hermes]") {
    // B2 stands on the ground; C3 and D4 (with the other worker) are on level 1.
    State s = position("00000/00010/00100/00000/00000 A:B2,D4 B:A5,E1 A powers=Hermes,-");
    CHECK(legal(s, "move D4 D5"));  // as the first move: a normal turn
    play(s, {"move B2 B3"});
    CHECK_FALSE(legal(s, "move B3 C3"));  // up
    CHECK_FALSE(legal(s, "move D4 D5"));  // down
    CHECK(legal(s, "move D4 C3"));        // level 1 to level 1
    CHECK(legal(s, "move B3 B4"));
    CHECK(legal(s, "build D4 C3"));
}

TEST_CASE("Hermes' turn never repeats a whole turn state: the same placement after the same moves",
          "[hermes]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:A5,E1 A powers=Hermes,-");
    play(s, {"move A1 B1"});
    CHECK(legal(s, "move B1 A1"));  // the start placement, but after moving: a new state
    play(s, {"move B1 A1", "move A1 B1"});
    CHECK_FALSE(legal(s, "move B1 A1"));  // (A1, E5) after two or more moves of A1's worker
    play(s, {"move E5 D5"});              // both workers have moved: a new state of the turn
    CHECK(legal(s, "move D5 E5"));
    play(s, {"move D5 E5", "move B1 A1"});
    CHECK_FALSE(legal(s, "move A1 B1"));  // (B1, E5) after both moved: passed through
    CHECK(legal(s, "move E5 D5"));        // (A1, D5) not yet
    play(s, {"build A1 B1"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/00000/01000 A:A1,E5 B:A5,E1 B powers=Hermes,-");
}

TEST_CASE("Hermes wins by moving up to level 3, not by travelling on level 3", "[hermes]") {
    State up = position("00000/00000/00300/02000/00000 A:B2,D4 B:A5,E1 A powers=Hermes,-");
    play(up, {"move B2 C3"});
    CHECK(up.over());
    CHECK(up.winners == 0b01);

    State across = position("00000/00000/00330/00000/00000 A:C3,A1 B:A5,E1 A powers=Hermes,-");
    play(across, {"move C3 D3"});
    CHECK_FALSE(across.over());
    play(across, {"build D3 D4"});
    CHECK(decider(across) == 1);
}

TEST_CASE("Hermes unable to move still has a turn by building in place", "[hermes]") {
    // Every neighbour of A1 and E5 is two levels up: no move, but builds are possible.
    State s = position("00020/00022/00000/22000/02000 A:A1,E5 B:C3,B4 A powers=Hermes,-");
    CHECK_FALSE(s.over());
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"build A1 A2", "build A1 B1", "build A1 B2",
                                                              "build E5 D4", "build E5 D5", "build E5 E4"});
    // Without Hermes the same player has no legal turn and loses.
    State plain = position("00020/00022/00000/22000/02000 A:A1,E5 B:C3,B4 A powers=-,Hermes");
    CHECK(plain.over());
    CHECK(plain.winners == 0b10);
}

TEST_CASE("Hermes loses when he can neither move nor build", "[hermes]") {
    State s = position("0000D0/0000D0D/00000/0D0D000/00D000 A:A1,E5 B:C3,E1 A powers=Hermes,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
