// Demeter, Goddess of the Harvest. Your Build: your worker may build one additional time, but
// not on the same space.
// Rulings (RULES.md): the second build is optional, on any other neighbouring space, by the
// worker that moved; a block, or a dome on level 3. Expected lists are worked out by hand.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Demeter may build a second time with the same worker, not on the same space", "[demeter]") {
    // The other worker on E2 could build on D3 too, but only the worker that moved builds.
    State s = position("00000/00000/00000/00000/00000 A:B2,E2 B:D4,A5 A powers=Demeter,-");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(legal_starting(s, "") == sorted({"build C2 B1", "build C2 C1", "build C2 D1", "build C2 B2",
                                           "build C2 D2", "build C2 B3", "build C2 D3", "pass"}));
    play(s, {"build C2 D3"});
    CHECK(to_notation(s) == "00000/00000/00110/00000/00000 A:C2,E2 B:D4,A5 B powers=Demeter,-");
}

TEST_CASE("Demeter's second build is optional: pass ends the turn", "[demeter]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E2 B:D4,A5 A powers=Demeter,-");
    play(s, {"move B2 C2", "build C2 C3", "pass"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:C2,E2 B:D4,A5 B powers=Demeter,-");
}

TEST_CASE("Demeter's second build may be a dome, but not on the space of the first build", "[demeter]") {
    // C3 level 2, D3 level 3.
    State s = position("00000/00000/00230/00000/00000 A:B2,E5 B:D4,A5 A powers=Demeter,-");
    play(s, {"move B2 C2", "build C2 C3"});  // C3 becomes level 3
    CHECK_FALSE(legal(s, "dome C2 C3"));
    CHECK_FALSE(legal(s, "build C2 C3"));
    play(s, {"dome C2 D3"});
    CHECK(s.board.complete_towers() == 1);
    CHECK(to_notation(s) == "00000/00000/0033D0/00000/00000 A:C2,E5 B:D4,A5 B powers=Demeter,-");
}

TEST_CASE("Demeter's turn ends by itself when no other space is free for a second build", "[demeter]") {
    // After A2 -> A1, A1's neighbours are A2 and the domes on B1 and B2.
    State s = position("00000/00000/00000/00D000/00D000 A:A2,E5 B:C4,E1 A powers=Demeter,-");
    play(s, {"move A2 A1", "build A1 A2"});
    CHECK(s.turn.seat == 1);
    CHECK(to_notation(s) == "00000/00000/00000/10D000/00D000 A:A1,E5 B:C4,E1 B powers=Demeter,-");
}

TEST_CASE("Demeter's two builds can leave the opponent without a legal turn, who then loses", "[demeter]") {
    // B on A1 can only climb to A2 or B2 (level 1); B on E1 is walled in by domes.
    const char* start = "00000/00000/00000/1100D0D/00D00D0 A:C4,E5 B:A1,E1 A powers=Demeter,-";
    State s = position(start);
    play(s, {"move C4 B3", "build B3 A2", "build B3 B2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);

    State once = position(start);
    play(once, {"move C4 B3", "build B3 A2", "pass"});
    CHECK_FALSE(once.over());
    CHECK(legal_starting(once, "move") == std::vector<std::string>{"move A1 B2"});
}

TEST_CASE("Demeter wins by moving up to level 3, with no build after it", "[demeter]") {
    State s = position("00000/00000/00230/00000/00000 A:C3,E5 B:A1,A5 A powers=Demeter,-");
    play(s, {"move C3 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("Demeter's opponent without the power builds once", "[demeter]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C3,A5 B powers=Demeter,-");
    play(s, {"move C3 C2", "build C2 C3"});
    CHECK(s.turn.seat == 0);
}

TEST_CASE("Demeter in 4 players builds twice with either team worker; her teammate builds once",
          "[demeter][4p]") {
    const char* board = "00000/00000/00000/00000/00000 A:B2,E2 B:D4,A5";
    State s = position((std::string(board) + " A players=4 powers=Demeter,-,-,-").c_str());
    play(s, {"move E2 E3", "build E3 E4", "build E3 D2"});
    CHECK(s.turn.seat == 1);
    play(s, {"move D4 C4", "build C4 C5"});
    // Seat C, Demeter's teammate: one build, then seat D.
    play(s, {"move B2 B1", "build B1 A1"});
    CHECK(s.turn.seat == 3);
    CHECK(to_notation(s) == "00100/00001/00000/00010/10000 A:B1,E3 B:C4,A5 D players=4 powers=Demeter,-,-,-");
}

TEST_CASE("Demeter in 3 players: the second build avoids both opponents' workers", "[demeter][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:B3,A5 C:D3,E1 A powers=Demeter,-,-");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(legal_starting(s, "") ==
          sorted({"build C2 B1", "build C2 C1", "build C2 D1", "build C2 B2", "build C2 D2", "pass"}));
}
