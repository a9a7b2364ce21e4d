// Artemis, Goddess of the Hunt. Your Move: your worker may move one additional time, but not
// back to its initial space.
// Rulings (RULES.md): the second move is optional and made by the same worker; a win is
// checked after each move. Expected lists are worked out by hand from the rules.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Artemis may move the same worker a second time, but not back to its initial space", "[artemis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D4,A5 A powers=Artemis,-");
    play(s, {"move B2 C2"});
    // Second moves from C2 (never back to B2, never the other worker) or the build.
    CHECK(legal_starting(s, "") ==
          sorted({"move C2 B1", "move C2 C1", "move C2 D1", "move C2 D2", "move C2 B3", "move C2 C3", "move C2 D3",
                  "build C2 B1", "build C2 C1", "build C2 D1", "build C2 B2", "build C2 D2", "build C2 B3",
                  "build C2 C3", "build C2 D3"}));
    play(s, {"move C2 D3"});
    // No third move; D4 holds an opponent worker.
    CHECK(legal_starting(s, "") == sorted({"build D3 C2", "build D3 D2", "build D3 E2", "build D3 C3",
                                           "build D3 E3", "build D3 C4", "build D3 E4"}));
    play(s, {"build D3 C2"});
    CHECK(to_notation(s) == "00000/00000/00000/00100/00000 A:D3,E5 B:D4,A5 B powers=Artemis,-");
}

TEST_CASE("Artemis's second move is optional: she may build right after the first", "[artemis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D4,A5 A powers=Artemis,-");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(s.turn.seat == 1);
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:C2,E5 B:D4,A5 B powers=Artemis,-");
}

TEST_CASE("Artemis wins on her first move up to level 3; the turn ends there", "[artemis]") {
    State s = position("00000/00000/00230/00000/00000 A:C3,E5 B:A1,A5 A powers=Artemis,-");
    play(s, {"move C3 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("Artemis wins when her second move goes up from level 2 to level 3", "[artemis]") {
    // B2 level 1, C2 level 2, D2 level 3: each move goes up one level.
    State s = position("00000/00000/00000/01230/00000 A:B2,E5 B:A1,A5 A powers=Artemis,-");
    play(s, {"move B2 C2"});
    CHECK_FALSE(s.over());
    play(s, {"move C2 D2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Artemis may step down from level 3 and up onto another level-3 space to win", "[artemis]") {
    // C3 level 3, D3 level 2, E3 level 3.
    State s = position("00000/00000/00323/00000/00000 A:C3,E5 B:A1,A5 A powers=Artemis,-");
    play(s, {"move C3 D3"});
    CHECK_FALSE(s.over());
    play(s, {"move D3 E3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Artemis cannot move back to her initial space, even to win", "[artemis]") {
    // C3 is the only level-3 space; after stepping down to D3, going back would be a win.
    State s = position("00000/00000/00320/00000/00000 A:C3,E5 B:A1,A5 A powers=Artemis,-");
    play(s, {"move C3 D3"});
    CHECK_FALSE(legal(s, "move D3 C3"));
    CHECK(legal_starting(s, "move") == sorted({"move D3 C2", "move D3 D2", "move D3 E2", "move D3 E3",
                                               "move D3 C4", "move D3 D4", "move D3 E4"}));
}

TEST_CASE("Artemis moving from level 3 to level 3 twice does not win", "[artemis]") {
    State s = position("00000/00000/00000/03330/00000 A:B2,E5 B:A1,A5 A powers=Artemis,-");
    play(s, {"move B2 C2", "move C2 D2"});
    CHECK_FALSE(s.over());
    play(s, {"build D2 E2"});
    CHECK_FALSE(s.over());
    CHECK(s.turn.seat == 1);
}

TEST_CASE("Artemis's moves are both bound by Athena's restriction", "[artemis][athena]") {
    // Artemis (seat B) on C3, level 1; Athena moved up on her last turn.
    //   rank 3: C3 1, D3 1   rank 2: B2 2, C2 1   rank 1: B1 2, C1 2, D1 1
    const char* board = "00000/00000/00110/02100/02210 A:A5,E5 B:C3,A4 B powers=Athena,Artemis";
    State s = position((std::string(board) + " memory=1,0").c_str());
    CHECK_FALSE(legal(s, "move C3 B2"));
    play(s, {"move C3 C2"});
    // From C2 (level 1): B1, C1, B2 are up, C3 is the initial space.
    CHECK(legal_starting(s, "move") == sorted({"move C2 D1", "move C2 D2", "move C2 B3", "move C2 D3"}));

    State free = position(board);
    play(free, {"move C3 C2"});
    CHECK(legal_starting(free, "move") == sorted({"move C2 B1", "move C2 C1", "move C2 D1", "move C2 B2",
                                                  "move C2 D2", "move C2 B3", "move C2 D3"}));
}

TEST_CASE("Artemis in 3 players: the second move avoids both opponents' workers, and its win is hers alone",
          "[artemis][3p]") {
    State s = position("00000/00000/00000/01230/00000 A:B2,E5 B:B3,A5 C:D3,E1 A powers=Artemis,-,-");
    play(s, {"move B2 C2"});
    // From C2 (level 2): B3 and D3 are occupied, B2 is the initial space.
    CHECK(legal_starting(s, "move") ==
          sorted({"move C2 B1", "move C2 C1", "move C2 D1", "move C2 D2", "move C2 C3"}));
    play(s, {"move C2 D2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b001);
}

TEST_CASE("Artemis loses when no worker can move at all", "[artemis]") {
    // A1 and E1 are walled in by domes.
    State s = position("00000/00000/00000/0D0D00D0D/00D00D0 A:A1,E1 B:C3,C5 A powers=Artemis,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
