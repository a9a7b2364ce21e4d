// Achilles, Volatile Warrior (hero). Your Turn: Once, your Worker builds both before and after
// moving.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA1): the worker that builds first moves and
// builds again; unlike Prometheus he may move up, onto the block he built too; once per game
// (Card::counter 1 = spent, notation `counter=1,0`); declining it is a normal turn.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {
bool any_first_build(const State& s) {
    for (const auto& t : legal_texts(s))
        if (t.ends_with(" first")) return true;
    return false;
}
}  // namespace

TEST_CASE("Achilles builds before and after moving, and may move up onto his first build",
          "[achilles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,-");
    play(s, {"build B2 C3 first"});
    CHECK(powers::hero_spent(s, 0));
    CHECK(legal(s, "move B2 C3"));  // up: no "not up" as for Prometheus
    play(s, {"move B2 C3", "build C3 D4"});
    CHECK(to_notation(s) ==
          "00000/00010/00100/00000/00000 A:C3,E5 B:A5,E1 B powers=Achilles,- counter=1,0");
}

TEST_CASE("Achilles: the worker that built first is the one that moves", "[achilles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,-");
    play(s, {"build B2 C3 first"});
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("move B2 "));
}

TEST_CASE("Achilles builds first once per game", "[achilles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,-");
    REQUIRE(any_first_build(s));
    play(s, {"build B2 C3 first", "move B2 C3", "build C3 D4", "move A5 A4", "build A4 A5"});
    CHECK(decider(s) == 0);
    CHECK_FALSE(any_first_build(s));
    State spent =
        position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,- counter=1,0");
    CHECK_FALSE(any_first_build(spent));
    CHECK(legal(spent, "move B2 C3"));
}

TEST_CASE("Achilles' first build is optional: a normal turn keeps the power", "[achilles]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,-");
    CHECK(legal(s, "move B2 C3"));
    CHECK(legal(s, "build E5 D4 first"));
    play(s, {"move B2 C3", "build C3 D4", "move A5 A4", "build A4 A5"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    CHECK(any_first_build(s));
}

TEST_CASE("Achilles wins by building level 3 first and moving onto it", "[achilles]") {
    // B2 and C3 on level 2: the first build makes C3 level 3.
    State s = position("00000/00000/00200/02000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,-");
    play(s, {"build B2 C3 first", "move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(powers::hero_spent(s, 0));
}

TEST_CASE("Achilles: a first build that leaves his worker no move is not offered", "[achilles]") {
    // A1 walled in by domes but for B1 on level 1: a block there first would be two levels up.
    State s = position("00000/00000/00000/3D3D000/01000 A:A1,E5 B:A5,E3 A powers=Achilles,-");
    CHECK(legal(s, "move A1 B1"));
    CHECK_FALSE(legal(s, "build A1 B1 first"));
}

TEST_CASE("Achilles under Athena's restriction may build first but not move up onto it",
          "[achilles][athena]") {
    State s = position(
        "00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Achilles,Athena memory=0,1");
    play(s, {"build B2 C3 first"});
    CHECK_FALSE(legal(s, "move B2 C3"));
    CHECK(legal(s, "move B2 B3"));
}

TEST_CASE("Achilles' first build is bound by Limus", "[achilles][limus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:D3,A5 A powers=Achilles,Limus");
    CHECK_FALSE(legal(s, "build B2 C3 first"));  // next to Limus' D3
    CHECK(legal(s, "build B2 A1 first"));
}

TEST_CASE(
    "Circe never takes Achilles, and Dionysus' extra turn with his workers builds nothing first",
    "[achilles][circe][dionysus]") {
    State c = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Achilles");
    CHECK(to_notation(c) ==
          "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Achilles");
    CHECK_FALSE(any_first_build(c));
    play(c, {"move B2 B3", "build B3 B2"});
    CHECK(any_first_build(c));  // his own turn
    State d = position(
        "00000/00000/00000/003D00/00000 A:B1,E5 B:A5,E1 A powers=Dionysus,Achilles counter=1,0 "
        "extra_turn=1");
    CHECK(legal(d, "move E1 D1"));
    CHECK_FALSE(any_first_build(d));
    CHECK_FALSE(powers::hero_spent(d, 1));
}
