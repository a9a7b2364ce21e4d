// Medusa, Petrifying Gorgon. End of Your Turn: if possible, your workers build in lower
// neighbouring spaces that are occupied by opponent workers, removing the opponent workers
// from the game.
// Rulings (RULES.md; docs/rulings.md B6): mandatory, one capture step per victim, a block on
// its space; strictly lower; a build a power forbids (Limus) is not possible, so not made.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE(
    "Medusa removes a lower neighbouring opponent worker at the end of her turn and builds there",
    "[medusa]") {
    State s = position("00000/00000/00100/00000/00000 A:C3,A1 B:D3,E5 A powers=Medusa,-");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 0);
    CHECK(legal_texts(s) == std::vector<std::string>{"capture C3 D3"});  // mandatory: no pass
    play(s, {"capture C3 D3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00110/00000/10000 A:C3,A2 B:-,E5 B powers=Medusa,-");
}

TEST_CASE("Medusa does not petrify workers on her level or above", "[medusa]") {
    State s = position("00000/00000/00120/00000/00000 A:C3,A1 B:D3,E5 A powers=Medusa,-");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00120/00000/10000 A:C3,A2 B:D3,E5 B powers=Medusa,-");
}

TEST_CASE(
    "Medusa petrifies every lower neighbour, one after another; a side left without workers loses",
    "[medusa]") {
    State s = position("00000/00010/00200/01000/00000 A:C3,A1 B:B2,D4 A powers=Medusa,-");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(legal_texts(s) == std::vector<std::string>{"capture C3 B2"});
    play(s, {"capture C3 B2"});
    CHECK(legal_texts(s) == std::vector<std::string>{"capture C3 D4"});
    play(s, {"capture C3 D4"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Medusa petrifies only at the end of her own turn", "[medusa]") {
    State s = position("00000/00000/00100/00000/00000 A:C3,A1 B:E3,E5 B powers=Medusa,-");
    play(s, {"move E3 D3", "build D3 E3"});
    CHECK(s.turn.seat == 0);
    CHECK(s.worker_at(*parse_square("D3")) >= 0);
    play(s, {"move A1 B1", "build B1 A1", "capture C3 D3"});
    CHECK(s.worker_at(*parse_square("D3")) < 0);
}

TEST_CASE("Medusa cannot petrify where Limus forbids the build", "[medusa][limus]") {
    // Limus' workers on D3 and D2 neighbour each other: a block on either space is refused.
    State s = position("00000/00000/00100/00000/00000 A:C3,A1 B:D3,D2 A powers=Medusa,Limus");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 1);
    // A Limus worker away from its partner is petrified.
    State t = position("00000/00000/00100/00000/00000 A:C3,A1 B:D3,E5 A powers=Medusa,Limus");
    play(t, {"move A1 A2", "build A2 A1"});
    CHECK(legal_texts(t) == std::vector<std::string>{"capture C3 D3"});
}

TEST_CASE("Medusa in 3 players petrifies workers of both opponents; the game goes on",
          "[medusa][3p]") {
    State s = position("00000/00000/00100/00000/00000 A:C3,A1 B:D3,E5 C:B3,E1 A powers=Medusa,-,-");
    play(s, {"move A1 A2", "build A2 A1", "capture C3 D3", "capture C3 B3"});
    CHECK_FALSE(s.over());
    CHECK(s.turn.seat == 1);
    CHECK(to_notation(s) == "00000/00000/01110/00000/10000 A:C3,A2 B:-,E5 C:-,E1 B powers=Medusa,-,-");
}

TEST_CASE("Medusa in 4 players: her teammate's turns petrify nobody", "[medusa][4p]") {
    State s =
        position("00000/00000/00100/00000/00000 A:C3,A1 B:D3,E5 C players=4 powers=Medusa,-,-,-");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(s.turn.seat == 3);
}
