// Europa & Talus: at the end of her turn she may move Talus next to the worker that moved;
// everyone, she too, treats its space as a dome. Rulings (docs/rulings.md T7, T8).

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Europa may put Talus next to the worker that moved, at the end of her turn",
          "[europa]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=EuropaTalus,-");
    play(s, {"move A1 B2", "build B2 C3"});
    CHECK(legal_starting(s, "token") ==
          sorted({"token A1 2", "token A2 2", "token A3 2", "token B1 2", "token B3 2", "token C1 2",
                  "token C2 2", "token C3 2"}));
    CHECK(legal(s, "pass"));
    play(s, {"token C2 2"});
    CHECK(decider(s) == 1);  // once per turn
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:B2,E1 B:A5,E5 B powers=EuropaTalus,- tokens=C2,-");
}

TEST_CASE("Europa's relocation is optional", "[europa]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=EuropaTalus,- tokens=C3,-");
    play(s, {"move A1 B2", "build B2 B3", "pass"});
    CHECK(decider(s) == 1);
    CHECK(s.card(0).tokens == bit(*parse_square("C3")));
}

TEST_CASE("Talus is a dome for Europa's opponents: no move, no build there", "[europa]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:C4,E5 B powers=EuropaTalus,- tokens=C3,-");
    CHECK_FALSE(legal(s, "move C4 C3"));
    play(s, {"move C4 D4"});
    CHECK_FALSE(legal(s, "build D4 C3"));
}

TEST_CASE("Talus is a dome for Europa herself", "[europa]") {
    State s = position("00000/00000/00000/00000/00000 A:B3,E1 B:A5,E5 A powers=EuropaTalus,- tokens=C3,-");
    CHECK_FALSE(legal(s, "move B3 C3"));
    play(s, {"move B3 B2"});
    CHECK_FALSE(legal(s, "build B2 C3"));
}

TEST_CASE("Europa relocates Talus from the board, only next to the worker that moved", "[europa]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:A5,E5 A powers=EuropaTalus,- tokens=C3,-");
    play(s, {"move E1 E2", "build E2 E1"});
    CHECK_FALSE(legal(s, "token B2 2"));  // next to the other worker only
    play(s, {"token D3 2"});
    CHECK(s.card(0).tokens == bit(*parse_square("D3")));
}

TEST_CASE("Talus blocks Apollo's and Minotaur's displaced workers", "[europa][minotaur]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,A1 B:B3,E5 B powers=EuropaTalus,Minotaur tokens=D3,-");
    CHECK_FALSE(legal(s, "move B3 C3"));  // the push would go onto Talus
}

TEST_CASE("Talus binds both teams in 4 players", "[europa][4p]") {
    State s = position("00000/00000/00000/00000/00000 A:B3,E1 B:C4,E5 B players=4 powers=EuropaTalus,-,-,- tokens=C3,-,-,-");
    CHECK_FALSE(legal(s, "move C4 C3"));
    State t = position("00000/00000/00000/00000/00000 A:B3,E1 B:C4,E5 C players=4 powers=EuropaTalus,-,-,- tokens=C3,-,-,-");
    CHECK_FALSE(legal(t, "move B3 C3"));
}
