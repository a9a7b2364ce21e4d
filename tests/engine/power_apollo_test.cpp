// Apollo, God of Music. Your Move: your worker may move into an opponent worker's space by
// forcing their worker to the space yours just vacated.
// Rulings (RULES.md): the swap follows the normal move rules for Apollo's worker (up at most
// one, down any number); never with his own workers (4p: the team's workers are his own);
// forced is not moved, so a worker forced onto level 3 does not win.
// Expected step lists are worked out by hand from the rules, not copied from the engine.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

namespace {

/// The side of the worker standing on `square`, or -1 if none.
int side_on(const State& s, const char* square) {
    int w = s.worker_at(*parse_square(square));
    return w < 0 ? -1 : s.worker(w).side;
}

}  // namespace

TEST_CASE("Apollo swaps into an adjacent opponent worker's space; the opponent goes to the vacated space",
          "[apollo]") {
    // C4 is a dome; D3 holds an opponent worker, everything else around C3 is free ground.
    State s = position("00000/000D00/00000/00000/00000 A:C3,E5 B:D3,A1 A powers=Apollo,-");
    CHECK(legal_starting(s, "move C3") == sorted({"move C3 B2", "move C3 C2", "move C3 D2", "move C3 B3",
                                                  "move C3 D3", "move C3 B4", "move C3 D4"}));
    play(s, {"move C3 D3"});
    CHECK(side_on(s, "D3") == 0);
    CHECK(side_on(s, "C3") == 1);
    CHECK_FALSE(s.over());
    // Apollo builds from D3; C3 now holds the forced worker and C4 a dome.
    CHECK(legal_texts(s).size() == 6);
    CHECK(legal_starting(s, "") == sorted({"build D3 C2", "build D3 D2", "build D3 E2", "build D3 E3",
                                           "build D3 D4", "build D3 E4"}));
    play(s, {"build D3 E3"});
    CHECK(to_notation(s) == "00000/000D00/00001/00000/00000 A:D3,E5 B:C3,A1 B powers=Apollo,-");
}

TEST_CASE("Apollo's swap follows the normal move rules: at most one level up", "[apollo]") {
    // Apollo on B2 (ground); opponents on A1 (level 2, too high) and C2 (level 1, reachable).
    State s = position("00000/00000/00000/00100/20000 A:B2,E5 B:A1,C2 A powers=Apollo,-");
    CHECK(legal_starting(s, "move B2") == sorted({"move B2 B1", "move B2 C1", "move B2 A2", "move B2 C2",
                                                  "move B2 A3", "move B2 B3", "move B2 C3"}));
    CHECK_FALSE(legal(s, "move B2 A1"));
    play(s, {"move B2 C2"});
    CHECK(side_on(s, "B2") == 1);  // forced down from level 1 to the ground
    CHECK_FALSE(s.over());
}

TEST_CASE("Apollo may swap down any number of levels; the worker forced onto level 3 does not win",
          "[apollo]") {
    // Apollo on C3 (level 3) swaps down onto B2 (ground); the opponent is forced up to level 3.
    State s = position("00000/00030/00300/00000/00000 A:C3,E5 B:B2,A5 A powers=Apollo,-");
    play(s, {"move C3 B2"});
    CHECK_FALSE(s.over());
    CHECK(side_on(s, "C3") == 1);
    play(s, {"build B2 B3"});
    CHECK_FALSE(s.over());
    CHECK(to_notation(s) == "00000/00030/01300/00000/00000 A:B2,E5 B:C3,A5 B powers=Apollo,-");
    // Moving from one level-3 space to another does not win either.
    play(s, {"move C3 D4"});
    CHECK_FALSE(s.over());
    play(s, {"build D4 E4"});
    CHECK_FALSE(s.over());
    CHECK(s.turn.seat == 0);
}

