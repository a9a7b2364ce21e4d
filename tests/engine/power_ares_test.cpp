// Ares, God of War. End of Your Turn: you may remove an unoccupied block (not dome)
// neighbouring your unmoved worker; you also remove any tokens on the block.
// Ruling A3 (docs/rulings.md): one block, once, optional; only around a worker that did not
// move this turn; a dome, a worker or a ground-level space is never removed from.

#include "scenario.hpp"

using namespace santorini;

namespace {
// Ares' unmoved worker on B2. Around it: A1 (1), C1 (3), C3 (2), B3 (1 with a dome), A3 (1 with
// B's worker), B1 A2 C2 on the ground.
const char* around_b2 = "00000/00000/11D200/00000/10300 A:B2,E5 B:A3,D1 A powers=Ares,-";
}  // namespace

TEST_CASE("Ares may remove one unoccupied block next to his unmoved worker at the end of his turn",
          "[ares]") {
    State s = position(around_b2);
    play(s, {"move E5 E4", "build E4 E5"});
    CHECK(sorted(legal_texts(s)) ==
          sorted({"remove B2 A1", "remove B2 C1", "remove B2 C3", "pass"}));
    play(s, {"remove B2 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00001/00000/11D100/00000/10300 A:B2,E4 B:A3,D1 B powers=Ares,-");
}

TEST_CASE("Ares' removal is optional", "[ares]") {
    State s = position(around_b2);
    play(s, {"move E5 E4", "build E4 E5", "pass"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00001/00000/11D200/00000/10300 A:B2,E4 B:A3,D1 B powers=Ares,-");
}

TEST_CASE("Ares removes only around the unmoved worker, not around the one that moved", "[ares]") {
    State s = position(around_b2);
    play(s, {"move B2 C2", "build C2 D2"});
    // Now E5 is the unmoved worker, with no block around it; D2 (1) is next to the moved worker.
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/11D200/00010/10300 A:C2,E5 B:A3,D1 B powers=Ares,-");
}

TEST_CASE("Ares may remove the block he just built, one block only, from a tower too", "[ares]") {
    State s = position("00000/00000/00000/03000/00000 A:B2,D3 B:A5,E1 A powers=Ares,-");
    play(s, {"move D3 D2", "build D2 C2"});
    CHECK(legal(s, "remove B2 C2"));
    CHECK(legal(s, "remove B2 B3") == false);  // ground level: nothing to remove
    play(s, {"remove B2 C2"});
    CHECK(to_notation(s) == "00000/00000/00000/03000/00000 A:B2,D2 B:A5,E1 B powers=Ares,-");

    State tower = position("00000/00000/00000/03000/00000 A:A1,D3 B:A5,E1 A powers=Ares,-");
    play(tower, {"move D3 D4", "build D4 D5", "remove A1 B2"});
    CHECK(to_notation(tower) == "00010/00000/00000/02000/00000 A:A1,D4 B:A5,E1 B powers=Ares,-");
}

TEST_CASE("Ares also removes the tokens on the block", "[ares]") {
    State s = position(around_b2);
    // A token of the opponent's power card on C3 and another on C1 (tokens are not in notation).
    s.card(1).tokens = bit(*parse_square("C3")) | bit(*parse_square("C1"));
    play(s, {"move E5 E4", "build E4 E5", "remove B2 C3"});
    CHECK(s.card(1).tokens == bit(*parse_square("C1")));
}

TEST_CASE("Ares' opponent removes nothing", "[ares]") {
    State s = position("00000/00000/00000/01000/00000 A:B1,E5 B:A1,D4 B powers=Ares,-");
    play(s, {"move D4 D3", "build D3 D2"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) == "00000/00000/00000/01010/00000 A:B1,E5 B:A1,D3 A powers=Ares,-");
}

TEST_CASE(
    "Ares in 4 players: on his own turn around his team's unmoved worker, not on his teammate's",
    "[ares][4p]") {
    const char* board = "00000/00000/00000/01000/00000 A:A1,E5 B:A5,E1";
    State own = position((std::string(board) + " A players=4 powers=Ares,-,-,-").c_str());
    play(own, {"move E5 E4", "build E4 E3"});
    CHECK(sorted(legal_texts(own)) == sorted({"remove A1 B2", "pass"}));

    State mate = position((std::string(board) + " C players=4 powers=Ares,-,-,-").c_str());
    play(mate, {"move E5 E4", "build E4 E3"});
    CHECK(decider(mate) == 3);
}

TEST_CASE("Ares in 3 players removes next to his unmoved worker", "[ares][3p]") {
    State s = position("00000/00000/00000/01000/00000 A:A1,E5 B:A5,E1 C:C5,C1 A powers=Ares,-,-");
    play(s, {"move E5 E4", "build E4 E3", "remove A1 B2"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) ==
          "00000/00000/00001/00000/00000 A:A1,E4 B:A5,E1 C:C5,C1 B powers=Ares,-,-");
}
