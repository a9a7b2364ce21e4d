// Clio, Muse of History: a coin on each of the first 3 blocks her workers build; her opponents
// treat coin spaces as domes. Rulings (docs/rulings.md T4-T6).

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Clio puts a coin on a block she builds; the count goes on her card", "[clio]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=Clio,-");
    play(s, {"move A1 A2", "build A2 B2"});
    CHECK(to_notation(s) == "00000/00000/00000/01000/00000 A:A2,E1 B:A5,E5 B powers=Clio,- counter=1,0 tokens=B2,-");
}

TEST_CASE("Clio's opponents treat coin spaces as domes; she treats them as blocks", "[clio]") {
    State s = position("00000/00000/00000/01000/00000 A:A1,E1 B:C3,E5 B powers=Clio,- counter=1,0 tokens=B2,-");
    CHECK_FALSE(legal(s, "move C3 B2"));
    play(s, {"move C3 C2"});
    CHECK_FALSE(legal(s, "build C2 B2"));
    play(s, {"build C2 C1"});
    CHECK(legal(s, "move A1 B2"));
    play(s, {"move A1 B2", "build B2 A1"});
    // Her worker stands on the coin: for her opponents the space still counts as a dome.
    CHECK(to_notation(s) ==
          "00000/00000/00000/01000/10100 A:B2,E1 B:C2,E5 B powers=Clio,- counter=2,0 tokens=A1+B2,-");
}

TEST_CASE("Clio places only three coins in the game", "[clio]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=Clio,- counter=3,0");
    play(s, {"move A1 A2", "build A2 B2"});
    CHECK(s.card(0).tokens == 0);
    CHECK(s.card(0).counter == 3);
}

TEST_CASE("Clio puts no coin on a dome", "[clio]") {
    State s = position("00000/00000/00000/03000/00000 A:A1,E1 B:A5,E5 A powers=Clio,-");
    play(s, {"move A1 A2", "dome A2 B2"});
    CHECK(s.card(0).tokens == 0);
    CHECK(s.card(0).counter == 0);
}

TEST_CASE("Clio: a coin built on is gone for good; a new block of her first three gets a new one",
          "[clio]") {
    State s = position("00000/00000/00000/01000/00000 A:A1,E1 B:A5,E5 A powers=Clio,- counter=1,0 tokens=B2,-");
    play(s, {"move A1 A2", "build A2 B2"});
    CHECK(s.card(0).tokens == bit(*parse_square("B2")));
    CHECK(s.card(0).counter == 2);
    State t = position("00000/00000/00000/01000/00000 A:A1,E1 B:A5,E5 A powers=Clio,- counter=3,0 tokens=B2,-");
    play(t, {"move A1 A2", "build A2 B2"});
    CHECK(t.card(0).tokens == 0);
    CHECK(t.card(0).counter == 3);
}

TEST_CASE("Clio in 3 players: her coins leave the game with her", "[clio][3p]") {
    // Clio (A) is walled in at A1: she has no turn and is eliminated; C3 is free for the others.
    State s = position(
        "00000/00000/00100/0D0D000/00D000 A:A1 B:C4,E5 C:E1,D1 A powers=Clio,-,- counter=1,0,0 tokens=C3,-,-");
    CHECK(s.seat(0).out);
    CHECK(s.card(0).tokens == 0);
    CHECK(decider(s) == 1);
    CHECK(legal(s, "move C4 C3"));
    // While she plays, both opponents treat the coin as a dome.
    State t = position("00000/00000/00100/00000/00000 A:A1 B:C4,E5 C:E1,D1 B powers=Clio,-,- counter=1,0,0 tokens=C3,-,-");
    CHECK_FALSE(legal(t, "move C4 C3"));
}

TEST_CASE("Clio's coins stop Apollo's swap and Minotaur's push", "[clio][apollo][minotaur]") {
    // Her worker stands on her coin at B2: Apollo may not move into that space.
    State s = position("00000/00000/00000/01000/00000 A:B2,E1 B:C3,E5 B powers=Clio,Apollo counter=1,0 tokens=B2,-");
    CHECK_FALSE(legal(s, "move C3 B2"));
    // Minotaur may not push her worker from C2 onto the coin at B2.
    State t = position("00000/00000/00000/01000/00000 A:C2,E1 B:D2,E5 B powers=Clio,Minotaur counter=1,0 tokens=B2,-");
    CHECK_FALSE(legal(t, "move D2 C2"));
    State u = position("00000/00000/00000/00000/00000 A:C2,E1 B:D2,E5 B powers=Clio,Minotaur");
    CHECK(legal(u, "move D2 C2"));  // without the coin the push is legal
}

TEST_CASE("Clio's worker on a coin is beyond Medusa: she cannot build there", "[clio][medusa]") {
    // Ruling T16: Medusa's petrification is a build in the victim's space "if possible"; a coin
    // space is a dome for Clio's opponents (T5), so Medusa cannot build there and Clio's worker
    // on the coin (C3, level 1, below Medusa's D3 on level 2) stays.
    State s = position(
        "00000/00000/00120/00000/00000 A:D3,A1 B:C3,E5 A powers=Medusa,Clio counter=0,1 tokens=-,C3");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 1);  // no capture: the turn ended
    CHECK(s.worker_at(*parse_square("C3")) >= 0);
    // Without the coin she petrifies it and builds in its space.
    State plain = position("00000/00000/00120/00000/00000 A:D3,A1 B:C3,E5 A powers=Medusa,Clio counter=0,1");
    play(plain, {"move A1 A2", "build A2 A1", "capture D3 C3"});
    CHECK(plain.worker_at(*parse_square("C3")) < 0);
    CHECK(plain.board.height(*parse_square("C3")) == 2);
}
