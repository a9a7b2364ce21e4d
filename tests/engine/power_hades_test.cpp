// Hades, God of the Underworld. Opponent's Turn: opponent Workers cannot move down. Ruling W9
// (docs/rulings.md): moves only (forced workers may go down), by the worker's owner (C11).

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Hades: opponents cannot move down, level and up are fine", "[hades]") {
    // B's worker on C3 (level 2): B2 level 2, C4 level 3, D3 level 1, C2 ground.
    State s = position("00000/00300/02210/00000/00000 A:A1,E1 B:C3,E5 B powers=Hades,-");
    CHECK(legal(s, "move C3 B3"));   // level
    CHECK(legal(s, "move C3 C4"));   // up (and a win)
    CHECK_FALSE(legal(s, "move C3 D3"));
    CHECK_FALSE(legal(s, "move C3 C2"));
}

TEST_CASE("Hades' own workers may move down", "[hades]") {
    State s = position("00000/00000/00200/00000/00000 A:C3,E1 B:A5,E5 A powers=Hades,-");
    CHECK(legal(s, "move C3 C2"));
    play(s, {"move C3 C2", "build C2 C1"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Hades: an opponent whose only moves go down loses", "[hades]") {
    // B's workers stand on level 1 surrounded by ground and domes: every move goes down.
    State s = position("00000/00000/00000/00000/10D000 A:E5,E4 B:A1,C1 A powers=Hades,-");
    play(s, {"move E5 D5", "build D5 C5"});
    // B: A1 (level 1) has A2, B2 (ground) and B1 (dome): all down; C1 (ground) moves freely.
    CHECK(decider(s) == 1);
    CHECK_FALSE(legal(s, "move A1 A2"));
    CHECK(legal(s, "move C1 C2"));
    // Both of B's workers (A1, E1 on level 1) can only step down to A2, C1, C2, E2.
    State stuck = position("00000/00000/00000/00D00D0/10D00D1 A:C5,C4 B:A1,E1 A powers=Hades,-");
    play(stuck, {"move C5 B5", "build B5 A5"});
    CHECK(stuck.over());
    CHECK(winners(stuck) == 1u);
}

TEST_CASE("Hades: forced drops are allowed (Minotaur pushes him down)", "[hades][minotaur]") {
    // Minotaur on C2 (level 1) pushes Hades' worker on C3 (level 1) down to C4 (ground): the
    // pushed worker does not move, it is forced.
    State s = position("00000/00000/00100/00100/00000 A:C3,E1 B:C2,A5 B powers=Hades,Minotaur");
    CHECK(legal(s, "move C2 C3"));
    play(s, {"move C2 C3", "build C3 D3"});
    CHECK(to_notation(s) == "00000/00000/00110/00100/00000 A:C4,E1 B:C3,A5 A powers=Hades,Minotaur");
    // The Minotaur's own move down is refused.
    CHECK_FALSE(legal(position("00000/00000/00000/00100/00000 A:A1,E1 B:C2,A5 B powers=Hades,Minotaur"), "move C2 C3"));
}

TEST_CASE("Hades and Artemis: her second move may not go down either", "[hades][artemis]") {
    State s = position("00000/00000/01100/00000/00000 A:A1,E1 B:B3,E5 B powers=Hades,Artemis");
    play(s, {"move B3 C3"});
    CHECK_FALSE(legal(s, "move C3 D3"));
    CHECK(legal(s, "build C3 D3"));
}

TEST_CASE("Hades in 4 players: his teammate may move down, the other team may not", "[hades]") {
    // Seats A1 (Hades), B1, A2, B2: side A's workers on level 1 at C3; side B's on B3.
    State a2 = position("00000/00000/01100/00000/00000 A:C3,E1 B:B3,E5 C players=4 powers=Hades,-,-,-");
    CHECK(legal(a2, "move C3 C2"));
    State b2 = position("00000/00000/01100/00000/00000 A:C3,E1 B:B3,E5 D players=4 powers=Hades,-,-,-");
    CHECK_FALSE(legal(b2, "move B3 B2"));
    CHECK(legal(b2, "move E5 E4"));
}

TEST_CASE("Hades cannot be drafted against Pan, but may meet Apollo", "[hades]") {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Hades, PowerId::Pan};
    CHECK(validate(st).has_value());
    st.powers = {PowerId::Hades, PowerId::Apollo};
    CHECK_FALSE(validate(st).has_value());
}
