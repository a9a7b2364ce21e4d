// Aphrodite, Goddess of Love. Any Move: if an opponent worker starts its turn neighbouring one
// of your workers, its last move must be to a space neighbouring one of your workers.
// Ruling A8 (docs/rulings.md): "must" binds; only a bound worker that moves is held to it; a
// win by a bound worker away from her does not count; 2 and 4 players.

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Aphrodite: an opponent worker that starts next to hers must move next to hers",
          "[aphrodite]") {
    // B's worker on B2 starts next to her C3; the one on A5 starts away from hers.
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,A5 B powers=Aphrodite,-");
    CHECK(legal_starting(s, "move B2") == sorted({"move B2 B3", "move B2 C2"}));
    CHECK(legal_starting(s, "move A5") == sorted({"move A5 A4", "move A5 B4", "move A5 B5"}));
    play(s, {"move B2 C2", "build C2 C1"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) == "00000/00000/00000/00000/00100 A:C3,E5 B:C2,A5 A powers=Aphrodite,-");
}

TEST_CASE("Aphrodite binds nobody on her own turn, and only workers that start next to hers",
          "[aphrodite]") {
    State own = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,A5 A powers=Aphrodite,-");
    CHECK(legal(own, "move C3 D4"));
    // Her workers on E1 and E5 are far from B's: B2 moves anywhere.
    State far = position("00000/00000/00000/00000/00000 A:E1,E5 B:B2,A5 B powers=Aphrodite,-");
    CHECK(legal_starting(far, "move B2").size() == 8);
}

TEST_CASE("Aphrodite: a bound worker cannot win by moving away from her", "[aphrodite]") {
    // The bound worker on B2 (2): A1 (3) is away from her C3, B3 (3) is next to it.
    const char* fen = "00000/00000/03000/02000/30000 A:C3,E5 B:B2,A5 B powers=Aphrodite,-";
    State s = position(fen);
    CHECK_FALSE(legal(s, "move B2 A1"));
    play(s, {"move B2 B3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    // The same without her: the move to A1 wins.
    State free = position("00000/00000/03000/02000/30000 A:C3,E5 B:B2,A5 B");
    play(free, {"move B2 A1"});
    REQUIRE(free.over());
}

TEST_CASE("Aphrodite against Artemis: the last move counts, and a win away from her does not",
          "[aphrodite][artemis]") {
    // Artemis' worker on B2 (2) is bound by C3 and A3. A1 (3) is away from both: no win there,
    // but she may move on to A2 (next to A3); B1 is next to neither.
    State s = position("00000/00000/00000/02000/30000 A:C3,A3 B:B2,E5 B powers=Aphrodite,Artemis");
    play(s, {"move B2 A1"});
    CHECK_FALSE(s.over());
    CHECK(legal_starting(s, "move") == std::vector<std::string>{"move A1 A2"});
    CHECK(legal_starting(s, "build").empty());  // stopping on A1 would break her rule
    play(s, {"move A1 A2", "build A2 B1"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) ==
          "00000/00000/00000/02000/31000 A:C3,A3 B:A2,E5 A powers=Aphrodite,Artemis");
}

TEST_CASE("Aphrodite's rule binds: an opponent with no turn that satisfies it loses",
          "[aphrodite]") {
    // B1 is bound by A1 and can reach only A2/B2 next to it: domes. D5 is bound by E5 and can
    // reach only D4/E4 next to it: domes. Without her, B has plenty of moves.
    const char* board = "00000/0000D0D/00000/0D0D000/00000 A:A1,E5 B:B1,D5 B";
    State s = position((std::string(board) + " powers=Aphrodite,-").c_str());
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    State free = position(board);
    CHECK_FALSE(free.over());
}

TEST_CASE("Aphrodite against Apollo: a swap with her worker ends next to her",
          "[aphrodite][apollo]") {
    // Apollo's bound worker on B2 swaps with hers on C3: her worker goes to B2, next to C3.
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,A5 B powers=Aphrodite,Apollo");
    CHECK(legal(s, "move B2 C3"));
    CHECK_FALSE(legal(s, "move B2 A1"));
    play(s, {"move B2 C3", "build C3 D4"});
    CHECK(to_notation(s) ==
          "00000/00010/00000/00000/00000 A:B2,E5 B:C3,A5 A powers=Aphrodite,Apollo");
}

TEST_CASE("Aphrodite in 4 players binds both players of the other team, not her teammate",
          "[aphrodite][4p]") {
    // Team A (seats A, C): C3 and E5. Team B (seats B, D): B2 and A5.
    const char* board = "00000/00000/00000/00000/00000 A:C3,E5 B:B2,A5";
    for (const char* seat : {" B", " D"}) {
        State s =
            position((std::string(board) + seat + " players=4 powers=Aphrodite,-,-,-").c_str());
        CHECK(legal_starting(s, "move B2") == sorted({"move B2 B3", "move B2 C2"}));
    }
    State mate = position((std::string(board) + " C players=4 powers=Aphrodite,-,-,-").c_str());
    CHECK(legal_starting(mate, "move C3").size() == 7);  // all free neighbours of C3 but B2
}