TEST_CASE("Apollo wins by swapping up from level 2 onto level 3", "[apollo]") {
    State s = position("00000/00000/00230/00000/00000 A:C3,E5 B:D3,A1 A powers=Apollo,-");
    play(s, {"move C3 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(side_on(s, "C3") == 1);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("Apollo cannot swap with his own worker", "[apollo]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,C2 B:D4,A5 A powers=Apollo,-");
    CHECK_FALSE(legal(s, "move B2 C2"));
    CHECK_FALSE(legal(s, "move C2 B2"));
    CHECK(legal_starting(s, "move B2") == sorted({"move B2 A1", "move B2 B1", "move B2 C1", "move B2 A2",
                                                  "move B2 A3", "move B2 B3", "move B2 C3"}));
    CHECK(legal_starting(s, "move C2") == sorted({"move C2 B1", "move C2 C1", "move C2 D1", "move C2 D2",
                                                  "move C2 B3", "move C2 C3", "move C2 D3"}));
}

TEST_CASE("Apollo's opponent without the power cannot swap into Apollo's space", "[apollo]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:C2,A5 B powers=Apollo,-");
    CHECK_FALSE(legal(s, "move C2 B2"));
    CHECK(legal_starting(s, "move C2") == sorted({"move C2 B1", "move C2 C1", "move C2 D1", "move C2 D2",
                                                  "move C2 B3", "move C2 C3", "move C2 D3"}));
}

TEST_CASE("Apollo's swap after which his worker cannot build is not offered", "[apollo]") {
    // A1's other neighbours B1, B2 are domes. After swapping onto A2 Apollo would have A1
    // (now the forced worker's) and domes on B1, B2, A3, B3 around him: no build.
    State s = position("00000/00000/0D0D000/00D000/00D000 A:A1,E5 B:A2,E3 A powers=Apollo,-");
    CHECK(legal_starting(s, "move A1").empty());
    CHECK_FALSE(legal_starting(s, "move E5").empty());

    // Without the dome on B3 the swap is fine, and B3 is the only build after it.
    State t = position("00000/00000/0D0000/00D000/00D000 A:A1,E5 B:A2,E3 A powers=Apollo,-");
    CHECK(legal_starting(t, "move A1") == std::vector<std::string>{"move A1 A2"});
    play(t, {"move A1 A2"});
    CHECK(legal_texts(t) == std::vector<std::string>{"build A2 B3"});
}

TEST_CASE("Apollo's workers boxed in by opponent workers can still swap, so he does not lose", "[apollo]") {
    // Every neighbour of A1 and E5 is a dome or an opponent worker.
    const char* boxed = "0000D0/00000D/00000/0D0000/00D000 A:A1,E5 B:B2,D4 A";
    State s = position((std::string(boxed) + " powers=Apollo,-").c_str());
    REQUIRE_FALSE(s.over());
    CHECK(legal_starting(s, "move") == sorted({"move A1 B2", "move E5 D4"}));
    play(s, {"move E5 D4", "build D4 E3"});
    CHECK(side_on(s, "E5") == 1);
    CHECK_FALSE(s.over());

    // The same position without Apollo: no legal turn, so A loses at once.
    State plain = position(boxed);
    CHECK(plain.over());
    CHECK(plain.winners == 0b10);
}

TEST_CASE("Apollo in 3 players may swap with either opponent", "[apollo][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:C2,A5 C:B3,E1 A powers=Apollo,-,-");
    CHECK(legal_starting(s, "move B2") == sorted({"move B2 A1", "move B2 B1", "move B2 C1", "move B2 A2",
                                                  "move B2 C2", "move B2 A3", "move B2 B3", "move B2 C3"}));
    play(s, {"move B2 B3"});
    CHECK(side_on(s, "B2") == 2);
    play(s, {"build B3 C4"});
    CHECK(s.turn.seat == 1);
    CHECK(to_notation(s) == "00000/00100/00000/00000/00000 A:B3,E5 B:C2,A5 C:B2,E1 B powers=Apollo,-,-");
}

TEST_CASE("Apollo in 4 players cannot swap with the team's other worker; his teammate cannot swap at all",
          "[apollo][4p]") {
    // Team A (seats A and C) shares B2 and C2; team B has B3 and E5.
    State s = position("00000/00000/00000/00000/00000 A:B2,C2 B:B3,E5 A players=4 powers=Apollo,-,-,-");
    CHECK(legal_starting(s, "move B2") == sorted({"move B2 A1", "move B2 B1", "move B2 C1", "move B2 A2",
                                                  "move B2 A3", "move B2 B3", "move B2 C3"}));
    CHECK_FALSE(legal(s, "move C2 B2"));
    CHECK(legal(s, "move C2 B3"));

    // Seat C plays the same team without Apollo's power: no swap.
    State c = position("00000/00000/00000/00000/00000 A:B2,C2 B:B3,E5 C players=4 powers=Apollo,-,-,-");
    CHECK(legal_starting(c, "move B2") ==
          sorted({"move B2 A1", "move B2 B1", "move B2 C1", "move B2 A2", "move B2 A3", "move B2 C3"}));
    CHECK_FALSE(legal(c, "move B2 B3"));
}
