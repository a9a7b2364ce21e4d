// Minotaur, Bull-headed Monster. Your Move: your worker may move into an opponent worker's
// space, if their worker can be forced one space straight backwards to an unoccupied space at
// any level. Ruling (RULES.md): straight on, away from the Minotaur, on the board, never onto a
// dome or a worker; the Minotaur's own move follows the normal rules (up at most one); the
// pushed worker is forced, so it does not win.

#include "scenario.hpp"

using namespace santorini;

namespace {
Square sq(const char* name) { return *parse_square(name); }
int side_on(const State& s, const char* name) {
    int w = s.worker_at(sq(name));
    return w < 0 ? -1 : s.worker(w).side;
}
}  // namespace

TEST_CASE("Minotaur pushes an opponent worker one space straight on", "[minotaur]") {
    // Diagonally: B2 -> C3 pushes C3 to D4.
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:C3,A5 A powers=Minotaur,-");
    play(s, {"move B2 C3"});
    CHECK(side_on(s, "C3") == 0);
    CHECK(side_on(s, "D4") == 1);
    play(s, {"build C3 B2"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/01000/00000 A:C3,E5 B:D4,A5 B powers=Minotaur,-");

    // Orthogonally: C2 -> C3 pushes C3 to C4.
    State t = position("00000/00000/00000/00000/00000 A:C2,E5 B:C3,A5 A powers=Minotaur,-");
    play(t, {"move C2 C3"});
    CHECK(side_on(t, "C3") == 0);
    CHECK(side_on(t, "C4") == 1);
}

TEST_CASE("Minotaur pushes onto any level; the forced worker does not win", "[minotaur]") {
    // The Minotaur climbs B2 (1) -> C3 (2); the opponent on C3 (2) is forced onto D4 (3).
    State s = position("00000/00030/00200/01000/00000 A:B2,E1 B:C3,A5 A powers=Minotaur,-");
    play(s, {"move B2 C3"});
    CHECK_FALSE(s.over());
    CHECK(side_on(s, "D4") == 1);
    play(s, {"build C3 C2"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00030/00200/01100/00000 A:C3,E1 B:D4,A5 B powers=Minotaur,-");
}

TEST_CASE("Minotaur cannot push a worker off the board", "[minotaur]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,B3 B:A1,A4 A powers=Minotaur,-");
    CHECK_FALSE(legal(s, "move B2 A1"));  // beyond A1 to the south-west: off the board
    CHECK_FALSE(legal(s, "move B3 A4"));  // beyond A4 to the north-west: off the board
    // Along the edge the space beyond is on the board.
    State t = position("00000/00000/00000/00000/00000 A:C1,E5 B:B1,A5 A powers=Minotaur,-");
    CHECK(legal(t, "move C1 B1"));
    play(t, {"move C1 B1"});
    CHECK(side_on(t, "A1") == 1);
}

TEST_CASE("Minotaur cannot push onto a dome or a worker", "[minotaur]") {
    // A dome beyond (D4, a complete tower).
    State dome = position("00000/0003D0/00000/00000/00000 A:B2,E1 B:C3,A5 A powers=Minotaur,-");
    CHECK_FALSE(legal(dome, "move B2 C3"));
    // An opponent worker beyond.
    State opp = position("00000/00000/00000/00000/00000 A:B2,D2 B:C3,D4 A powers=Minotaur,-");
    CHECK_FALSE(legal(opp, "move B2 C3"));
    CHECK(legal(opp, "move D2 C3"));  // beyond is B4: free
    // The Minotaur's own worker beyond, either way.
    State own = position("00000/00000/00000/00000/00000 A:B2,D2 B:C2,A5 A powers=Minotaur,-");
    CHECK_FALSE(legal(own, "move B2 C2"));
    CHECK_FALSE(legal(own, "move D2 C2"));
}

TEST_CASE("Minotaur's own move goes up at most one level", "[minotaur]") {
    State high = position("00000/00000/00200/00000/00000 A:B2,E1 B:C3,A5 A powers=Minotaur,-");
    CHECK_FALSE(legal(high, "move B2 C3"));
    State one = position("00000/00000/00100/00000/00000 A:B2,E1 B:C3,A5 A powers=Minotaur,-");
    play(one, {"move B2 C3", "build C3 B2"});
    CHECK(to_notation(one) == "00000/00000/00100/01000/00000 A:C3,E1 B:D4,A5 B powers=Minotaur,-");
    // Down any number of levels is fine.
    State down = position("00000/00000/00000/03000/00000 A:B2,E1 B:C3,A5 A powers=Minotaur,-");
    CHECK(legal(down, "move B2 C3"));
}

TEST_CASE("Minotaur does not push his own workers; his opponent does not push at all", "[minotaur]") {
    State own = position("00000/00000/00000/00000/00000 A:B2,C3 B:A5,E1 A powers=Minotaur,-");
    CHECK_FALSE(legal(own, "move B2 C3"));
    State opp = position("00000/00000/00000/00000/00000 A:C3,E1 B:B2,A5 B powers=Minotaur,-");
    CHECK_FALSE(legal(opp, "move B2 C3"));
}

TEST_CASE("Minotaur wins by pushing his way up to level 3", "[minotaur]") {
    State s = position("00000/00000/00300/02000/00000 A:B2,E1 B:C3,A5 A powers=Minotaur,-");
    play(s, {"move B2 C3"});
    CHECK(s.over());
    CHECK(s.winners == 0b01);
    CHECK(side_on(s, "D4") == 1);
}

TEST_CASE("Minotaur loses when he has no legal turn", "[minotaur]") {
    // A1 and E5 are walled in by domes; no opponent worker to push.
    State s = position("0000D0/0000D0D/00000/0D0D000/00D000 A:A1,E5 B:C3,E1 A powers=Minotaur,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
