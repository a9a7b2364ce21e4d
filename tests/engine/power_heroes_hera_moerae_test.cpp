// Hera and Moerae against the heroes Jason, Medea, Odysseus, Polyphemus and Theseus.
// Hera: an opponent cannot win by moving into a perimeter space (ruling A1). Moerae: an opponent
// worker winning by moving into her Fate wins for her instead (H1). Ruling HB15: a hero's power
// (Jason's placement, Medea's removal, Odysseus' force, Polyphemus' domes, Theseus' capture) is
// no move, so neither card ever judges it; the hero's own moves are judged as any move, and a
// side the power leaves without a turn loses at its turn start whatever Hera says.
// Moerae against Odysseus: power_moerae_test.cpp (docs/rulings.md A1, H1, HB15).

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Jason against Hera: he places on the perimeter as usual; his placed worker's "
          "climb wins on the inside only",
          "[hera][jason][hero]") {
    State hera = position("00000/00000/00000/00000/00000 A:C3,D3 B:D5,E5 A powers=Jason,Hera reserve=1,0");
    State none = position("00000/00000/00000/00000/00000 A:C3,D3 B:D5,E5 A powers=Jason,- reserve=1,0");
    CHECK(legal_starting(hera, "place").size() == 14);  // the perimeter but D5 and E5
    CHECK(legal_starting(hera, "place") == legal_starting(none, "place"));
    play(hera, {"place A1", "build A1 A2"});
    CHECK_FALSE(hera.over());
    CHECK(decider(hera) == 1);
    CHECK(powers::hero_spent(hera, 0));

    // His placed worker (the third listed) on A2 (2): A1 and A3 (3) are perimeter, B3 (3) inside.
    const char* fen = "00000/00000/33000/20000/30000 A:C4,D4,A2 B:E1,E5 A powers=Jason,Hera counter=1,0";
    for (const char* onto : {"move A2 A1", "move A2 A3"}) {
        State s = position(fen);
        play(s, {onto});
        CHECK_FALSE(s.over());
    }
    State inside = position(fen);
    play(inside, {"move A2 B3"});
    REQUIRE(inside.over());
    CHECK(inside.winners == 0b01);
}

