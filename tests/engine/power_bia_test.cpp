// Bia, Goddess of Violence. Setup: place your workers first. Your Move: if your worker moves
// into a space and the next space in the same direction is occupied by an opponent worker, the
// opponent's worker is removed from the game.
// Rulings (RULES.md; docs/rulings.md A4, A5): after each of her moves, never when forced; a
// side left without workers loses at its turn start; 4p: her team places first even when her
// teammate places.

#include "scenario.hpp"

using namespace santorini;

namespace {
bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}
}  // namespace

TEST_CASE("Bia removes the opponent worker on the next space in the direction of her move",
          "[bia]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D2,A5 A powers=Bia,-");
    play(s, {"move B2 C2"});
    CHECK(s.worker_at(*parse_square("D2")) < 0);
    play(s, {"build C2 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:C2,E5 B:-,A5 B powers=Bia,-");
}

TEST_CASE("Bia's removal works on diagonals, whatever the levels", "[bia]") {
    // D4 is level 2: the victim's level does not matter.
    State s = position("00000/00200/00000/00000/00000 A:B2,E5 B:D4,A5 A powers=Bia,-");
    play(s, {"move B2 C3", "build C3 B2"});
    CHECK(to_notation(s) == "00000/00200/00000/01000/00000 A:C3,E5 B:-,A5 B powers=Bia,-");
}

TEST_CASE("Bia removes nothing across a gap, her own worker, or the edge", "[bia]") {
    // B2 -> C2 with the opponent two spaces on (E2); B2 -> C2 with her own worker next (D2);
    // B2 -> A1, where the next space is off the board.
    State gap = position("00000/00000/00000/00000/00000 A:B2,E5 B:E2,A5 A powers=Bia,-");
    play(gap, {"move B2 C2", "build C2 C3"});
    CHECK(to_notation(gap) == "00000/00000/00100/00000/00000 A:C2,E5 B:E2,A5 B powers=Bia,-");

    State own = position("00000/00000/00000/00000/00000 A:B2,D2 B:E2,A5 A powers=Bia,-");
    play(own, {"move B2 C2", "build C2 C3"});
    CHECK(to_notation(own) == "00000/00000/00100/00000/00000 A:C2,D2 B:E2,A5 B powers=Bia,-");

    State edge = position("00000/00000/00000/00000/00000 A:B2,E5 B:C3,A5 A powers=Bia,-");
    play(edge, {"move B2 A1", "build A1 B1"});
    CHECK(to_notation(edge) == "00000/00000/00000/00000/01000 A:A1,E5 B:C3,A5 B powers=Bia,-");
}

TEST_CASE("Bia's worker forced by an opponent removes nothing", "[bia][minotaur]") {
    // The Minotaur on B2 pushes Bia's worker from C2 to D2, towards his own worker on E2.
    State s = position("00000/00000/00000/00000/00000 A:C2,A5 B:B2,E2 B powers=Bia,Minotaur");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:D2,A5 B:C2,E2 A powers=Bia,Minotaur");
}

TEST_CASE("Bia's opponent moving in line removes nothing", "[bia]") {
    State s = position("00000/00000/00000/00000/00000 A:D2,A5 B:B2,E5 B powers=Bia,-");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:D2,A5 B:C2,E5 A powers=Bia,-");
}

TEST_CASE("Bia removing the opponent's last worker wins: it has no turn", "[bia]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D2 A powers=Bia,-");
    play(s, {"move B2 C2", "build C2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Bia in 3 players: a removed opponent is eliminated at its turn start, the game goes on",
          "[bia][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D2 C:A5,C5 A powers=Bia,-,-");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK_FALSE(s.over());
    CHECK(s.seat(1).out);
    CHECK(decider(s) == 2);
}

TEST_CASE("Bia as the Golden Fleece: the holder removes", "[bia][fleece]") {
    // A's worker on B2 touches the Ram on A1.
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D2,C5 A fleece=Bia ram=A1");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:C2,E5 B:-,C5 B fleece=Bia ram=A1");
}

TEST_CASE("Bia places her workers first, whoever is start player", "[bia][setup]") {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Apollo, PowerId::Bia};
    st.start_player = 0;
    State s = *new_game(st);
    CHECK(s.phase == Phase::Place);
    CHECK(decider(s) == 1);
    play(s, {"place A1", "place A2"});
    CHECK(decider(s) == 0);
    play(s, {"place E5", "place E4"});
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 0);  // the start player still takes the first turn
}

TEST_CASE("Bia in 4 players: her team places first, even when her teammate is its placer",
          "[bia][setup][4p]") {
    Settings st;
    st.players = 4;
    st.draft = DraftMode::Fixed;
    // Bia is seat D (team B); the placers are A (start player, team A) and B (team B).
    st.powers = {PowerId::Apollo, PowerId::Atlas, PowerId::Pan, PowerId::Bia};
    st.start_player = 0;
    State s = *new_game(st);
    CHECK(decider(s) == 1);
    for (const auto& t : legal_texts(s)) CHECK(starts_with(t, "place "));
    play(s, {"place A1", "place A2"});
    CHECK(decider(s) == 0);
    play(s, {"place E5", "place E4"});
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 2);  // the start player's teammate still moves first
}
