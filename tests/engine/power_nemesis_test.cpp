// Nemesis, Goddess of Retribution: at the end of her turn, if no worker of an opponent
// neighbours hers, she may swap as many of her workers with theirs as possible.
// Rulings (docs/rulings.md T9-T11).

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Nemesis swaps both workers with the opponent's, once she begins", "[nemesis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A powers=Nemesis,-");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(s)) == sorted({"force D5 A2", "force E5 A2", "pass"}));
    play(s, {"force D5 A2"});
    CHECK(legal_texts(s) == std::vector<std::string>{"force E5 B1"});  // as many as possible: no pass
    play(s, {"force E5 B1"});
    CHECK(to_notation(s) == "00000/00000/10000/00000/00000 A:D5,E5 B:A2,B1 B powers=Nemesis,-");
}

TEST_CASE("Nemesis may decline the swap", "[nemesis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A powers=Nemesis,-");
    play(s, {"move A1 A2", "build A2 A3", "pass"});
    CHECK(to_notation(s) == "00000/00000/10000/00000/00000 A:A2,B1 B:D5,E5 B powers=Nemesis,-");
}

TEST_CASE("Nemesis cannot swap while an opponent worker neighbours one of hers", "[nemesis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:C2,E5 A powers=Nemesis,-");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Nemesis with more workers than the opponent chooses which of hers is swapped",
          "[nemesis]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:E5 A powers=Nemesis,-");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(s)) == sorted({"force E5 A2", "force E5 B1", "pass"}));
    play(s, {"force E5 B1"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/10000/00000/00000 A:A2,E5 B:B1 B powers=Nemesis,-");
}

TEST_CASE("Nemesis' swaps are forced: nobody wins by them", "[nemesis]") {
    State s = position("00030/00000/00000/20000/10000 A:A1,C1 B:D5,E5 A powers=Nemesis,-");
    play(s, {"move A1 A2", "build A2 A3", "force D5 A2", "force E5 C1"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
    CHECK(s.worker(0).square == *parse_square("D5"));
}

TEST_CASE("Nemesis in 3 players swaps with one opponent whose workers neighbour none of hers",
          "[nemesis][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 C:C2,E3 A powers=Nemesis,-,-");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(s)) == sorted({"force D5 A2", "force E5 A2", "pass"}));
    State t = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 C:D1,E3 A powers=Nemesis,-,-");
    play(t, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(t)) ==
          sorted({"force D5 A2", "force E5 A2", "force D1 A2", "force E3 A2", "pass"}));
    play(t, {"force E3 A2"});
    CHECK(legal_texts(t) == std::vector<std::string>{"force D1 B1"});  // the same opponent
}

TEST_CASE("Nemesis in 4 players swaps with the other team's workers", "[nemesis][4p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A players=4 powers=Nemesis,-,-,-");
    play(s, {"move A1 A2", "build A2 A3", "force E5 A2", "force D5 B1"});
    CHECK(to_notation(s) == "00000/00000/10000/00000/00000 A:E5,D5 B:B1,A2 B players=4 powers=Nemesis,-,-,-");
}

TEST_CASE("Nemesis against Jason's three workers swaps both of hers", "[nemesis][jason]") {
    // Ruling T9/T10: Jason's placed worker is an ordinary worker of his; "as many as possible"
    // is min(2, 3) = 2 swaps, her lowest unswapped worker taking any of his each time.
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5,E3 A powers=Nemesis,Jason counter=0,1");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(s)) == sorted({"force D5 A2", "force E3 A2", "force E5 A2", "pass"}));
    play(s, {"force E3 A2"});
    CHECK(sorted(legal_texts(s)) == sorted({"force D5 B1", "force E5 B1"}));  // no end before the second
    play(s, {"force D5 B1"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/10000/00000/00000 A:E3,D5 B:B1,E5,A2 B powers=Nemesis,Jason counter=0,1");
}

TEST_CASE("Circe holding Nemesis' card swaps with Nemesis' workers", "[nemesis][circe]") {
    // Rulings C15 and T9: Nemesis' workers are apart, so Circe uses the card until her next
    // turn; its end-of-turn retribution is hers, against its owner.
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E3 A powers=Circe,Nemesis");
    REQUIRE(s.holder[1] == 0);
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(s)) == sorted({"force D5 A2", "force E3 A2", "pass"}));
    play(s, {"force E3 A2", "force D5 B1"});
    CHECK(decider(s) == 1);
    CHECK(s.worker(0).square == *parse_square("E3"));
    CHECK(s.worker(1).square == *parse_square("D5"));
}
