// Theseus, Slayer of the Minotaur. End of Your Turn: once, if any of your Workers is exactly 2
// levels below any neighboring opponent Workers, remove one of those Workers from play.
// Rulings (docs/rulings.md HB12-HB13): one Capture step per victim, optional; spent by it.

#include <string>
#include <vector>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Theseus removes an opponent worker exactly two levels above his at the end of his turn",
          "[theseus][hero]") {
    // His worker on C3 (level 0); the opponent on D3 is level 2, on B4 level 1.
    State s = position("00000/01000/00020/00000/00000 A:C3,A1 B:D3,B4 A powers=Theseus,-");
    CHECK(legal_starting(s, "capture").empty());  // at the end of his turn only
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"capture C3 D3", "pass"});
    play(s, {"capture C3 D3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/01000/00020/00000/10000 A:C3,A2 B:-,B4 B powers=Theseus,- counter=1,0");
}

TEST_CASE("Theseus needs exactly two levels, from either of his workers, moved or not", "[theseus][hero]") {
    // D3 is three levels above C3; A1 is two levels above A2, where his other worker moves.
    State s = position("00000/00000/00030/00000/20000 A:C3,A3 B:D3,A1 A powers=Theseus,-");
    play(s, {"move A3 A2", "build A2 A3"});
    CHECK(legal_starting(s, "capture") == std::vector<std::string>{"capture A2 A1"});
}

TEST_CASE("Theseus' power is optional and kept when declined", "[theseus][hero]") {
    State s = position("00000/00000/00020/00000/00000 A:C3,A1 B:D3,E5 A powers=Theseus,-");
    play(s, {"move A1 A2", "build A2 A1", "pass"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    play(s, {"move E5 E4", "build E4 E5", "move A2 B2", "build B2 B1"});
    CHECK(legal_starting(s, "capture") == std::vector<std::string>{"capture C3 D3"});
}

TEST_CASE("Theseus removes one worker once per game", "[theseus][hero]") {
    // Both opponent workers are two levels above C3.
    State s = position("00000/00020/00020/00000/00000 A:C3,A1 B:D3,D4 A powers=Theseus,-");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(legal_starting(s, "capture") == std::vector<std::string>{"capture C3 D3", "capture C3 D4"});
    play(s, {"capture C3 D3"});
    CHECK(decider(s) == 1);  // one of those workers only
    play(s, {"move D4 D3", "build D3 D4", "move A2 B2", "build B2 B1"});
    CHECK(decider(s) == 1);  // D3 is two levels above C3 again, but the power is spent
    CHECK(powers::hero_spent(s, 0));
}

TEST_CASE("Theseus' removal leaving the opponent's other worker stuck wins the game", "[theseus][hero]") {
    // The opponent's E5 is walled in by domes; its D3 worker is two levels above C3.
    State s = position("0000D0/0000D0D/00020/00000/00000 A:C3,A1 B:D3,E5 A powers=Theseus,-");
    play(s, {"move A1 A2", "build A2 A1", "capture C3 D3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Theseus cannot slay a worker he cannot see (Hecate)", "[theseus][hero][hecate]") {
    State s = position("00000/00000/00020/00000/00000 A:C3,A1 B:D3,E5 A powers=Theseus,Hecate");
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(legal_starting(s, "capture").empty());
    CHECK(decider(s) == 1);
}

TEST_CASE("Circe never takes Theseus' card; Theseus is banned against Nemesis", "[theseus][hero][circe]") {
    // Theseus' workers do not neighbour each other: Circe would take a god's card.
    State s = position("00000/00000/00000/00000/00000 A:A1,E5 B:C3,C4 B powers=Theseus,Circe");
    CHECK(s.holder[0] == 0);
    CHECK(banned_pair(PowerId::Theseus, PowerId::Nemesis));
}

TEST_CASE("Theseus' card state reads and writes in notation", "[theseus][hero][notation]") {
    const char* text = "00000/00000/00020/00000/00000 A:C3,A1 B:D3,E5 A powers=Theseus,- counter=1,0";
    State s = position(text);
    CHECK(to_notation(s) == text);
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Bellerophon's climb can leave his worker two levels above Theseus': it may be slain",
          "[theseus][bellerophon][hero]") {
    // Rulings HA5 and HB12: the climb (C2 on the ground to C3 on level 2) is a move like any
    // other; at the end of Theseus' next turn the worker stands exactly two levels above his D3.
    State s = position("00000/00000/00200/00000/00000 A:D3,A5 B:C2,E1 B powers=Theseus,Bellerophon");
    play(s, {"move C2 C3", "build C3 C4", "move A5 A4", "build A4 A5"});
    CHECK(legal(s, "capture D3 C3"));
    play(s, {"capture D3 C3"});
    CHECK(s.worker_at(*parse_square("C3")) < 0);
    CHECK(powers::hero_spent(s, 0));
    CHECK(powers::hero_spent(s, 1));
    CHECK(decider(s) == 1);  // his other worker still has a turn
}
