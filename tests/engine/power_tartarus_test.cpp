// Tartarus, God of the Abyss. Setup: place your workers first; after all workers are placed,
// secretly place the Abyss on an unoccupied space. A worker entering the Abyss makes its owner
// lose; no worker wins by entering it. Rulings H4-H6 (docs/rulings.md). Notation: `data=` is
// his card's Abyss square + 1 in hexadecimal (C3 = square 12: d; B3 = 11: c).

#include "scenario.hpp"

#include "engine/santorini/perft.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/view.hpp"

using namespace santorini;

TEST_CASE("Tartarus: an opponent moving into the Abyss loses at once", "[tartarus]") {
    State s = position("00000/00000/00000/00000/00000 A:D5,E5 B:B2,E1 B powers=Tartarus,- data=d,0");
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Tartarus: climbing onto level 3 in the Abyss does not win, it loses", "[tartarus]") {
    State s = position("00000/00000/00300/02000/00000 A:D5,E5 B:B2,E1 B powers=Tartarus,- data=d,0");
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Tartarus: his own worker entering the Abyss loses too", "[tartarus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D5,E1 A powers=Tartarus,- data=d,0");
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Tartarus: the opponent's legal steps do not betray the Abyss", "[tartarus][view]") {
    const char* fen = "00000/00000/00300/02000/00000 A:D5,E5 B:B2,E1 B powers=Tartarus,- data=d,0";
    State s = position(fen);
    State without = position("00000/00000/00300/02000/00000 A:D5,E5 B:B2,E1 B powers=Tartarus,-");
    CHECK(legal_texts(s) == legal_texts(without));
    CHECK(legal(s, "move B2 C3"));
    CHECK(powers::abyss(view_for(s, 1), 0) == no_square);
    CHECK(powers::abyss(view_for(s, spectator), 0) == no_square);
    CHECK(powers::abyss(view_for(s, 0), 0) == 12);
    CHECK(powers::abyss(revealed_view(s), 0) == 12);
    // perft is omniscient (docs/engine.md 8): both ways of counting agree.
    CHECK(perft(s, 2) == perft_by_steps(s, 2));
}

TEST_CASE("Tartarus: forced into the Abyss is entering it (ruling H4)", "[tartarus][minotaur][charon]") {
    // Minotaur (B) on B1 pushes Tartarus' worker from B2 into the Abyss on B3.
    State pushed = position("00000/00000/00000/00000/00000 A:B2,E5 B:B1,E1 B powers=Tartarus,Minotaur data=c,0");
    play(pushed, {"move B1 B2"});
    REQUIRE(pushed.over());
    CHECK(pushed.winners == 0b10);

    // Charon (B) on C3 ferries Tartarus' worker from D3 across onto the Abyss on B3.
    State ferried = position("00000/00000/00000/00000/00000 A:D3,E5 B:C3,E1 B powers=Tartarus,Charon data=c,0");
    play(ferried, {"force D3 B3"});
    REQUIRE(ferried.over());
    CHECK(ferried.winners == 0b10);
}

TEST_CASE("Tartarus: Pan's drop into the Abyss loses; elsewhere it wins (ruling H5)", "[tartarus][pan]") {
    const char* fen = "00000/00000/00000/02000/00000 A:D5,E5 B:B2,E1 B powers=Tartarus,Pan data=d,0";
    State s = position(fen);
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);

    State elsewhere = position(fen);
    play(elsewhere, {"move B2 A1"});
    REQUIRE(elsewhere.over());
    CHECK(elsewhere.winners == 0b10);
}

TEST_CASE("Tartarus places first, then the Abyss after all placements, secretly", "[tartarus][view]") {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Apollo, PowerId::Tartarus};
    st.start_player = 0;
    State s = *new_game(st);
    REQUIRE(decider(s) == 1);  // Tartarus places first although Apollo starts
    play(s, {"place A1", "place B1", "place C1", "place D1"});
    REQUIRE(s.phase == Phase::Token);
    REQUIRE(decider(s) == 1);
    CHECK(legal_starting(s, "token").size() == 21);  // every unoccupied space
    CHECK_FALSE(legal(s, "token A1 1"));
    Step abyss = *parse_step(s, "token C3 1");
    CHECK(step_text_for(s, abyss, 1, 1) == "token C3 1");
    CHECK(step_text_for(s, abyss, 1, 0) == "token");
    CHECK(step_text_for(s, abyss, 1, spectator) == "token");
    play(s, {"token C3 1"});
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 0);
    CHECK(powers::abyss(s, 1) == 12);
    CHECK(powers::abyss(view_for(s, 0), 1) == no_square);
    // Moving next to it tells nothing; entering it ends the game.
    play(s, {"move C1 C2", "build C2 D3"});
    play(s, {"move A1 A2", "build A2 A3"});
    play(s, {"move C2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Tartarus: a block built on the Abyss is entered like any space", "[tartarus]") {
    State s = position("00000/00000/00000/00000/00000 A:D5,E5 B:B2,E1 B powers=Tartarus,- data=d,0");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK_FALSE(s.over());
    play(s, {"move D5 D4", "build D4 D3"});
    play(s, {"move B3 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Tartarus: entering the Abyss needs no build after it: the loss is immediate (ruling H13)",
          "[tartarus][limus]") {
    // Limus' workers on C2 and C4 forbid Tartarus every build around C3, the Abyss: a move there
    // could be followed by no build, but it ends the game at once, as a winning move would.
    const char* fen = "00000/00000/00000/00000/00000 A:B2,A5 B:C2,C4 A powers=Tartarus,Limus data=d,0";
    State s = position(fen);
    CHECK(legal(s, "move B2 C3"));
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    // The same square without the Abyss is no move: no build could follow it.
    State plain = position("00000/00000/00000/00000/00000 A:B2,A5 B:C2,C4 A powers=Tartarus,Limus");
    CHECK_FALSE(legal(plain, "move B2 C3"));
    // Perft is omniscient: the entry is one turn more than with the Abyss out of reach (E1).
    const char* elsewhere = "00000/00000/00000/00000/00000 A:B2,A5 B:C2,C4 A powers=Tartarus,Limus data=5,0";
    CHECK(perft(position(fen), 1) == perft(position(elsewhere), 1) + 1);
}

TEST_CASE("Tartarus: a player whose only move leads into the Abyss has a turn, and loses by it (ruling H6)",
          "[tartarus]") {
    // B's worker on A1 can only go to B2 (A2 and B1 are domed), the Abyss; the one on E5 is
    // walled in. B does not lose at the turn's start: it moves into the Abyss and loses there.
    State s = position("0000D0/0000D0D/00000/0D0000/00D000 A:C3,C4 B:A1,E5 B powers=Tartarus,- data=7,0");
    CHECK_FALSE(s.over());
    CHECK(legal_texts(s) == std::vector<std::string>{"move A1 B2"});
    play(s, {"move A1 B2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}
