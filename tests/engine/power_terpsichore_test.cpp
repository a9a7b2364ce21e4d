// Terpsichore, Muse of Dancing: all her workers must move, then all must build.
// Rulings (docs/rulings.md T12-T14).

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Terpsichore moves both workers, then both build", "[terpsichore]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=Terpsichore,-");
    play(s, {"move A1 A2"});
    CHECK(legal_starting(s, "build").empty());
    CHECK(legal_starting(s, "move A2").empty());  // each moves once
    play(s, {"move E1 E2"});
    CHECK(legal(s, "build A2 A3"));
    CHECK(legal(s, "build E2 E3"));
    play(s, {"build E2 E3"});
    CHECK(legal_starting(s, "build E2").empty());
    CHECK_FALSE(legal(s, "pass"));
    play(s, {"build A2 A3"});
    CHECK(to_notation(s) == "00000/00000/10001/00000/00000 A:A2,E2 B:A5,E5 B powers=Terpsichore,-");
}

TEST_CASE("Terpsichore loses when one of her workers cannot move", "[terpsichore]") {
    State s = position("00000/00000/00000/0000D0D/0000D0 A:A1,E1 B:A5,E5 A powers=Terpsichore,-");
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Terpsichore: a move that leaves her other worker no move is not offered", "[terpsichore]") {
    // E1's only free neighbour is E2 (D1 and D2 are domes): E3's worker may not take it first.
    State s = position("00000/00000/00000/0000D0/0000D0 A:E3,E1 B:A5,A4 A powers=Terpsichore,-");
    CHECK_FALSE(legal(s, "move E3 E2"));
    CHECK(legal(s, "move E3 D3"));
    play(s, {"move E1 E2"});
    CHECK(legal(s, "move E3 D3"));
    CHECK_FALSE(legal(s, "move E3 E2"));
}

TEST_CASE("Terpsichore with one worker on the board plays a normal turn", "[terpsichore]") {
    State s = position("00000/00000/00000/00000/00000 A:A1 B:A5,E5 A powers=Terpsichore,-");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Terpsichore wins as soon as one of her workers moves up onto height 3", "[terpsichore]") {
    State s = position("00000/00000/00000/30000/20000 A:A1,E1 B:A5,E5 A powers=Terpsichore,-");
    play(s, {"move A1 A2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Terpsichore under Persephone: one of her moves must go up if any turn can",
          "[terpsichore][persephone]") {
    State s = position("00000/00000/00000/00010/00000 A:A1,E1 B:A5,E5 A powers=Terpsichore,Persephone");
    CHECK(legal(s, "move A1 A2"));  // the other worker can still go up
    play(s, {"move A1 A2"});
    CHECK(legal_starting(s, "move E1") == std::vector<std::string>{"move E1 D2"});
}

TEST_CASE("Terpsichore under Aphrodite: each bound worker ends next to hers", "[terpsichore][aphrodite]") {
    State s = position("00000/00000/00000/00000/00000 A:B1,E5 B:C2,A5 A powers=Terpsichore,Aphrodite");
    CHECK_FALSE(legal(s, "move B1 A1"));
    CHECK(legal(s, "move B1 B2"));
    play(s, {"move E5 E4"});
    CHECK_FALSE(legal(s, "move B1 A1"));
    CHECK(legal(s, "move B1 C1"));
}

TEST_CASE("Terpsichore as the Golden Fleece: the holder dances, the other plays normally",
          "[terpsichore][fleece]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E1 B:A5,E5 A fleece=Terpsichore ram=C3");
    play(s, {"move B2 B1"});
    CHECK(legal_starting(s, "build").empty());
    play(s, {"move E1 E2", "build B1 A1", "build E2 E1"});
    CHECK(decider(s) == 1);
    play(s, {"move A5 A4"});
    CHECK_FALSE(legal_starting(s, "build A4").empty());  // B touches no Ram: a normal turn
}
