// Aeolus, God of the Winds. Setup: orient the Wind in any of the 8 directions. End of Your
// Turn: orient the Wind to any of the eight directions. Any Move: Workers cannot move directly
// into the Wind. Rulings W1-W3, W7 (docs/rulings.md). The Wind is Card::memory = direction + 1
// (memory=1 is N: the Wind blows north, so nobody moves south).

#include "scenario.hpp"

#include "engine/santorini/powers/card_tokens.hpp"

using namespace santorini;


TEST_CASE("Aeolus orients the Wind after placement, then the first turn starts", "[aeolus]") {
    State s = fixed_game({PowerId::Aeolus, PowerId::Apollo}, false);
    play(s, {"place A1", "place B1", "place D5", "place E5"});
    CHECK(s.phase == Phase::Token);
    CHECK(decider(s) == 0);
    CHECK(sorted(legal_texts(s)) == all_aims);
    play(s, {"aim SW"});
    CHECK(powers::wind(s, 0) == 5);
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 0);
}

TEST_CASE("Aeolus: no worker moves into the Wind, his own or the opponent's", "[aeolus]") {
    // The Wind blows north: a move south (C3 to C2) is directly into it; south-west and
    // south-east are not (ruling W2: only the one direction).
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A5,E1 A powers=Aeolus,- memory=1,0");
    CHECK_FALSE(legal(s, "move C3 C2"));
    CHECK(legal(s, "move C3 B2"));
    CHECK(legal(s, "move C3 D2"));
    CHECK(legal(s, "move C3 C4"));
    CHECK(legal(s, "move C3 B3"));
    State b = position("00000/00000/00000/00000/00000 A:C3,E5 B:A5,E2 B powers=Aeolus,- memory=1,0");
    CHECK_FALSE(legal(b, "move E2 E1"));
    CHECK(legal(b, "move E2 D1"));
    CHECK(legal(b, "move E2 D2"));
    CHECK_FALSE(legal(b, "move A5 A4"));
    CHECK(legal(b, "move A5 B5"));
}

TEST_CASE("Aeolus must orient the Wind at the end of his turn; the same direction is allowed", "[aeolus]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A5,E1 A powers=Aeolus,- memory=1,0");
    play(s, {"move C3 C4", "build C4 C5"});
    CHECK(s.phase == Phase::End);
    CHECK(sorted(legal_texts(s)) == all_aims);  // no pass: the re-aim is mandatory
    play(s, {"aim N"});
    CHECK(decider(s) == 1);
    CHECK(powers::wind(s, 0) == 0);
    CHECK(to_notation(s) == "00100/00000/00000/00000/00000 A:C4,E5 B:A5,E1 B powers=Aeolus,- memory=1,0");
}

TEST_CASE("Aeolus' new Wind binds the opponent's next turn", "[aeolus]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A5,E2 A powers=Aeolus,- memory=1,0");
    play(s, {"move C3 C4", "build C4 C5", "aim S"});  // blows south: nobody moves north
    CHECK(decider(s) == 1);
    CHECK_FALSE(legal(s, "move E2 E3"));
    CHECK(legal(s, "move E2 E1"));
    CHECK(to_notation(s) == "00100/00000/00000/00000/00000 A:C4,E5 B:A5,E2 B powers=Aeolus,- memory=5,0");
}

TEST_CASE("Aeolus' Wind does not bind forced workers (Apollo's swap)", "[aeolus]") {
    // The Wind blows east: no move west. Apollo's worker on C3 moves east into D3 and swaps the
    // Aeolus worker back west to C3: forced, so allowed. Apollo himself cannot move west.
    State s = position("00000/00000/00000/00000/00000 A:D3,A5 B:C3,E1 B powers=Aeolus,Apollo memory=3,0");
    CHECK(legal(s, "move C3 D3"));
    CHECK_FALSE(legal(s, "move C3 B3"));
    play(s, {"move C3 D3", "build D3 D4"});
    CHECK(to_notation(s) == "00000/00010/00000/00000/00000 A:C3,A5 B:D3,E1 A powers=Aeolus,Apollo memory=3,0");
}

TEST_CASE("Aeolus: a move across Urania's wrap goes in the direction of its step over the edge", "[aeolus][urania]") {
    // The Wind blows east, so no move west. Urania's worker on A3: E3 is west of it across the
    // edge (forbidden), B3 east (allowed); from E4 the wrap to A4 is east (allowed).
    State s = position("00000/00000/00000/00000/00000 A:A5,C1 B:A3,E4 B powers=Aeolus,Urania memory=3,0");
    CHECK_FALSE(legal(s, "move A3 E3"));
    CHECK(legal(s, "move A3 E2"));  // south-west: not into the Wind
    CHECK(legal(s, "move A3 B3"));
    CHECK(legal(s, "move E4 A4"));
    CHECK_FALSE(legal(s, "move E4 D4"));
}

TEST_CASE("Aeolus in the Golden Fleece: the Ram's placer orients the Wind, the holder re-aims", "[aeolus][fleece]") {
    State s = fixed_game({PowerId::Aeolus}, true);
    play(s, {"place A1", "place B1", "place D5", "place E5", "token B2"});
    CHECK(s.phase == Phase::Token);
    CHECK(decider(s) == 0);  // the start player placed the Ram
    CHECK(sorted(legal_texts(s)) == all_aims);
    play(s, {"aim E"});  // nobody moves west
    CHECK(powers::wind(s, 0) == 2);
    CHECK(decider(s) == 1);  // the other player starts (GF)
    CHECK_FALSE(legal(s, "move D5 C5"));
    play(s, {"move D5 C4", "build C4 C5"});
    CHECK(decider(s) == 0);  // B does not touch the Ram: no re-aim
    CHECK(s.fleece_holders == 1);
    CHECK(legal(s, "move A1 A2"));
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(sorted(legal_texts(s)) == all_aims);  // A holds the fleece: must re-aim
    play(s, {"aim N"});
    CHECK(powers::wind(s, 0) == 0);
    CHECK(decider(s) == 1);
}
