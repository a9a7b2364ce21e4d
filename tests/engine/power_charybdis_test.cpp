// Charybdis, Whirlpool Monster: two whirlpools placed one per turn at the end of her turns; a
// move onto one pulls the worker to the other while both spaces are unoccupied.
// Rulings (docs/rulings.md T1-T3).

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Charybdis may place one whirlpool at the end of her turn, on any unoccupied space",
          "[charybdis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=Charybdis,-");
    play(s, {"move A1 A2", "build A2 B2"});
    CHECK(legal_starting(s, "token").size() == 21);  // 25 spaces, 4 workers
    CHECK(legal(s, "token B2 1"));
    CHECK_FALSE(legal(s, "token A2 1"));
    CHECK(legal(s, "pass"));
    play(s, {"token C3 1"});
    CHECK(decider(s) == 1);  // one per turn: the turn is over
    CHECK(to_notation(s) == "00000/00000/00000/01000/00000 A:A2,E1 B:A5,E5 B powers=Charybdis,- tokens=C3,-");
    play(s, {"move A5 A4", "build A4 A5", "move A2 A1", "build A1 A2"});
    CHECK_FALSE(legal(s, "token C3 1"));  // not on the other whirlpool
    play(s, {"token D4 1"});
    play(s, {"move A4 B4", "build B4 A4", "move A1 B1", "build B1 A1"});
    CHECK(decider(s) == 1);  // both on the board: nothing left on her card
}

TEST_CASE("Charybdis: a worker moving onto a whirlpool goes on to the other, and stays there",
          "[charybdis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:B4,E5 B powers=Charybdis,- tokens=C3+E3,-");
    play(s, {"move B4 C3"});
    CHECK(s.worker_at(*parse_square("E3")) == 2);
    CHECK(legal_starting(s, "build C3").empty());
    CHECK(legal(s, "build E3 D3"));
    play(s, {"build E3 D3"});
    CHECK(to_notation(s) == "00000/00000/00010/00000/00000 A:A1,E1 B:E3,E5 A powers=Charybdis,- tokens=C3+E3,-");
    // Her own workers are pulled too.
    play(s, {"move A1 B2", "build B2 B1", "move E3 D4", "build D4 E4", "move B2 C3"});
    CHECK(s.worker_at(*parse_square("C3")) < 0);
    CHECK(s.worker(0).square == *parse_square("E3"));
}

TEST_CASE("Charybdis: no pull while the other whirlpool's space is occupied", "[charybdis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E3 B:B4,E5 B powers=Charybdis,- tokens=C3+E3,-");
    play(s, {"move B4 C3"});
    CHECK(s.worker_at(*parse_square("C3")) == 2);
    CHECK(legal(s, "build C3 C2"));
    // A dome on the other whirlpool's space: it went back to her card when built on.
    State t = position("00000/00000/00003/00000/00000 A:A1,E1 B:B4,D4 B powers=Charybdis,- tokens=C3+E3,-");
    play(t, {"move D4 D3", "dome D3 E3"});
    CHECK(t.card(0).tokens == bit(*parse_square("C3")));
}

