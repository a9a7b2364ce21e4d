// Atlas, Titan Shouldering the Heavens. Your Build: your worker may build a dome at any level.
// Rulings (RULES.md): including the ground; domes are not blocks (a dome on level 1 leaves the
// space at level 1, and is not a complete tower). Expected lists are worked out by hand.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

namespace {

Square at(const char* square) { return *parse_square(square); }

}  // namespace

TEST_CASE("Atlas may build a block or a dome on every level, including the ground", "[atlas]") {
    // Around C2: B1 ground, C1 level 1, D1 level 2, D2 level 3, B3 a dome on the ground,
    // D3 a complete tower, C3 an opponent worker; B2 is where Atlas comes from.
    State s = position("00000/00000/00D03D0/00030/00120 A:B2,E5 B:C3,A5 A powers=Atlas,-");
    play(s, {"move B2 C2"});
    CHECK(legal_starting(s, "") == sorted({"build C2 B1", "dome C2 B1", "build C2 C1", "dome C2 C1",
                                           "build C2 D1", "dome C2 D1", "build C2 B2", "dome C2 B2",
                                           "dome C2 D2"}));
    play(s, {"dome C2 B1"});
    CHECK(to_notation(s) == "00000/00000/00D03D0/00030/00D120 A:C2,E5 B:C3,A5 B powers=Atlas,-");
}

TEST_CASE("Atlas's dome on level 1 is not a block: the space stays level 1, blocks moves and builds, "
          "and is no complete tower",
          "[atlas]") {
    State s = position("00000/00000/00000/00000/01000 A:A3,E5 B:C2,E1 A powers=Atlas,-");
    play(s, {"move A3 A2", "dome A2 B1"});
    CHECK(s.board.height(at("B1")) == 1);
    CHECK(s.board.has_dome(at("B1")));
    CHECK(s.board.complete_towers() == 0);
    CHECK(to_notation(s) == "00000/00000/00000/00000/01D000 A:A2,E5 B:C2,E1 B powers=Atlas,-");
    CHECK_FALSE(legal(s, "move C2 B1"));
    play(s, {"move C2 C1"});
    CHECK_FALSE(legal(s, "build C1 B1"));
    CHECK_FALSE(legal(s, "dome C1 B1"));
}

TEST_CASE("Atlas's dome on the ground can leave the opponent without a legal turn, who then loses", "[atlas]") {
    // B's workers on A1 and E1: every neighbour is a dome except B1.
    const char* start = "00000/00000/00000/0D0D00D0D/0000D0 A:C3,C5 B:A1,E1 A powers=Atlas,-";
    State s = position(start);
    play(s, {"move C3 C2", "dome C2 B1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);

    // A block there only gives B a step up.
    State block = position(start);
    play(block, {"move C3 C2", "build C2 B1"});
    CHECK_FALSE(block.over());
    CHECK(legal(block, "move A1 B1"));
}

TEST_CASE("Atlas in 3 players: an opponent walled in by his ground dome is eliminated, the game goes on",
          "[atlas][3p]") {
    State s = position("00000/00000/00000/0D0D00D0D/0000D0 A:C3,C5 B:A1,E1 C:E3,A4 A powers=Atlas,-,-");
    play(s, {"move C3 C2", "dome C2 B1"});
    REQUIRE_FALSE(s.over());
    CHECK(s.seat(1).out);
    CHECK(s.turn.seat == 2);
    CHECK(to_notation(s) == "00000/00000/00000/0D0D00D0D/00D00D0 A:C2,C5 B:- C:E3,A4 C powers=Atlas,-,- out=B");
}

TEST_CASE("Atlas's opponent without the power builds domes only on level 3", "[atlas]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C3,A5 B powers=Atlas,-");
    play(s, {"move C3 C2"});
    CHECK(legal_starting(s, "") == sorted({"build C2 B1", "build C2 C1", "build C2 D1", "build C2 B2",
                                           "build C2 D2", "build C2 B3", "build C2 C3", "build C2 D3"}));
}

TEST_CASE("Atlas in 4 players: his teammate moves the same workers but builds no low domes", "[atlas][4p]") {
    const char* board = "00000/00000/00000/00000/00000 A:B2,E5 B:D4,A5";
    State atlas = position((std::string(board) + " A players=4 powers=Atlas,-,-,-").c_str());
    play(atlas, {"move B2 C2"});
    CHECK(legal(atlas, "dome C2 C3"));

    State mate = position((std::string(board) + " C players=4 powers=Atlas,-,-,-").c_str());
    play(mate, {"move B2 C2"});
    CHECK(legal_starting(mate, "") == sorted({"build C2 B1", "build C2 C1", "build C2 D1", "build C2 B2",
                                              "build C2 D2", "build C2 B3", "build C2 C3", "build C2 D3"}));
}

TEST_CASE("Atlas wins by moving up to level 3; a domed level-2 space is no way up", "[atlas]") {
    // D3 is level 3, B3 is level 2 with a dome.
    State s = position("00000/00000/02D230/00000/00000 A:C3,E5 B:A1,A5 A powers=Atlas,-");
    CHECK_FALSE(legal(s, "move C3 B3"));
    play(s, {"move C3 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Atlas loses when he cannot move, though he could build domes", "[atlas]") {
    State s = position("00000/00000/00000/0D0D00D0D/00D00D0 A:A1,E1 B:C3,C5 A powers=Atlas,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
