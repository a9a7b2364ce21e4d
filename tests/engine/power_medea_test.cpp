// Medea, Powerful Sorceress. End of Your Turn: once, remove one block from under any number of
// Workers neighboring your unmoved Worker. You also remove any Tokens on the blocks.
// Rulings (docs/rulings.md HB4-HB6): any worker next to her unmoved worker, hers or an
// opponent's; one block each, one Remove step each; spent from the first removal, optional.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Medea lowers the workers next to her unmoved worker at the end of her turn", "[medea][hero]") {
    // Her unmoved worker on C3; an opponent on D3 (level 2) and one on B4 (level 1) next to it.
    State s = position("00000/01000/00020/00000/00000 A:C3,A1 B:D3,B4 A powers=Medea,-");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"pass", "remove C3 B4", "remove C3 D3"});
    play(s, {"remove C3 D3"});
    CHECK(powers::hero_spent(s, 0));
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"pass", "remove C3 B4"});  // D3 once only
    play(s, {"remove C3 B4"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00010/00000/10000 A:C3,A2 B:D3,B4 B powers=Medea,- counter=1,0");
}

TEST_CASE("Medea may lower her own moved worker, but nobody next to her moved worker only", "[medea][hero]") {
    // A1 moves to B2 (level 1), next to her unmoved C3; the opponent on E1 (level 1) is next to
    // nobody of hers that stayed.
    State s = position("00000/00000/00000/01000/00001 A:C3,A1 B:E1,E5 A powers=Medea,-");
    play(s, {"move A1 B2", "build B2 A1"});
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"pass", "remove C3 B2"});
    play(s, {"remove C3 B2"});
    CHECK(s.board.height(*parse_square("B2")) == 0);
    CHECK(decider(s) == 1);
}

TEST_CASE("Medea's power is optional, and used once per game", "[medea][hero]") {
    State s = position("00000/00000/00020/00000/00000 A:C3,A1 B:D3,E5 A powers=Medea,-");
    play(s, {"move A1 A2", "build A2 A1", "pass"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    CHECK(s.board.height(*parse_square("D3")) == 2);
    play(s, {"move E5 E4", "build E4 E5", "move A2 B2", "build B2 B1", "remove C3 D3"});
    CHECK(powers::hero_spent(s, 0));
    play(s, {"move E4 E3", "build E3 E4", "move B2 A2", "build A2 B1"});
    CHECK(decider(s) == 1);  // D3 is still on a block (level 1), but the power is spent
    CHECK(s.board.height(*parse_square("D3")) == 1);
}

TEST_CASE("Medea's removal keeps an opponent from climbing to win", "[medea][hero]") {
    // The opponent on D3 (level 2) would step onto D4 (level 3) next turn.
    State s = position("00000/00030/00020/00000/00000 A:C3,A1 B:D3,E1 A powers=Medea,-");
    State kept = s;
    play(kept, {"move A1 A2", "build A2 A1", "pass"});
    CHECK(legal(kept, "move D3 D4"));
    play(s, {"move A1 A2", "build A2 A1", "remove C3 D3"});
    CHECK_FALSE(legal(s, "move D3 D4"));  // level 1 now: two up is too far
}

TEST_CASE("Medea's removal takes the tokens on the block with it (Clio's coin)", "[medea][hero][clio]") {
    // Clio's worker stands on her coin on D3 (a block with a coin).
    State s = position("00000/00000/00010/00000/00000 A:C3,A1 B:D3,E5 A powers=Medea,Clio counter=0,1 tokens=-,D3");
    play(s, {"move A1 A2", "build A2 A1", "remove C3 D3"});
    CHECK(s.board.height(*parse_square("D3")) == 0);
    CHECK(s.card(1).tokens == 0);
}

TEST_CASE("Medea's card state reads and writes in notation", "[medea][hero][notation]") {
    const char* text = "00000/00000/00020/00000/00000 A:C3,A1 B:D3,E5 A powers=Medea,- counter=1,0";
    State s = position(text);
    CHECK(to_notation(s) == text);
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 1);  // spent: no removal offered, the turn ends at once
}

TEST_CASE("Medea's power is hers: not in Dionysus' extra turn on her workers", "[medea][hero][dionysus]") {
    // Dionysus moves Medea's workers in his extra turn; her End powers do not run in it.
    State s = position("00000/00000/00020/00000/00000 A:C3,A1 B:D3,E5 B powers=Medea,Dionysus counter=0,1 extra_turn=1");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(s.turn.seat == 0);  // his extra turn ended without any removal
    CHECK(s.board.height(*parse_square("D3")) == 2);
    CHECK_FALSE(powers::hero_spent(s, 0));
}