TEST_CASE("Charybdis: the pull is part of the move and wins by moving up onto height 3",
          "[charybdis]") {
    State s = position("00000/02000/00203/00000/00000 A:A1,E1 B:B4,E5 B powers=Charybdis,- tokens=C3+E3,-");
    play(s, {"move B4 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    // From a whirlpool on height 1 up to one on height 3 (any level): a move up onto level 3.
    State t = position("00000/01000/00103/00000/00000 A:A1,E1 B:B4,E5 B powers=Charybdis,- tokens=C3+E3,-");
    play(t, {"move B4 C3"});
    REQUIRE(t.over());
    CHECK(t.winners == 0b10);
}

TEST_CASE("Charybdis: from level 3 onto a level-3 whirlpool, pulled to another on level 3, is no win",
          "[charybdis]") {
    // Ruling T15: the move onto the first whirlpool and the pull each go from level 3 to level
    // 3; neither moves up, so nobody wins (Board Game Arena counts a win here).
    State u = position("00000/03000/00303/00000/00000 A:A1,E1 B:B4,E5 B powers=Charybdis,- tokens=C3+E3,-");
    play(u, {"move B4 C3"});
    CHECK_FALSE(u.over());
    CHECK(u.worker_at(*parse_square("E3")) == 2);
    play(u, {"build E3 D3"});
    CHECK(decider(u) == 0);
    // Her own worker the same.
    State own = position("00000/03000/00303/00000/00000 A:B4,E1 B:A1,E5 A powers=Charybdis,- tokens=C3+E3,-");
    play(own, {"move B4 C3"});
    CHECK_FALSE(own.over());
    CHECK(own.worker(0).square == *parse_square("E3"));
}

TEST_CASE("Charybdis: Hera's veto binds a win by the pull onto the perimeter", "[charybdis][hera]") {
    // Charybdis' own worker is pulled: Hera (A) denies her opponent's win onto the perimeter.
    State t = position("00000/02000/00203/00000/00000 A:A1,E1 B:B4,E5 B powers=Hera,Charybdis tokens=-,C3+E3");
    play(t, {"move B4 C3"});
    CHECK_FALSE(t.over());
    CHECK(t.worker_at(*parse_square("E3")) == 2);
}

TEST_CASE("Charybdis: a whirlpool built on goes back to her card; she may place it again",
          "[charybdis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E1 B:A5,E5 A powers=Charybdis,- tokens=C3+E3,-");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK(s.card(0).tokens == bit(*parse_square("E3")));
    CHECK(legal(s, "token C3 1"));  // on the block that covered it
    play(s, {"token D4 1"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:B3,E1 B:A5,E5 B powers=Charybdis,- tokens=E3+D4,-");
}

TEST_CASE("Charybdis: a worker pushed onto a whirlpool is not pulled (forced is not moved)",
          "[charybdis][minotaur]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,A1 B:B3,E5 B powers=Charybdis,Minotaur tokens=D3+E1,-");
    play(s, {"move B3 C3"});
    CHECK(s.worker_at(*parse_square("D3")) == 0);
    CHECK(s.worker_at(*parse_square("E1")) < 0);
    // Apollo moving onto a worker standing on a whirlpool (the other one occupied) is not pulled.
    State t = position("00000/00000/00000/00000/00000 A:C3,E1 B:B3,E5 B powers=Charybdis,Apollo tokens=C3+E1,-");
    play(t, {"move B3 C3"});
    CHECK(t.worker_at(*parse_square("C3")) == 2);
}

TEST_CASE("Charybdis in 3 players: her whirlpools leave the game with her", "[charybdis][3p]") {
    // Charybdis (A) is walled in at A1: she is eliminated, and C3 no longer pulls.
    State s = position(
        "00000/00000/00000/0D0D000/00D000 A:A1 B:C4,E5 C:E1,D1 A powers=Charybdis,-,- tokens=C3+E3,-,-");
    CHECK(s.seat(0).out);
    CHECK(s.card(0).tokens == 0);
    const int moved = s.worker_at(*parse_square("C4"));
    play(s, {"move C4 C3"});
    CHECK(s.worker_at(*parse_square("C3")) == moved);
}

TEST_CASE("Charybdis and Aeolus: the Wind never stops a pull", "[charybdis][aeolus]") {
    // Ruling T17: the pull "is considered to be in the same direction as the previous move",
    // which the Wind allowed; so it happens whatever way the second whirlpool lies. The Wind
    // blows north (memory=1): nobody moves south, yet the pull from C3 goes south to C1.
    State s = position(
        "00000/00000/00000/00000/00000 A:B3,E5 B:A5,E1 A powers=Aeolus,Charybdis memory=1,0 tokens=-,C1+C3");
    CHECK_FALSE(legal(s, "move B3 B2"));  // south, into the Wind
    play(s, {"move B3 C3"});              // east
    CHECK(s.worker(0).square == *parse_square("C1"));
    CHECK(legal(s, "build C1 C2"));
}

TEST_CASE("Charybdis and the Harpies: the pull comes first, then the slide from the second whirlpool",
          "[charybdis][harpies]") {
    // Ruling T3 (and T18 for the seat order): the pull is part of the move, "in the same
    // direction as the previous move", so the Harpies slide the worker on from the second
    // whirlpool (A1) in the move's direction (east, to E1), whichever seat sits first.
    State harpies_first = position(
        "00000/00000/00000/00000/00000 A:A5,E5 B:B3,E4 B powers=Harpies,Charybdis tokens=-,A1+C3");
    play(harpies_first, {"move B3 C3"});
    CHECK(harpies_first.worker(2).square == *parse_square("E1"));
    CHECK(legal(harpies_first, "build E1 D1"));
    State charybdis_first = position(
        "00000/00000/00000/00000/00000 A:B3,E4 B:A5,E5 A powers=Charybdis,Harpies tokens=A1+C3,-");
    play(charybdis_first, {"move B3 C3"});
    CHECK(charybdis_first.worker(0).square == *parse_square("E1"));
}
