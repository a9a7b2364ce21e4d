// Athena, Goddess of Wisdom. Opponent's Turn: if one of your workers moved up on your last
// turn, opponent workers cannot move up this turn.
// Rulings (RULES.md): "moved up" means a worker of hers moved (not was forced) up during her
// last turn; the restriction lasts through each opponent's next turn (3p: both opponents; 4p:
// both players of the other team, never her teammate). Her memory (notation `memory=1,...`)
// is set when her turn ends. Expected lists are worked out by hand from the rules.

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Athena: after she moved up, opponent workers cannot move up (memory=1 in notation)", "[athena]") {
    // B's worker on C3 (level 1). Around it: B2, B3, C4 level 2; C2, B4 level 1; D2, D3, D4 ground.
    const char* board = "00000/01200/02100/02100/00000 A:A1,E5 B:C3,E1 B powers=Athena,-";
    State s = position((std::string(board) + " memory=1,0").c_str());
    CHECK(legal_starting(s, "move C3") ==
          sorted({"move C3 C2", "move C3 D2", "move C3 D3", "move C3 B4", "move C3 D4"}));

    State free = position(board);
    CHECK(legal_starting(free, "move C3") == sorted({"move C3 B2", "move C3 C2", "move C3 D2", "move C3 B3",
                                                     "move C3 D3", "move C3 B4", "move C3 C4", "move C3 D4"}));
}

TEST_CASE("Athena's restriction stops an opponent's winning move up to level 3", "[athena]") {
    const char* board = "00000/00000/00230/00000/00000 A:A1,E5 B:C3,E1 B powers=Athena,-";
    State s = position((std::string(board) + " memory=1,0").c_str());
    CHECK_FALSE(legal(s, "move C3 D3"));

    State free = position(board);
    play(free, {"move C3 D3"});
    REQUIRE(free.over());
    CHECK(free.winners == 0b10);
}

TEST_CASE("Athena's memory is set at the end of a turn in which she moved up, and cleared by a turn without",
          "[athena]") {
    State s = position("00000/00000/00000/01000/00000 A:A1,E5 B:C3,E1 A powers=Athena,-");
    play(s, {"move A1 B2", "build B2 C2"});
    CHECK(to_notation(s) == "00000/00000/00000/01100/00000 A:B2,E5 B:C3,E1 B powers=Athena,- memory=1,0");
    CHECK_FALSE(legal(s, "move C3 C2"));
    play(s, {"move C3 D3", "build D3 D4"});
    // On her own turn she is not bound, and this turn she stays on the ground.
    play(s, {"move E5 E4", "build E4 E3"});
    CHECK(to_notation(s) == "00000/00010/00001/01100/00000 A:B2,E4 B:D3,E1 B powers=Athena,-");
    CHECK(legal(s, "move D3 C2"));
    CHECK(legal(s, "move D3 D4"));
}

TEST_CASE("Athena moving down does not set her memory", "[athena]") {
    State s = position("00000/00000/00000/01000/00000 A:B2,E5 B:C3,E1 A powers=Athena,- memory=1,0");
    play(s, {"move B2 A1", "build A1 A2"});
    CHECK(to_notation(s) == "00000/00000/00000/11000/00000 A:A1,E5 B:C3,E1 B powers=Athena,-");
    CHECK(legal(s, "move C3 B2"));
}

TEST_CASE("Athena's restriction does not bind Athena herself", "[athena]") {
    State s = position("00000/00000/00000/01000/00000 A:A1,E5 B:C3,E1 A powers=Athena,- memory=1,0");
    CHECK(legal(s, "move A1 B2"));
}

TEST_CASE("Athena's restriction forbids Apollo's swap up, not a swap down that forces her worker up",
          "[athena][apollo]") {
    // Apollo (seat B) on C3 level 1; Athena's workers on B3 (ground) and D3 (level 2).
    const char* board = "00000/00000/00120/00000/00000 A:B3,D3 B:C3,E1 B powers=Athena,Apollo";
    State s = position((std::string(board) + " memory=1,0").c_str());
    CHECK(legal_starting(s, "move C3") == sorted({"move C3 B2", "move C3 C2", "move C3 D2", "move C3 B3",
                                                  "move C3 B4", "move C3 C4", "move C3 D4"}));
    play(s, {"move C3 B3", "build B3 A3"});
    // Her worker was forced up during Apollo's turn: her memory is still the one of her turn.
    CHECK(to_notation(s) == "00000/00000/10120/00000/00000 A:C3,D3 B:B3,E1 A powers=Athena,Apollo memory=1,0");

    State free = position(board);
    CHECK(legal(free, "move C3 D3"));
}

