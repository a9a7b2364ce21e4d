// Atalanta, Swift Huntress (hero). Your Move: Once, your Worker moves any number of additional
// times.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA3): the worker that moved may move again, each
// a normal move, any number of times, to any square (her start too) but never into a state the
// turn has passed through (the loop guard); the second move spends the power; the build ends
// the moves; a win is checked after each move.

#include <string>
#include <vector>

#include "engine/santorini/perft.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Atalanta's worker moves any number of additional times, once per game", "[atalanta]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,-");
    play(s, {"move B2 C3"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    CHECK(legal(s, "move C3 D3"));
    CHECK_FALSE(legal(s, "move E5 D5"));  // the same worker only
    play(s, {"move C3 D3"});
    CHECK(powers::hero_spent(s, 0));
    play(s, {"move D3 D2", "move D2 C1", "build C1 D1"});
    CHECK(to_notation(s) ==
          "00000/00000/00000/00000/00010 A:C1,E5 B:A5,E1 B powers=Atalanta,- counter=1,0");
    play(s, {"move A5 A4", "build A4 A5", "move C1 C2"});
    CHECK(legal_starting(s, "move").empty());  // spent: one move, then the build
}

TEST_CASE("Atalanta's additional moves are optional: one move and a build keep the power",
          "[atalanta]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,-");
    play(s, {"move B2 C3", "build C3 C4"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(powers::hero_spent(s, 0));
    State spent =
        position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,- counter=1,0");
    play(spent, {"move B2 C3"});
    CHECK(legal_starting(spent, "move").empty());
}

TEST_CASE("Atalanta may come back to her starting square, but never repeats a state of the turn",
          "[atalanta]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,-");
    play(s, {"move B2 C3"});
    CHECK(legal(s, "move C3 B2"));  // unlike Artemis
    play(s, {"move C3 B2", "move B2 C3"});
    CHECK_FALSE(legal(s, "move C3 B2"));  // B2 after two or more moves: already passed through
    CHECK(legal(s, "move C3 C2"));
}

TEST_CASE("Atalanta wins by moving up to level 3 in the middle of her moves", "[atalanta]") {
    State s = position("00000/00000/00030/00120/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,-");
    play(s, {"move B2 C2", "move C2 D2", "move D2 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Atalanta's power is spent by a second move that wins", "[atalanta][hero]") {
    // Spent from the use's first step (ruling HA3), whatever that step does: a second move that
    // wins spends it as one that does not. Her end boards after one turn are then one per
    // placement and card state: 253, where a winning second move leaving the card unspent
    // beside the same placement reached with it spent made 254.
    const char* text = "00100/02310/12020/01210/00001 A:B4,C2 B:D4,B2 A powers=Atalanta,-";
    State s = position(text);
    play(s, {"move C2 D3", "move D3 C4"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(powers::hero_spent(s, 0));
    CHECK(perft_distinct(position(text)) == 253);
    // A win by the first move is no use: the power stays.
    State first = position(text);
    play(first, {"move B4 C4"});
    REQUIRE(first.over());
    CHECK_FALSE(powers::hero_spent(first, 0));
}

TEST_CASE("Atalanta's further moves are normal moves: one level up at most", "[atalanta]") {
    State s = position("00000/00000/00200/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,-");
    play(s, {"move B2 B3"});
    CHECK_FALSE(legal(s, "move B3 C3"));
    CHECK(legal(s, "move B3 C4"));
}

TEST_CASE("Athena's restriction binds Atalanta's further moves", "[atalanta][athena]") {
    State s = position(
        "00000/00000/00100/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,Athena memory=0,1");
    play(s, {"move B2 B3"});
    CHECK_FALSE(legal(s, "move B3 C3"));
    CHECK(legal(s, "move B3 C4"));
}

TEST_CASE("Hypnus' frozen worker makes no further moves either", "[atalanta][hypnus]") {
    // E5 on level 1 is Atalanta's highest worker: frozen.
    State s = position("00001/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,Hypnus");
    CHECK(legal_starting(s, "move E5").empty());
    play(s, {"move B2 C3", "move C3 D4"});
    CHECK(legal(s, "move D4 D3"));
}

TEST_CASE("Persephone cannot make Atalanta use her moves to move up", "[atalanta][persephone]") {
    // D3 on level 1 is two moves away from B2; E5's neighbours are all on the ground.
    State s =
        position("00000/00000/00010/00000/00000 A:B2,E5 B:A5,E1 A powers=Atalanta,Persephone");
    CHECK(s.turn.if_possible_waived);
    play(s, {"move B2 A1", "build A1 A2"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(powers::hero_spent(s, 0));
}

TEST_CASE("Aphrodite's bound worker may leave with Atalanta's moves if it comes back",
          "[atalanta][aphrodite]") {
    // B2 starts next to Aphrodite's C3: its last move must end next to one of her workers.
    State s = position("00000/00000/00000/00000/00000 A:C3,E1 B:B2,E5 B powers=Aphrodite,Atalanta");
    CHECK(legal(s, "move B2 A1"));
    play(s, {"move B2 A1"});
    CHECK(legal_starting(s, "build").empty());
    CHECK(legal(s, "move A1 B2"));
    play(s, {"move A1 B2", "build B2 B1"});
    CHECK(decider(s) == 0);
    // Spent, she has one move: away from Aphrodite is no longer possible.
    State spent = position(
        "00000/00000/00000/00000/00000 A:C3,E1 B:B2,E5 B powers=Aphrodite,Atalanta counter=0,1");
    CHECK_FALSE(legal(spent, "move B2 A1"));
}
