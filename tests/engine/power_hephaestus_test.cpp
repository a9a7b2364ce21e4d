// Hephaestus, God of Blacksmiths. Your Build: your worker may build one additional block (not
// dome) on top of your first block. Ruling (RULES.md): the second build is optional, on the
// same space, and only a block: none when the first build made height 3 or was a dome.

#include <algorithm>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Hephaestus may build a second block on the same space", "[hephaestus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"build B3 C3", "pass"});
    play(s, {"build B3 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00200/00000/00000 A:B3,D4 B:A5,E1 B powers=Hephaestus,-");
}

TEST_CASE("Hephaestus' second build is optional", "[hephaestus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 B3", "build B3 C3", "pass"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:B3,D4 B:A5,E1 B powers=Hephaestus,-");
}

TEST_CASE("Hephaestus' second build is only a block on the first build's space", "[hephaestus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK_FALSE(legal(s, "build B3 C4"));
    CHECK_FALSE(legal(s, "build B3 B4"));
    CHECK_FALSE(legal(s, "build B3 A2"));
    CHECK_FALSE(legal(s, "dome B3 C3"));
    CHECK_FALSE(legal(s, "build D4 C3"));  // the other worker does not build
    CHECK_FALSE(legal(s, "build D4 D5"));
    CHECK(legal(s, "build B3 C3"));
}

TEST_CASE("Hephaestus may raise a space from 1 to 3 with two blocks", "[hephaestus]") {
    State s = position("00000/00000/00100/00000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"build B3 C3", "pass"});
    play(s, {"build B3 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00300/00000/00000 A:B3,D4 B:A5,E1 B powers=Hephaestus,-");
}

TEST_CASE("Hephaestus has no second build when the first made height 3", "[hephaestus]") {
    // A second block cannot go on height 3, and the second build may not be a dome.
    State s = position("00000/00000/00200/00000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK(decider(s) == 1);  // nothing optional was left: the turn ended
    CHECK(to_notation(s) == "00000/00000/00300/00000/00000 A:B3,D4 B:A5,E1 B powers=Hephaestus,-");
}

TEST_CASE("Hephaestus has no second build after building a dome", "[hephaestus]") {
    State s = position("00000/00000/00300/00000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 B3"});
    CHECK_FALSE(legal(s, "build B3 C3"));
    play(s, {"dome B3 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/003D00/00000/00000 A:B3,D4 B:A5,E1 B powers=Hephaestus,-");
}

TEST_CASE("Hephaestus' opponent builds only once", "[hephaestus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 B powers=Hephaestus,-");
    play(s, {"move A5 A4", "build A4 B5"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) == "01000/00000/00000/00000/00000 A:B2,D4 B:A4,E1 A powers=Hephaestus,-");
}

TEST_CASE("Hephaestus wins by moving up to level 3", "[hephaestus]") {
    State s = position("00000/00000/00300/02000/00000 A:B2,D4 B:A5,E1 A powers=Hephaestus,-");
    play(s, {"move B2 C3"});
    CHECK(s.over());
    CHECK(s.winners == 0b01);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("Hephaestus loses when he has no legal turn", "[hephaestus]") {
    // A1 and E5 are walled in by domes.
    State s = position("0000D0/0000D0D/00000/0D0D000/00D000 A:A1,E5 B:C3,E1 A powers=Hephaestus,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
