// Zeus, God of the Sky. Your Build: your worker may build a block under itself.
// Rulings (RULES.md): a block, not a dome, not from height 3; reaching height 3 this way is
// not a win. Expected lists are worked out by hand from the rules.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Zeus' worker may build a block under itself", "[zeus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Zeus,-");
    play(s, {"move B2 C3"});
    CHECK(legal(s, "build C3 C3"));
    CHECK_FALSE(legal(s, "dome C3 C3"));
    CHECK_FALSE(legal(s, "build D4 D4"));  // only the worker that moved builds
    play(s, {"build C3 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:C3,D4 B:A5,E1 B powers=Zeus,-");
}

TEST_CASE("Zeus' opponent cannot build under itself", "[zeus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=-,Zeus");
    play(s, {"move B2 C3"});
    CHECK_FALSE(legal(s, "build C3 C3"));
}

TEST_CASE("Zeus rising to height 3 under himself does not win", "[zeus]") {
    State s = position("00000/00000/00200/01000/00000 A:B2,D4 B:A5,E1 A powers=Zeus,-");
    play(s, {"move B2 C3", "build C3 C3"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00300/01000/00000 A:C3,D4 B:A5,E1 B powers=Zeus,-");
}

TEST_CASE("Zeus cannot build under himself on height 3, and moving across level 3 does not win",
          "[zeus]") {
    State s = position("00000/00000/00330/00000/00000 A:C3,A1 B:A5,E1 A powers=Zeus,-");
    play(s, {"move C3 D3"});
    CHECK_FALSE(s.over());
    CHECK_FALSE(legal(s, "build D3 D3"));
    CHECK_FALSE(legal(s, "dome D3 D3"));
    CHECK(legal(s, "build D3 E3"));
}

TEST_CASE("Zeus raised by his own build wins by then moving up to level 3", "[zeus]") {
    State s = position("00000/00000/00130/00000/00000 A:B2,A1 B:A5,E1 A powers=Zeus,-");
    play(s, {"move B2 C3", "build C3 C3", "move A5 A4", "build A4 A5", "move C3 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Limus forbids Zeus' block under himself next to a Limus worker", "[zeus][limus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,A1 B:D3,E5 A powers=Zeus,Limus");
    play(s, {"move B2 C3"});
    CHECK_FALSE(legal(s, "build C3 C3"));  // C3 neighbours D3
    CHECK(legal(s, "build C3 B2"));
    State far = position("00000/00000/00000/00000/00000 A:B2,A1 B:E3,E5 A powers=Zeus,Limus");
    play(far, {"move B2 B3"});
    CHECK(legal(far, "build B3 B3"));
}

TEST_CASE("Zeus in 4 players: his teammate cannot build under itself", "[zeus][4p]") {
    State s =
        position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 C players=4 powers=Zeus,-,-,-");
    play(s, {"move B2 C3"});
    CHECK_FALSE(legal(s, "build C3 C3"));
    play(s, {"build C3 C2", "move A5 A4", "build A4 A5"});
    CHECK(s.turn.seat == 0);
    play(s, {"move C3 B3"});
    CHECK(legal(s, "build B3 B3"));
}
