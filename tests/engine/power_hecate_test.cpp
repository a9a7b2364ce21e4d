// Hecate, Goddess of Magic. Her workers are hidden from her opponents (and spectators); an
// opponent's action that her hidden workers make illegal is cancelled and the rest of that
// turn is lost; their power is used on their behalf where that makes the action legal.
// Rulings H7-H12 (docs/rulings.md). Positions in notation show the truth (her workers'
// squares); the legal steps of an opponent are made on its view.

#include "scenario.hpp"

#include "engine/santorini/perft.hpp"
#include "engine/santorini/view.hpp"

using namespace santorini;

namespace {

Square square_of(const State& s, int w) { return s.worker(w).square; }

Square sq(const char* name) { return *parse_square(name); }

}  // namespace

TEST_CASE("Hecate: her workers are off the board in her opponents' and spectators' views",
          "[hecate][view]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,-");
    for (int viewer : {1, spectator}) {
        State v = view_for(s, viewer);
        CHECK(v.worker(0).square == no_square);
        CHECK(v.worker(1).square == no_square);
        CHECK(v.worker(2).square == sq("B2"));
    }
    CHECK(view_for(s, 0).worker(0).square == sq("C3"));
    CHECK(revealed_view(s).worker(1).square == sq("E5"));
    // The opponent may try to move onto her hidden worker's space.
    CHECK(legal(s, "move B2 C3"));
}

TEST_CASE("Hecate: a move onto her hidden worker is cancelled and the rest of the turn is lost",
          "[hecate]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,-");
    play(s, {"move B2 C3"});
    CHECK(decider(s) == 0);
    CHECK(s.turn.seat == 0);
    CHECK(square_of(s, 2) == sq("B2"));
    CHECK(square_of(s, 0) == sq("C3"));
    CHECK(s.board.height(sq("C3")) == 0);
}

TEST_CASE("Hecate: a build onto her hidden worker is cancelled; the move before it stands",
          "[hecate]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,-");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK(s.turn.seat == 0);
    CHECK(square_of(s, 2) == sq("B3"));
    CHECK(s.board.height(sq("C3")) == 0);
    for (Square q = 0; q < square_count; ++q) CHECK(s.board.height(q) == 0);
}

TEST_CASE("Hecate: Apollo's move onto her hidden worker becomes his swap (ruling H8)",
          "[hecate][apollo]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,Apollo");
    play(s, {"move B2 C3"});
    CHECK(s.turn.seat == 1);
    CHECK(square_of(s, 2) == sq("C3"));
    CHECK(square_of(s, 0) == sq("B2"));
    // His view still does not show her: B2 looks free to build on.
    CHECK(view_for(s, 1).worker(0).square == no_square);
    play(s, {"build C3 D3"});
    CHECK(s.turn.seat == 0);
}

TEST_CASE("Hecate: Minotaur pushes her hidden worker if the space beyond is free, else the move is cancelled",
          "[hecate][minotaur]") {
    State pushed = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,Minotaur");
    play(pushed, {"move B2 C3"});
    CHECK(pushed.turn.seat == 1);
    CHECK(square_of(pushed, 0) == sq("D4"));
    CHECK(square_of(pushed, 2) == sq("C3"));

    // D4 is a dome: no push, no move.
    State blocked = position("00000/0000D0/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,Minotaur");
    play(blocked, {"move B2 C3"});
    CHECK(blocked.turn.seat == 0);
    CHECK(square_of(blocked, 0) == sq("C3"));
    CHECK(square_of(blocked, 2) == sq("B2"));
}

TEST_CASE("Hecate: an opponent blocked only by her hidden workers does not lose; his move is cancelled (ruling H9)",
          "[hecate]") {
    // B on A1 and E5: B2, D5, D4, E4 are domes; Hecate's workers on A2 and B1 fence A1.
    const char* fen = "0000D0/0000D0D/00000/00D000/00000 A:A2,B1 B:A1,E5 B powers=Hecate,-";
    State s = position(fen);
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
    CHECK(legal_starting(s, "move") == sorted({"move A1 A2", "move A1 B1"}));
    play(s, {"move A1 A2"});
    CHECK_FALSE(s.over());
    CHECK(s.turn.seat == 0);
    CHECK(square_of(s, 2) == sq("A1"));
}

TEST_CASE("Hecate: her steps are redacted for her opponents and spectators", "[hecate][view]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 A powers=Hecate,-");
    Step m = *parse_step(s, "move C3 C4");
    CHECK(step_text_for(s, m, 0, 0) == "move C3 C4");
    CHECK(step_text_for(s, m, 0, 1) == "move");
    CHECK(step_text_for(s, m, 0, spectator) == "move");
    play(s, {"move C3 C4"});
    Step b = *parse_step(s, "build C4 D4");
    CHECK(step_text_for(s, b, 0, 0) == "build C4 D4");
    CHECK(step_text_for(s, b, 0, 1) == "build D4");
    CHECK(step_text_for(s, b, 0, spectator) == "build D4");
    // During her turn her opponents' view does not tell which worker moved or from where.
    State v = view_for(s, 1);
    CHECK(v.turn.worker == -1);
    CHECK(v.turn.start == no_square);
    CHECK(v.turn.moved_workers == 0);
    // The opponent's own steps stay readable to everyone.
    play(s, {"build C4 D4"});
    Step o = *parse_step(s, "move B2 B3");
    CHECK(step_text_for(s, o, 1, 0) == "move B2 B3");
    CHECK(step_text_for(s, o, 1, spectator) == "move B2 B3");
}

