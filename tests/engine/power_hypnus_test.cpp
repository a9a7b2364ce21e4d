// Hypnus, God of Sleep. Start of Opponent's Turn: if one of your opponent's workers is higher
// than all of their others, it cannot move.
// Rulings (RULES.md; docs/rulings.md B3): strictly higher, so ties freeze nobody; a lone worker
// is not frozen; the frozen worker may still build; the freeze binds every move of the turn.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Hypnus: the opponent's highest worker cannot move", "[hypnus]") {
    State s = position("00000/00000/00100/00000/00000 A:E5,E4 B:C3,A1 B powers=Hypnus,-");
    CHECK(legal_starting(s, "move C3").empty());
    CHECK(legal_starting(s, "move A1") == sorted({"move A1 A2", "move A1 B1", "move A1 B2"}));
    State free = position("00000/00000/00100/00000/00000 A:E5,E4 B:C3,A1 B powers=-,Hypnus");
    CHECK_FALSE(legal_starting(free, "move C3").empty());
}

TEST_CASE("Hypnus: workers on the same height freeze nobody", "[hypnus]") {
    State s = position("00000/00000/00100/00000/10000 A:E5,E4 B:C3,A1 B powers=Hypnus,-");
    CHECK(legal(s, "move C3 C2"));
    CHECK(legal(s, "move A1 B1"));
}

TEST_CASE("Hypnus does not freeze his own workers", "[hypnus]") {
    State s = position("00000/00000/00100/00000/00000 A:C3,A1 B:E5,E4 A powers=Hypnus,-");
    CHECK(legal(s, "move C3 C2"));
}

TEST_CASE("Hypnus: the frozen worker may still build, but not travel with Hermes",
          "[hypnus][hermes]") {
    // Hermes' C3 and D3 are on level 1, his A1 on the ground: C3 is frozen.
    State s = position("00000/00000/00110/00000/00000 A:E5,E4 B:C3,A1 B powers=Hypnus,Hermes");
    CHECK(legal(s, "build C3 C2"));  // Hermes moving zero times
    CHECK_FALSE(legal(s, "move C3 D3"));
    play(s, {"move A1 B1"});
    CHECK_FALSE(legal(s, "move C3 D3"));
    CHECK(legal(s, "move B1 C1"));
    play(s, {"build C3 C2"});  // after travelling either worker builds, the frozen one too
    CHECK(decider(s) == 0);
}

TEST_CASE("Hypnus: an opponent whose only movable worker is frozen loses", "[hypnus]") {
    // B's A1 is walled in by domes; its C3 on level 1 is higher and frozen.
    const char* board = "00000/00000/00100/0D0D000/00D000 A:E5,E4 B:C3,A1 B";
    State s = position((std::string(board) + " powers=Hypnus,-").c_str());
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK_FALSE(position((std::string(board) + " powers=-,Hypnus").c_str()).over());
}

TEST_CASE("Hypnus does not freeze a lone worker", "[hypnus]") {
    State s = position("00000/00000/00100/00000/00000 A:E5,E4 B:C3 B powers=Hypnus,-");
    CHECK(legal(s, "move C3 C2"));
}

TEST_CASE("Hypnus binds the second move of Artemis and the moves of Triton",
          "[hypnus][artemis][triton]") {
    // Artemis' B2 on level 1 is frozen; her A1 moves twice.
    State a = position("00000/00000/00000/01000/00000 A:E5,E4 B:B2,A1 B powers=Hypnus,Artemis");
    play(a, {"move A1 B1"});
    CHECK(legal(a, "move B1 C1"));
    CHECK_FALSE(legal(a, "move B2 C2"));
    // Triton's A2 is frozen; his B1 moves along the perimeter.
    State t = position("00000/00000/00000/10000/00000 A:E5,E4 B:A2,B1 B powers=Hypnus,Triton");
    CHECK_FALSE(legal(t, "move A2 A3"));
    play(t, {"move B1 C1"});
    CHECK(legal(t, "move C1 D1"));
    CHECK_FALSE(legal(t, "move A2 A3"));
}

TEST_CASE("Hypnus in 3 players freezes each opponent's highest worker", "[hypnus][3p]") {
    State s = position("00000/00000/00100/00001/00000 A:A5,A4 B:C3,A1 C:E2,E5 B powers=Hypnus,-,-");
    CHECK(legal_starting(s, "move C3").empty());
    play(s, {"move A1 B1", "build B1 C1"});
    CHECK(s.turn.seat == 2);
    CHECK(legal_starting(s, "move E2").empty());
    CHECK(legal(s, "move E5 D5"));
}
