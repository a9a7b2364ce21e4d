// Odysseus, Cunning Leader. Start of Your Turn: once, force to unoccupied corner spaces any
// number of opponent Workers that neighbor your Workers.
// Rulings (docs/rulings.md HB7-HB9): before anything else of his turn, one Force step each,
// each opponent worker at most once; spent from the first force; then his normal turn.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Odysseus forces neighbouring opponent workers to unoccupied corners, then plays his turn",
          "[odysseus][hero]") {
    // His workers on C3 and B2; the opponent on D4 (next to C3) and E2 (next to nobody). The
    // corner A5 has a dome.
    State s = position("0D0000/00000/00000/00000/00000 A:C3,B2 B:D4,E2 A powers=Odysseus,-");
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force D4 A1", "force D4 E1", "force D4 E5"});
    play(s, {"force D4 E5"});
    CHECK(powers::hero_spent(s, 0));
    CHECK(legal_starting(s, "force").empty());  // D4 went to E5, no longer next to him
    play(s, {"move C3 D4", "build D4 D5"});
    CHECK(to_notation(s) == "0D0010/00000/00000/00000/00000 A:D4,B2 B:E5,E2 B powers=Odysseus,- counter=1,0");
}

TEST_CASE("Odysseus forces any number of workers, each once, until he moves", "[odysseus][hero]") {
    // B3 and C2 both neighbour his B2.
    State s = position("00000/00000/00000/00000/00000 A:B2,E5 B:B3,C2 A powers=Odysseus,-");
    play(s, {"force B3 A1"});  // A1 still neighbours B2: a forced worker is not forced again
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force C2 A5", "force C2 E1"});
    play(s, {"force C2 E1", "move B2 C2"});
    CHECK(legal_starting(s, "force").empty());
    play(s, {"build C2 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:C2,E5 B:A1,E1 B powers=Odysseus,- counter=1,0");
}

TEST_CASE("Odysseus' power is optional and once per game", "[odysseus][hero]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,A3 B:D4,E2 A powers=Odysseus,-");
    CHECK_FALSE(legal_starting(s, "move").empty());
    play(s, {"move A3 A2", "build A2 A3"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    play(s, {"move E2 D2", "build D2 E2"});
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force D2 A1", "force D2 A5", "force D2 E1",
                                                                 "force D2 E5", "force D4 A1", "force D4 A5",
                                                                 "force D4 E1", "force D4 E5"});
    play(s, {"force D4 A5", "move C3 C4", "build C4 C3", "move D2 D3", "build D3 D2"});
    CHECK(legal_starting(s, "force").empty());  // D3 neighbours C4, but the power is spent
}

TEST_CASE("Odysseus forces onto a corner at any level; the forced worker does not win", "[odysseus][hero]") {
    // E1 is level 3: forced there, the opponent does not win (a force is no move).
    State s = position("00000/00000/00000/00020/00003 A:C3,A3 B:D2,A5 A powers=Odysseus,-");
    play(s, {"force D2 E1"});
    CHECK_FALSE(s.over());
    play(s, {"move C3 C4", "build C4 C3"});
    CHECK_FALSE(s.over());
    CHECK(s.turn.seat == 1);
}

TEST_CASE("Odysseus' forces are not moves: Athena's ban on moving up does not stop them", "[odysseus][hero][athena]") {
    // Athena (seat B) moved up on her last turn (memory=0,1): Odysseus may not move up, but
    // forcing her worker up onto the level-2 corner E1 is no move of his.
    State s = position("00000/00100/00000/00000/00002 A:C3,A3 B:D2,A5 A powers=Odysseus,Athena memory=0,1");
    CHECK_FALSE(legal(s, "move C3 C4"));
    CHECK(legal(s, "force D2 E1"));
    play(s, {"force D2 E1", "move C3 D3", "build D3 D2"});
    CHECK(s.turn.seat == 1);
}

TEST_CASE("Odysseus' corners exclude domes and what counts as a dome (Talus)", "[odysseus][hero][europa]") {
    State s = position("0D0000/00000/00000/00000/00000 A:C3,B2 B:D4,E2 A powers=Odysseus,EuropaTalus tokens=-,E1");
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force D4 A1", "force D4 E5"});
}

TEST_CASE("Odysseus forcing onto the Abyss makes Tartarus lose", "[odysseus][hero][tartarus]") {
    // The Abyss is on A1 (data=1 on Tartarus' card).
    State s = position("00000/00000/00000/00000/00000 A:C3,B2 B:D4,E3 A powers=Odysseus,Tartarus data=0,1");
    play(s, {"force D4 A1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Odysseus' power is his own: not offered in Dionysus' extra turn", "[odysseus][hero][dionysus]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,B2 B:D4,E3 B powers=Odysseus,Dionysus counter=0,1 extra_turn=1");
    CHECK(legal_starting(s, "force").empty());
    CHECK_FALSE(legal_starting(s, "move").empty());
}

TEST_CASE("Odysseus' card state reads and writes in notation", "[odysseus][hero][notation]") {
    const char* text = "00000/00000/00000/00000/00000 A:C3,B2 B:D4,E3 A powers=Odysseus,- counter=1,0";
    State s = position(text);
    CHECK(to_notation(s) == text);
    CHECK(legal_starting(s, "force").empty());
}

TEST_CASE("Odysseus forces from a worker Hypnus froze: the freeze binds moves only", "[odysseus][hero][hypnus]") {
    // C3 (level 1) is his highest worker: Hypnus freezes it; D4 neighbours it.
    State s = position("00000/00000/00100/00000/00000 A:C3,A1 B:D4,E1 A powers=Odysseus,Hypnus");
    CHECK(legal_starting(s, "move C3").empty());
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force D4 A5", "force D4 E5"});
    play(s, {"force D4 E5", "move A1 A2", "build A2 A1"});
    CHECK(s.turn.seat == 1);
}

TEST_CASE("Odysseus forcing Aphrodite's worker away leaves his bound worker bound", "[odysseus][hero][aphrodite]") {
    // C3 starts next to Aphrodite's D4: if it moves, it must end next to one of her workers,
    // wherever she stands after the forces.
    State s = position("00000/00000/00000/00000/00000 A:C3,A1 B:D4,E1 A powers=Odysseus,Aphrodite");
    play(s, {"force D4 E5"});
    CHECK(legal_starting(s, "move C3") == std::vector<std::string>{"move C3 D2", "move C3 D4"});
    CHECK_FALSE(legal_starting(s, "move A1").empty());  // A1 started away from her: free
}

TEST_CASE("Odysseus against Hecate forces nobody: he cannot see her workers", "[odysseus][hero][hecate]") {
    // Ruling HB14: he chooses on his view (H7), where none of her workers stand, so no force is
    // offered (and none can be cancelled); his power stays unused, as Adonis' (HA11).
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:C3,E5 A powers=Odysseus,Hecate");
    CHECK(legal_starting(s, "force").empty());
    play(s, {"move B2 B1", "build B1 A1"});
    CHECK_FALSE(powers::hero_spent(s, 0));
}