TEST_CASE("Hecate places last, and in 3 players each opponent sees the other but not her", "[hecate][view]") {
    Settings st;
    st.players = 3;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Hecate, PowerId::Apollo, PowerId::Pan};
    st.start_player = 0;
    State s = *new_game(st);
    REQUIRE(decider(s) == 1);  // Hecate (seat A, start player) places last
    play(s, {"place A1", "place B1", "place C1", "place D1"});
    REQUIRE(decider(s) == 0);
    Step p = *parse_step(s, "place E5");
    CHECK(step_text_for(s, p, 0, 1) == "place");
    CHECK(step_text_for(s, p, 0, spectator) == "place");
    CHECK(step_text_for(s, p, 0, 0) == "place E5");
    play(s, {"place E5", "place E4"});
    REQUIRE(s.phase == Phase::Begin);
    State b = view_for(s, 1);
    CHECK(b.worker(0).square == no_square);
    CHECK(b.worker(2).square == sq("A1"));
    CHECK(b.worker(4).square == sq("C1"));
    State c = view_for(s, 2);
    CHECK(c.worker(1).square == no_square);
    CHECK(c.worker(3).square == sq("B1"));
}

TEST_CASE("Hecate in 3 players: a cancelled step ends the turn, the next seat plays", "[hecate]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 C:A5,D1 B powers=Hecate,Apollo,Pan");
    // Apollo's "move" onto C3 becomes his swap; Pan has no such power: cancelled.
    play(s, {"move E1 D2", "build D2 E1"});
    REQUIRE(s.turn.seat == 2);
    play(s, {"move D1 E2"});
    play(s, {"build E2 E1"});
    REQUIRE(s.turn.seat == 0);
    play(s, {"move E5 D4", "build D4 D5"});
    REQUIRE(s.turn.seat == 1);
    play(s, {"move D2 D3", "build D3 D2"});
    REQUIRE(s.turn.seat == 2);
    play(s, {"move E2 E3"});  // free
    CHECK(legal(s, "build E3 D4"));  // her worker stands there, unseen
    play(s, {"build E3 D4"});
    CHECK(s.turn.seat == 0);
    CHECK(s.board.height(sq("D4")) == 0);
}

TEST_CASE("Hecate: Bia's kill reaches her hidden worker", "[hecate][bia]") {
    State s = position("00000/00000/00000/00000/00000 A:D2,E5 B:B2,A5 B powers=Hecate,Bia");
    // Bia moves B2 -> C2; the next space in that direction, D2, holds Hecate's worker.
    play(s, {"move B2 C2"});
    CHECK(square_of(s, 0) == no_square);
    CHECK(square_of(s, 1) == sq("E5"));
}

TEST_CASE("Hecate: perft is omniscient and both counts agree", "[hecate][perft]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,Apollo");
    CHECK(perft(s, 2) == perft_by_steps(s, 2));
    State h = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 A powers=Hecate,Minotaur");
    CHECK(perft(h, 2) == perft_by_steps(h, 2));
}

TEST_CASE("Hecate: Aphrodite's card does not tell her which hidden workers stand next to hers",
          "[hecate][aphrodite][view]") {
    // Hecate's worker on C3 starts her turn next to Aphrodite's worker on B2: the truth binds it.
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,A1 A powers=Hecate,Aphrodite");
    REQUIRE((s.card(1).data & 1u) != 0);
    CHECK((view_for(s, 1).card(1).data & 0xFFFF) == 0);
    CHECK((view_for(s, spectator).card(1).data & 0xFFFF) == 0);
    CHECK((view_for(s, 0).card(1).data & 1u) != 0);  // Hecate knows where she stands
    // Her turn is still bound by the truth: C3 must end next to Aphrodite's workers.
    CHECK_FALSE(legal(s, "move C3 D4"));
    CHECK(legal(s, "move C3 B3"));
}

TEST_CASE("Hecate: Medusa cannot petrify a hidden worker; the capture the truth owes ends her turn (ruling H10)",
          "[hecate][medusa]") {
    // Hecate's worker on C3 (ground) is below Medusa's D3 (level 1): the truth owes a capture,
    // Medusa's view shows nobody there. Her view offers nothing, so the rest of her turn is lost
    // as after a cancel: the hidden worker stays and nothing is built on C3.
    State s = position("00000/00000/00010/00000/00000 A:D3,A1 B:C3,E1 A powers=Medusa,Hecate");
    play(s, {"move A1 A2"});
    CHECK(legal_starting(s, "capture").empty());
    play(s, {"build A2 A1"});
    CHECK(decider(s) == 1);
    CHECK(s.worker_at(*parse_square("C3")) >= 0);
    CHECK(s.board.height(*parse_square("C3")) == 0);
}
