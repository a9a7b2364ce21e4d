// Adonis, Devastatingly Handsome (hero). End of Your Turn: Once, choose an opponent Worker. If
// possible, that Worker must be neighboring one of your Workers at the end of their next turn.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA2, HA4, HA9-HA11): `select C3` at the end of
// his turn spends the power and keeps the worker on his card (notation `memory=` worker + 1);
// the demand is the core's "if possible" (judged at the opponent's turn start, waived when no
// complete turn without a hero power meets it); forgotten when that turn ends.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Adonis charms an opponent worker, which must end its next turn next to his workers",
          "[adonis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Adonis,-");
    play(s, {"move B2 B3", "build B3 B2"});
    CHECK(sorted(legal_texts(s)) == sorted({"pass", "select A5", "select E1"}));
    play(s, {"select A5"});
    CHECK(powers::hero_spent(s, 0));
    CHECK(powers::adonis_charmed(s, 0) == 2);
    CHECK(to_notation(s) ==
          "00000/00000/00000/01000/00000 A:B3,E5 B:A5,E1 B powers=Adonis,- memory=3,0 counter=1,0");
    CHECK_FALSE(s.turn.if_possible_waived);
    CHECK(legal_starting(s, "move") == sorted({"move A5 A4", "move A5 B4"}));
    play(s, {"move A5 B4", "build B4 C5"});
    CHECK(decider(s) == 0);
    CHECK(powers::adonis_charmed(s, 0) == -1);  // forgotten after that turn
    CHECK(to_notation(s) ==
          "00100/00000/00000/01000/00000 A:B3,E5 B:B4,E1 A powers=Adonis,- counter=1,0");
}

TEST_CASE("Adonis charms once per game, and only his opponent's next turn is bound", "[adonis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Adonis,-");
    play(s, {"move B2 B3", "build B3 B2", "select A5", "move A5 A4", "build A4 A5"});
    play(s, {"move B3 C3", "build C3 C2"});
    CHECK(decider(s) == 1);  // no second choice: the turn ended with the build
    CHECK(legal(s, "move A4 A3"));
    CHECK(legal(s, "move E1 D1"));
}

TEST_CASE("Adonis' choice is optional: passing keeps the power", "[adonis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Adonis,-");
    play(s, {"move B2 B3", "build B3 B2", "pass"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(powers::hero_spent(s, 0));
    CHECK(legal(s, "move E1 D1"));
}

TEST_CASE("Adonis' demand is waived when the charmed worker cannot reach his workers", "[adonis]") {
    State s = position(
        "00000/00000/00000/00000/00000 A:A1,B1 B:E5,E4 B powers=Adonis,- memory=3,0 counter=1,0");
    CHECK(s.turn.if_possible_waived);
    CHECK(legal(s, "move E4 E3"));
    CHECK(legal(s, "move E5 D5"));
}

TEST_CASE("Adonis: the opponent may not win with a turn that leaves the charmed worker away",
          "[adonis]") {
    // E1 (level 2) could win on D1 (level 3), but A5 can end next to Adonis' B3.
    State s = position(
        "00000/00000/00000/00000/00032 A:B3,B1 B:A5,E1 B powers=Adonis,- memory=3,0 counter=1,0");
    CHECK_FALSE(s.turn.if_possible_waived);
    CHECK_FALSE(legal(s, "move E1 D1"));
    CHECK(legal(s, "move A5 A4"));
    // Once the demand is met or waived, the win stands.
    State free =
        position("00000/00000/00000/00000/00032 A:B3,B1 B:A5,E1 B powers=Adonis,- counter=1,0");
    play(free, {"move E1 D1"});
    CHECK(free.over());
}

TEST_CASE("Adonis' charmed worker may win next to his workers", "[adonis]") {
    State s = position(
        "00000/30000/20000/00000/00000 A:B3,E1 B:A3,E5 B powers=Adonis,- memory=3,0 counter=1,0");
    play(s, {"move A3 A4"});  // A4 neighbours B3
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE(
    "Adonis cannot make a hero's power be used: a demand only Atalanta's moves meet is waived",
    "[adonis][atalanta]") {
    // A5 reaches a space next to C2 or E1 only by moving three times (B5, C4, then B3-D3).
    State s = position(
        "00000/0D0D000/00000/00000/00000 A:C2,E1 B:A5,E5 B powers=Adonis,Atalanta memory=3,0 "
        "counter=1,0");
    CHECK(s.turn.if_possible_waived);
}

TEST_CASE("Circe never takes Adonis; Adonis cannot choose Hecate's hidden workers",
          "[adonis][circe][hecate]") {
    State c = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Adonis");
    CHECK(to_notation(c) == "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Adonis");
    play(c, {"move B2 B3", "build B3 B2"});
    CHECK(decider(c) == 1);  // Circe has no choice to make
    State h = position("00000/00000/00000/00000/00000 A:B2,E5 B:C3,E1 A powers=Adonis,Hecate");
    play(h, {"move B2 A2", "build A2 A1"});
    CHECK(decider(h) == 1);  // nothing to select on his view: the turn ended
    CHECK_FALSE(powers::hero_spent(h, 0));
}

TEST_CASE("Adonis' card reads and writes in notation: the charmed worker and the spent power",
          "[adonis][notation]") {
    for (const char* text : {
             "00000/00000/00000/01000/00000 A:B3,E5 B:A5,E1 B powers=Adonis,- memory=3,0 "
             "counter=1,0",
             "00000/00000/00000/01000/00000 A:B3,E5 B:A5,E1 A powers=Adonis,- counter=1,0",
             "00000/00000/00000/01000/00000 A:B3,E5 B:A5,E1 A powers=Atalanta,Heracles counter=1,1",
         }) {
        State s = position(text);
        CHECK(to_notation(s) == text);
    }
    State s = position(
        "00000/00000/00000/01000/00000 A:B3,E5 B:A5,E1 B powers=Adonis,- memory=3,0 counter=1,0");
    CHECK(powers::adonis_charmed(s, 0) == 2);
    CHECK(powers::hero_spent(s, 0));
}
