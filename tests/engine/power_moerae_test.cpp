// Moerae, Goddesses of Fate. Setup: three workers (2-3 players); after all workers are placed,
// secretly choose a 2x2 square of Fate spaces. Opponent's Turn: an opponent worker that would
// win by moving into one of her Fate spaces makes her win instead. Rulings H1-H3
// (docs/rulings.md). Notation: `data=` is her card's Fate bitboard (A1 = bit 0, B1 = bit 1,
// A2 = bit 5): 18c0 = B2, C2, B3, C3; 63 = A1, B1, A2, B2.

#include "scenario.hpp"

#include "engine/santorini/perft.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/view.hpp"

using namespace santorini;

namespace {

// A 2-player game with Fixed powers, placed and at Moerae's setup step.
State at_fate_choice(PowerId other) {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Moerae, other};
    st.start_player = 0;
    State s = *new_game(st);
    play(s, {"place A5", "place B5", "place C5", "place A1", "place B1"});
    return s;
}

}  // namespace

TEST_CASE("Moerae: an opponent moving up into a Fate space makes her win; elsewhere he wins",
          "[moerae]") {
    // B's worker on C2 (2) next to C3 (3, Fate) and D3 (3, not Fate).
    const char* fen = "00000/00000/00330/00200/00000 A:D5,E5,A5 B:C2,E1 B powers=Moerae,- data=18c0,0";
    State fate = position(fen);
    play(fate, {"move C2 C3"});
    REQUIRE(fate.over());
    CHECK(fate.winners == 0b01);

    State outside = position(fen);
    play(outside, {"move C2 D3"});
    REQUIRE(outside.over());
    CHECK(outside.winners == 0b10);
}

TEST_CASE("Moerae herself wins in her own Fate", "[moerae]") {
    State s = position("00000/00000/00330/00200/00000 A:C2,E5,A5 B:D5,E1 A powers=Moerae,- data=18c0,0");
    play(s, {"move C2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Moerae: an opponent moving into a Fate space without winning just moves", "[moerae]") {
    State s = position("00000/00000/00000/00000/00000 A:D5,E5,A5 B:C2,E1 B powers=Moerae,- data=18c0,0");
    play(s, {"move C2 C3", "build C3 C4"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 0);
}

TEST_CASE("Moerae: Pan's drop into a Fate space wins for her (ruling H1)", "[moerae][pan]") {
    const char* fen = "00000/00000/00000/02000/00000 A:D5,E5,A5 B:B2,E1 B powers=Moerae,Pan data=18c0,0";
    State s = position(fen);
    play(s, {"move B2 C3"});  // 2 -> 0 inside the Fate
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);

    State outside = position(fen);
    play(outside, {"move B2 A1"});
    REQUIRE(outside.over());
    CHECK(outside.winners == 0b10);
}

TEST_CASE("Moerae: Hera's Deny beats the Fate: nobody wins (ruling H2)", "[moerae][hera]") {
    // 3 players: Moerae (A), Hera (B), Apollo (C). C climbs onto A1 (3), a perimeter Fate space.
    const char* fen =
        "00000/00000/00000/02000/30000 A:D5,E5,A5 B:E3,E2 C:B2,C5 C powers=Moerae,Hera,Apollo data=63,0,0";
    State s = position(fen);
    play(s, {"move B2 A1"});
    CHECK_FALSE(s.over());
    play(s, {"build A1 B1"});
    CHECK(decider(s) == 0);

    // Without Hera the Fate decides.
    State no_hera = position(
        "00000/00000/00000/02000/30000 A:D5,E5,A5 B:E3,E2 C:B2,C5 C powers=Moerae,Atlas,Apollo data=63,0,0");
    play(no_hera, {"move B2 A1"});
    REQUIRE(no_hera.over());
    CHECK(no_hera.winners == 0b001);
}

TEST_CASE("Moerae in 3 players: the Fate decides against each opponent, her own side only wins",
          "[moerae]") {
    const char* fen =
        "00000/00000/00330/00200/00000 A:D5,E5,A5 B:E3,E2 C:C2,B5 C powers=Moerae,Pan,Apollo data=18c0,0,0";
    State s = position(fen);
    play(s, {"move C2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b001);
}

TEST_CASE("Moerae: the Fate is chosen by a setup step after placement, once, and kept secret",
          "[moerae][view]") {
    State s = at_fate_choice(PowerId::Apollo);
    REQUIRE(s.phase == Phase::Token);
    REQUIRE(decider(s) == 0);
    CHECK(legal_starting(s, "token").size() == 16);  // lower-left spaces A1..D4
    CHECK_FALSE(legal(s, "token E1 1"));
    CHECK_FALSE(legal(s, "token A5 1"));
    Step choice = *parse_step(s, "token B2 1");
    CHECK(step_text_for(s, choice, 0, 0) == "token B2 1");
    CHECK(step_text_for(s, choice, 0, 1) == "token");
    CHECK(step_text_for(s, choice, 0, spectator) == "token");
    play(s, {"token B2 1"});
    CHECK(s.phase == Phase::Begin);  // the first turn: nothing more to choose
    CHECK(powers::fate(s, 0) == 0x18c0);
    CHECK(powers::fate(view_for(s, 0), 0) == 0x18c0);
    CHECK(powers::fate(view_for(s, 1), 0) == 0);
    CHECK(powers::fate(view_for(s, spectator), 0) == 0);
    CHECK(powers::fate(revealed_view(s), 0) == 0x18c0);
    // The opponent's moves are shown in full: only Moerae's token was secret.
    Step m = *parse_step(s, "move A5 A4");
    CHECK(step_text_for(s, m, 0, 1) == "move A5 A4");
}

TEST_CASE("Moerae: the opponent's legal steps are the same with and without the Fate", "[moerae]") {
    State with = position("00000/00000/00330/00200/00000 A:D5,E5,A5 B:C2,E1 B powers=Moerae,- data=18c0,0");
    State without = position("00000/00000/00330/00200/00000 A:D5,E5,A5 B:C2,E1 B powers=Moerae,-");
    CHECK(legal_texts(with) == legal_texts(without));
    CHECK(perft(with, 2) == perft_by_steps(with, 2));
}

TEST_CASE("Moerae against Odysseus: his force into her Fate is no win; his own climb into it is",
          "[moerae][odysseus][hero]") {
    // Ruling H1 and HB9: the Fate (D4-E5, data 18c0000) catches wins by a move; a worker forced
    // to a corner on level 3 does not move, so nobody wins. Odysseus' own move up onto level 3
    // in her Fate is a win, which she takes.
    State forced = position(
        "00003/00000/00000/00000/00000 A:C4,A1 B:D4,A3,C1 A powers=Odysseus,Moerae data=0,18c0000");
    play(forced, {"force D4 E5"});
    CHECK_FALSE(forced.over());
    CHECK(forced.worker_at(*parse_square("E5")) >= 0);
    State climb = position(
        "00003/00020/00000/00000/00000 A:D4,A1 B:B4,A3,C1 A powers=Odysseus,Moerae data=0,18c0000");
    play(climb, {"move D4 E5"});
    REQUIRE(climb.over());
    CHECK(climb.winners == 0b10);
}
