// Hestia, Goddess of Hearth and Home. Your Build: your worker may build one additional time,
// but this cannot be on a perimeter space. Ruling A2 (docs/rulings.md): optional; the same
// worker builds, on any neighbouring space that is not perimeter, the same space included.

#include "scenario.hpp"

using namespace santorini;

TEST_CASE(
    "Hestia may build again on a neighbouring space that is not perimeter, the same one included",
    "[hestia]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E3 A powers=Hestia,-");
    play(s, {"move A1 B2", "build B2 C3"});
    // B2's neighbours: A1 A2 A3 B1 C1 are perimeter; B3 C2 C3 are inside.
    CHECK(sorted(legal_texts(s)) == sorted({"build B2 B3", "build B2 C2", "build B2 C3", "pass"}));
    play(s, {"build B2 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00200/00000/00000 A:B2,E5 B:C5,E3 B powers=Hestia,-");
}

TEST_CASE("Hestia's second build is optional", "[hestia]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E3 A powers=Hestia,-");
    play(s, {"move A1 B2", "build B2 A1", "pass"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/00000/10000 A:B2,E5 B:C5,E3 B powers=Hestia,-");
}

TEST_CASE("Hestia's second build may be a dome on the tower she just raised to level 3",
          "[hestia]") {
    State s = position("00000/00000/00200/00000/00000 A:A1,E5 B:C5,E3 A powers=Hestia,-");
    play(s, {"move A1 B2", "build B2 C3"});
    CHECK_FALSE(legal(s, "build B2 C3"));
    play(s, {"dome B2 C3"});
    CHECK(to_notation(s) == "00000/00000/003D00/00000/00000 A:B2,E5 B:C5,E3 B powers=Hestia,-");
}

TEST_CASE("Hestia on a perimeter square builds her second time only inside", "[hestia]") {
    State s = position("00000/00000/00000/00000/00000 A:B1,E5 B:C5,E3 A powers=Hestia,-");
    play(s, {"move B1 A1", "build A1 B1"});
    // A1's neighbours: A2 and B1 are perimeter, B2 is inside.
    CHECK(sorted(legal_texts(s)) == sorted({"build A1 B2", "pass"}));
}

TEST_CASE("Hestia with no inside space to build on has no second build: the turn ends",
          "[hestia]") {
    // The only inside neighbour of A1, B2, holds a dome.
    State s = position("00000/00000/00000/00D000/00000 A:B1,E5 B:C5,E3 A powers=Hestia,-");
    play(s, {"move B1 A1", "build A1 A2"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/10D000/00000 A:A1,E5 B:C5,E3 B powers=Hestia,-");
}

TEST_CASE("Hestia's opponent builds once", "[hestia]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E3 B powers=Hestia,-");
    play(s, {"move E3 D3", "build D3 C3"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Hestia in 4 players: her own turn builds twice, her teammate's once", "[hestia][4p]") {
    const char* board = "00000/00000/00000/00000/00000 A:A1,E5 B:C5,E3";
    State own = position((std::string(board) + " A players=4 powers=Hestia,-,-,-").c_str());
    play(own, {"move A1 B2", "build B2 C3"});
    CHECK(legal(own, "build B2 C2"));
    play(own, {"build B2 C2"});
    CHECK(decider(own) == 1);

    State mate = position((std::string(board) + " C players=4 powers=Hestia,-,-,-").c_str());
    play(mate, {"move A1 B2", "build B2 C3"});
    CHECK(decider(mate) == 3);
}
