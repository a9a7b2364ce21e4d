// Polyphemus, Gigantic Cyclops. End of Your Turn: once, your Worker builds up to 2 domes at any
// level on any unoccupied spaces on the board.
// Rulings (docs/rulings.md HB10-HB11): the worker that moved builds them, anywhere on the
// board, any level; spent from the first dome; one dome is enough; they are builds and domes
// for every other power.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {
constexpr const char* open_board = "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Polyphemus,-";
}

TEST_CASE("Polyphemus' moved worker builds two domes anywhere at the end of his turn", "[polyphemus][hero]") {
    State s = position(open_board);
    play(s, {"move B2 B3", "build B3 B2"});
    CHECK(legal_starting(s, "dome").size() == 21);  // every space but the four workers'
    CHECK(legal_starting(s, "dome D4").empty());     // his unmoved worker does not build them
    CHECK(legal(s, "pass"));
    play(s, {"dome B3 E5"});
    CHECK(powers::hero_spent(s, 0));
    CHECK(legal_starting(s, "dome").size() == 20);
    play(s, {"dome B3 B2"});  // on a block: any level
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000D/00000/00000/01D000/00000 A:B3,D4 B:B4,D2 B powers=Polyphemus,- counter=1,0");
}

TEST_CASE("Polyphemus may stop after one dome; the power is spent", "[polyphemus][hero]") {
    State s = position(open_board);
    play(s, {"move B2 B3", "build B3 B2", "dome B3 E5", "pass"});
    CHECK(decider(s) == 1);
    play(s, {"move B4 A4", "build A4 A5", "move B3 C3", "build C3 C4"});
    CHECK(decider(s) == 1);  // no second use
    CHECK(powers::hero_spent(s, 0));
}

TEST_CASE("Polyphemus' domes are optional: declining keeps the power", "[polyphemus][hero]") {
    State s = position(open_board);
    play(s, {"move B2 B3", "build B3 B2", "pass"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(powers::hero_spent(s, 0));
    play(s, {"move B4 A4", "build A4 A5", "move B3 C3", "build C3 C4"});
    CHECK(decider(s) == 0);
    CHECK(legal_starting(s, "dome").size() == 21);
}

TEST_CASE("Polyphemus' domes obey Limus: none next to his workers but on level 3", "[polyphemus][hero][limus]") {
    // Limus' workers on B4 and D2; A5 is level 3 and next to B4.
    State s = position("30000/00000/00000/00000/00000 A:B2,E5 B:B4,D2 A powers=Polyphemus,Limus");
    play(s, {"move B2 A2", "build A2 A1"});
    CHECK(legal(s, "dome A2 A5"));
    CHECK_FALSE(legal(s, "dome A2 A4"));
    CHECK_FALSE(legal(s, "dome A2 C3"));
    CHECK_FALSE(legal(s, "dome A2 E1"));  // next to D2
    CHECK(legal(s, "dome A2 E4"));
}

TEST_CASE("Polyphemus' domes skip what counts as a dome for him (Clio's coin)", "[polyphemus][hero][clio]") {
    State s = position("00001/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Polyphemus,Clio counter=0,1 tokens=-,E5");
    play(s, {"move B2 B3", "build B3 B2"});
    CHECK_FALSE(legal(s, "dome B3 E5"));
    CHECK(legal(s, "dome B3 E4"));
}

TEST_CASE("Polyphemus domes the opponent in: it loses at its turn start", "[polyphemus][hero]") {
    // The opponent's workers on A5 and E5 can leave only to B4 and D4.
    State s = position("00D00D0/0D0000D/00000/00000/00000 A:C2,C1 B:A5,E5 A powers=Polyphemus,-");
    play(s, {"move C2 C3", "build C3 C2", "dome C3 B4", "dome C3 D4"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Polyphemus' domes complete towers, which can give Chronus his win", "[polyphemus][hero][chronus]") {
    State s = position("3D3D3D33/00000/00000/00000/00000 A:C2,C1 B:A1,E1 A powers=Polyphemus,Chronus");
    play(s, {"move C2 C3", "build C3 C2", "dome C3 D5"});
    CHECK_FALSE(s.over());  // four complete towers
    play(s, {"dome C3 E5"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Polyphemus' card state reads and writes in notation", "[polyphemus][hero][notation]") {
    const char* text = "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Polyphemus,- counter=1,0";
    State s = position(text);
    CHECK(to_notation(s) == text);
    play(s, {"move B2 B3", "build B3 B2"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Polyphemus' dome onto Hecate's hidden worker is cancelled and does not use his power",
          "[polyphemus][hero][hecate]") {
    // Hecate's worker on E5 is hidden from him: E5 looks free.
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:E5,D2 A powers=Polyphemus,Hecate");
    play(s, {"move B2 B3", "build B3 B2"});
    REQUIRE(legal(s, "dome B3 E5"));
    play(s, {"dome B3 E5"});
    CHECK(s.turn.seat == 1);  // the rest of his turn is lost
    CHECK_FALSE(s.board.has_dome(*parse_square("E5")));
    CHECK_FALSE(powers::hero_spent(s, 0));
}