TEST_CASE("Athena's restriction makes an opponent whose every move goes up lose at once", "[athena]") {
    // B's workers on A1 and E1 (ground) only have level-1 neighbours.
    const char* board = "00000/00000/00000/11011/01010 A:C5,E5 B:A1,E1 B powers=Athena,-";
    State s = position((std::string(board) + " memory=1,0").c_str());
    CHECK(s.over());
    CHECK(s.winners == 0b01);
    CHECK_FALSE(position(board).over());

    // The same by playing: Athena moves up to C4 and B cannot start a turn.
    State p = position("00000/00100/00000/11011/01010 A:C5,E5 B:A1,E1 A powers=Athena,-");
    play(p, {"move C5 C4", "build C4 C5"});
    REQUIRE(p.over());
    CHECK(p.winners == 0b01);
}

TEST_CASE("Athena in 3 players binds both opponents' turns until her next turn ends", "[athena][3p]") {
    // Level 1 on B2, D2 and C4; everyone else on the ground.
    State s = position("00000/00100/00000/01010/00000 A:A1,A5 B:D1,E3 C:C5,E5 A powers=Athena,-,-");
    play(s, {"move A1 B2", "build B2 A1"});
    CHECK(to_notation(s) ==
          "00000/00100/00000/01010/10000 A:B2,A5 B:D1,E3 C:C5,E5 B powers=Athena,-,- memory=1,0,0");
    // B is bound.
    CHECK_FALSE(legal(s, "move D1 D2"));
    CHECK_FALSE(legal(s, "move E3 D2"));
    play(s, {"move D1 C1", "build C1 D1"});
    // C is bound too.
    CHECK_FALSE(legal(s, "move C5 C4"));
    play(s, {"move C5 B5", "build B5 C5"});
    // Athena stays on her level this time: the restriction ends with her turn.
    play(s, {"move A5 A4", "build A4 A3"});
    CHECK(s.card(0).memory == 0);
    CHECK(s.turn.seat == 1);
    CHECK(legal(s, "move C1 D1"));
    CHECK(legal(s, "move E3 D2"));
}

TEST_CASE("Athena in 4 players binds both players of the other team, not her teammate", "[athena][4p]") {
    // Team A (seats A, C) has A1 and A5; team B (seats B, D) has D1 and E3. Level 1 on A4, B2, D2.
    State s = position("00000/10000/00000/01010/00000 A:A1,A5 B:D1,E3 A players=4 powers=Athena,-,-,-");
    play(s, {"move A1 B2", "build B2 C3"});
    CHECK(to_notation(s) ==
          "00000/10000/00100/01010/00000 A:B2,A5 B:D1,E3 B players=4 powers=Athena,-,-,- memory=1,0,0,0");
    // Seat B (other team) is bound.
    CHECK_FALSE(legal(s, "move D1 D2"));
    CHECK_FALSE(legal(s, "move E3 D2"));
    play(s, {"move D1 C1", "build C1 D1"});
    // Seat C (her teammate) is not.
    play(s, {"move A5 A4", "build A4 A5"});
    // Seat D (other team) is bound, even though the last turn was her teammate's.
    CHECK(s.turn.seat == 3);
    CHECK_FALSE(legal(s, "move C1 D1"));
    CHECK_FALSE(legal(s, "move E3 D2"));
    play(s, {"move E3 E4", "build E4 E5"});
    // Athena moves down: the restriction is over.
    play(s, {"move B2 B1", "build B1 A1"});
    CHECK(s.turn.seat == 1);
    CHECK(legal(s, "move C1 D1"));
}

TEST_CASE("Athena in 4 players: her teammate moving up does not bind the other team", "[athena][4p]") {
    State s = position("00000/10000/00000/00010/00000 A:A1,A5 B:D1,E3 C players=4 powers=Athena,-,-,-");
    play(s, {"move A5 A4", "build A4 B4"});
    CHECK(s.turn.seat == 3);
    CHECK(s.card(0).memory == 0);
    CHECK(legal(s, "move E3 D2"));
}

TEST_CASE(
    "Athena's memory counts only a last turn played with her card (Chaos as the Golden Fleece)",
    "[athena][chaos][fleece]") {
    // The Ram on C3; Chaos shows Athena. A holds the fleece while a worker of A neighbours C3.
    const char* start =
        "00000/10000/01000/00000/10000 A:B2,E5 B:A5,E1 A fleece=Chaos ram=C3 chaos=Athena "
        "deck=Pan discards=-";
    // A moves up and still holds the fleece on B's turn: B cannot move up.
    State bound = position(start);
    play(bound, {"move B2 B3", "build B3 B2"});
    CHECK_FALSE(legal(bound, "move A5 A4"));
    // A moves up away from the Ram, plays the next turn without the fleece, and comes back: A's
    // last turn was played without the card, so B is free although A holds it again.
    State s = position(start);
    play(s, {"move B2 A1", "build A1 A2"});
    play(s, {"move E1 D1", "build D1 E1"});
    play(s, {"move A1 B2", "build B2 B1"});
    REQUIRE(s.fleece_holders == 0b01);
    CHECK(legal(s, "move A5 A4"));
}