TEST_CASE("Jason against Moerae: a placement into her Fate is nothing; his placed worker's "
          "climb into it wins for her",
          "[moerae][jason][hero]") {
    // The Fate is A1, B1, A2, B2 (data 63).
    State s = position("00000/00000/00000/00000/00000 A:C3,D3 B:C5,D5,E5 A powers=Jason,Moerae data=0,63 reserve=1,0");
    play(s, {"place A1", "build A1 B2"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);

    State climb = position(
        "00000/00000/20000/30000/00000 A:C3,D3,A3 B:C5,D5,E5 A powers=Jason,Moerae counter=1,0 data=0,63");
    play(climb, {"move A3 A2"});
    REQUIRE(climb.over());
    CHECK(climb.winners == 0b10);
}

TEST_CASE("Medea against Hera: her perimeter climb wins nothing, and her removal after it "
          "is no move either",
          "[hera][medea][hero]") {
    // Her worker on B2 (2) next to A1 (3, perimeter) and C3 (3, inside); her unmoved worker on B1.
    const char* fen = "00000/00000/00300/02000/30000 A:B2,B1 B:D5,E5 A powers=Medea,Hera";
    State s = position(fen);
    play(s, {"move B2 A1", "build A1 A2"});
    CHECK_FALSE(s.over());
    CHECK(legal_starting(s, "remove") == sorted({"remove B1 A1"}));
    play(s, {"remove B1 A1"});
    CHECK_FALSE(s.over());
    CHECK(s.board.height(*parse_square("A1")) == 2);
    CHECK(powers::hero_spent(s, 0));

    State inside = position(fen);
    play(inside, {"move B2 C3"});
    REQUIRE(inside.over());
    CHECK(inside.winners == 0b01);
}

TEST_CASE("Medea against Moerae: her climb into the Fate wins for Moerae before any removal",
          "[moerae][medea][hero]") {
    // The Fate is B2, C2, B3, C3 (data 18c0); D2 on level 2, C2 on level 3.
    State s = position("00000/00000/00000/00320/00000 A:D2,D1 B:A5,B5,C5 A powers=Medea,Moerae data=0,18c0");
    play(s, {"move D2 C2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    CHECK_FALSE(powers::hero_spent(s, 0));
}

TEST_CASE("Odysseus against Hera: his forces change nothing for his own perimeter climb",
          "[hera][odysseus][hero]") {
    // Hera's D4 neighbours his C4; his B2 (2) next to A1 (3, a perimeter corner) and C3 (3).
    const char* fen = "00000/00000/00300/02000/30000 A:C4,B2 B:D4,E3 A powers=Odysseus,Hera";
    State s = position(fen);
    CHECK(legal(s, "force D4 A1"));  // a corner on any level (HB8)
    play(s, {"force D4 E5", "move B2 A1"});
    CHECK_FALSE(s.over());
    CHECK(powers::hero_spent(s, 0));

    State inside = position(fen);
    play(inside, {"force D4 E5", "move B2 C3"});
    REQUIRE(inside.over());
    CHECK(inside.winners == 0b01);
}

TEST_CASE("Polyphemus against Hera: a denied perimeter climb, then domes that shut Hera in: "
          "she loses at her turn start",
          "[hera][polyphemus][hero]") {
    // Hera on E5 and E4; D5 and E3 are domed already, so D4 and D3 shut her in.
    State s = position("0000D0/00000/00000D/02000/30000 A:B2,C1 B:E5,E4 A powers=Polyphemus,Hera");
    play(s, {"move B2 A1"});
    CHECK_FALSE(s.over());
    play(s, {"build A1 A2", "dome A1 D4"});
    CHECK_FALSE(s.over());
    play(s, {"dome A1 D3"});
    // Not a win by moving: Hera's worker-less turn is lost whatever square he stands on.
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Polyphemus against Moerae: his climb into the Fate wins for her; no dome follows",
          "[moerae][polyphemus][hero]") {
    State s =
        position("00000/00000/00000/00320/00000 A:D2,D1 B:A5,B5,C5 A powers=Polyphemus,Moerae data=0,18c0");
    play(s, {"move D2 C2"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    CHECK_FALSE(powers::hero_spent(s, 0));
}

TEST_CASE("Theseus against Hera: a denied perimeter climb, then a capture of her last worker: "
          "she loses at her turn start",
          "[hera][theseus][hero]") {
    // His B2 (2) climbs onto A1 (3); his D2 (1) is two levels below Hera's last worker on E3 (3).
    State s = position("00000/00000/00003/02010/30000 A:B2,D2 B:E3 A powers=Theseus,Hera");
    play(s, {"move B2 A1", "build A1 B2"});
    CHECK_FALSE(s.over());
    CHECK(legal_starting(s, "capture") == sorted({"capture D2 E3"}));
    play(s, {"capture D2 E3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Theseus against Moerae: capturing her worker in the Fate is nothing; his climb into "
          "it wins for her",
          "[moerae][theseus][hero]") {
    // Moerae's C3 (3) stands in her Fate two levels above his D3 (1).
    State s = position(
        "00000/00000/00310/00000/00000 A:D3,E1 B:C3,A5,B5 A powers=Theseus,Moerae data=0,18c0");
    play(s, {"move E1 E2", "build E2 E1", "capture D3 C3"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
    CHECK(powers::hero_spent(s, 0));

    // His D3 (2) next to C3 (3) in the Fate.
    State climb = position(
        "00000/00000/00320/00000/00000 A:D3,E1 B:A5,B5,E5 A powers=Theseus,Moerae data=0,18c0");
    play(climb, {"move D3 C3"});
    REQUIRE(climb.over());
    CHECK(climb.winners == 0b10);
}
