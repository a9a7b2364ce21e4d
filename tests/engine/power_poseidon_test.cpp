// Poseidon, God of the Sea. End of Your Turn: if your unmoved worker is on the ground level,
// it may build up to three times.
// Rulings (RULES.md; docs/rulings.md B4): each build optional, a normal build of the unmoved
// worker (block, or dome on height 3), same or other spaces; the worker must be on the ground.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Poseidon's unmoved worker on the ground builds up to three times at the end of his turn",
          "[poseidon]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Poseidon,-");
    play(s, {"move D4 D3", "build D3 D4"});
    CHECK(decider(s) == 0);
    CHECK(legal_starting(s, "build D3").empty());  // the moved worker does not build again
    CHECK(legal_starting(s, "build B2") ==
          sorted({"build B2 A1", "build B2 A2", "build B2 A3", "build B2 B1", "build B2 B3",
                  "build B2 C1", "build B2 C2", "build B2 C3"}));
    CHECK(legal(s, "pass"));
    play(s, {"build B2 A1", "build B2 A1", "build B2 C1"});
    CHECK(decider(s) == 1);  // three builds end the turn
    CHECK(to_notation(s) == "00000/00010/00000/00000/20100 A:B2,D3 B:A5,E5 B powers=Poseidon,-");
}

TEST_CASE("Poseidon's builds are optional: he may stop after any of them", "[poseidon]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Poseidon,-");
    play(s, {"move D4 D3", "build D3 D4", "build B2 A1", "pass"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00010/00000/00000/10000 A:B2,D3 B:A5,E5 B powers=Poseidon,-");
    State none = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=Poseidon,-");
    play(none, {"move D4 D3", "build D3 D4", "pass"});
    CHECK(decider(none) == 1);
}

TEST_CASE("Poseidon's unmoved worker off the ground does not build", "[poseidon]") {
    State s = position("00000/00000/00000/01000/00000 A:B2,D4 B:A5,E5 A powers=Poseidon,-");
    play(s, {"move D4 D3", "build D3 D4"});
    CHECK(decider(s) == 1);
    // The moved worker on the ground does not make up for it.
    State t = position("00000/00000/00000/01000/00000 A:B2,D4 B:A5,E5 A powers=Poseidon,-");
    play(t, {"move B2 B3", "build B3 B4"});
    CHECK(decider(t) == 0);  // now D4 is the unmoved worker, on the ground
    CHECK(legal(t, "build D4 E4"));
}

TEST_CASE("Poseidon's builds follow the normal build: a dome on height 3", "[poseidon]") {
    State s = position("00000/00000/00000/00000/20000 A:B2,D4 B:A5,E5 A powers=Poseidon,-");
    play(s, {"move D4 D3", "build D3 D4", "build B2 A1"});
    CHECK_FALSE(legal(s, "build B2 A1"));
    CHECK(legal(s, "dome B2 A1"));
    play(s, {"dome B2 A1"});
    CHECK(to_notation(s).starts_with("00000/00010/00000/00000/3D0000"));
}

TEST_CASE("Poseidon's opponent has no end-of-turn builds", "[poseidon]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 A powers=-,Poseidon");
    play(s, {"move D4 D3", "build D3 D4"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Limus binds Poseidon's end-of-turn builds", "[poseidon][limus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:C3,E5 A powers=Poseidon,Limus");
    play(s, {"move D4 E3", "build E3 E2"});
    CHECK(legal_starting(s, "build B2") ==
          sorted({"build B2 A1", "build B2 A2", "build B2 A3", "build B2 B1", "build B2 C1"}));
}

TEST_CASE("Poseidon in 4 players: only his own turns have the extra builds", "[poseidon][4p]") {
    State s =
        position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E5 C players=4 powers=Poseidon,-,-,-");
    play(s, {"move D4 D3", "build D3 D4"});
    CHECK(s.turn.seat == 3);
    play(s, {"move A5 A4", "build A4 A5"});
    CHECK(s.turn.seat == 0);
    play(s, {"move D3 E3", "build E3 E2"});
    CHECK(s.turn.seat == 0);
    CHECK(legal(s, "build B2 B1"));
}
