// Persephone, Goddess of Spring Growth. Opponent's Turn: if possible, at least one worker must
// move up this turn.
// Rulings (RULES.md; docs/rulings.md B7): if any complete turn of the opponent moves a worker
// up, the opponent must take one; judged at the turn's start after every turn-start effect
// (Hypnus), over every move the opponent's power allows; forced and Zeus' rising are not moves;
// a win ends the turn, so one that is no move up stands only when the demand is waived.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Persephone: an opponent who can move up must", "[persephone]") {
    State s = position("00000/00000/00010/00000/00000 A:E5,E4 B:C3,A1 B powers=Persephone,-");
    CHECK(legal_starting(s, "move") == std::vector<std::string>{"move C3 D3"});
    play(s, {"move C3 D3", "build D3 C3"});
    CHECK(decider(s) == 0);
    // Without Persephone every move is open.
    State free = position("00000/00000/00010/00000/00000 A:E5,E4 B:C3,A1 B powers=-,Persephone");
    CHECK(legal(free, "move A1 A2"));
}

TEST_CASE("Persephone: an opponent who cannot move up plays a normal turn", "[persephone]") {
    State s = position("00000/00000/00000/00000/00000 A:E5,E4 B:C3,A1 B powers=Persephone,-");
    CHECK(legal_starting(s, "move A1") == sorted({"move A1 A2", "move A1 B1", "move A1 B2"}));
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Persephone does not bind her own turns", "[persephone]") {
    State s = position("00000/00000/00010/00000/00000 A:C3,A1 B:E5,E4 A powers=Persephone,-");
    CHECK(legal(s, "move A1 A2"));
    CHECK(legal(s, "move C3 C2"));
}

TEST_CASE("Persephone: Prometheus who could move up may not build first",
          "[persephone][prometheus]") {
    State s =
        position("00000/00000/00010/00000/00000 A:E5,E4 B:C3,A1 B powers=Persephone,Prometheus");
    CHECK(legal_starting(s, "build").empty());
    CHECK(legal_starting(s, "move") == std::vector<std::string>{"move C3 D3"});
    // With nowhere to move up, building first is open again.
    State flat =
        position("00000/00000/00000/00000/00000 A:E5,E4 B:C3,A1 B powers=Persephone,Prometheus");
    CHECK(legal(flat, "build C3 C2 first"));
}

TEST_CASE("Persephone: Artemis may move up with her second move", "[persephone][artemis]") {
    // C3 on level 1 is one level move away from A1 (via B2) and E1 (via D2).
    State s = position("00000/00000/00100/00000/00000 A:E5,E4 B:A1,E1 B powers=Persephone,Artemis");
    CHECK(legal_starting(s, "move") == sorted({"move A1 B2", "move E1 D2"}));
    play(s, {"move A1 B2"});
    CHECK(legal_starting(s, "build").empty());
    CHECK(legal_texts(s) == std::vector<std::string>{"move B2 C3"});
    play(s, {"move B2 C3", "build C3 B2"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Persephone: Triton moves on along the perimeter until he can move up",
          "[persephone][triton]") {
    // A4 on level 1 is reached from A1 only along the perimeter.
    State s = position("00000/10000/00000/00000/00000 A:E5,D5 B:A1,C3 B powers=Persephone,Triton");
    CHECK_FALSE(legal(s, "move A1 B2"));  // an inner space ends his moves
    play(s, {"move A1 A2"});
    CHECK(legal_starting(s, "build").empty());
    play(s, {"move A2 A3", "move A3 A4"});
    CHECK(legal(s, "build A4 A3"));
}

TEST_CASE("Persephone: Hermes who can move up must, and travels freely when he cannot",
          "[persephone][hermes]") {
    State s = position("00000/00000/00100/00000/00000 A:E5,E4 B:B2,A5 B powers=Persephone,Hermes");
    CHECK(legal_texts(s) == std::vector<std::string>{"move B2 C3"});
    State flat =
        position("00000/00000/00000/00000/00000 A:E5,E4 B:B2,A5 B powers=Persephone,Hermes");
    CHECK(legal(flat, "build B2 C3"));
    play(flat, {"move B2 C2", "move C2 D2", "move A5 A4", "build D2 D3"});
    CHECK(decider(flat) == 0);
}

TEST_CASE("Persephone: Zeus rising on his own block is not moving up", "[persephone][zeus]") {
    State s = position("00000/00000/00010/00000/00000 A:E5,E4 B:C3,A1 B powers=Persephone,Zeus");
    CHECK(legal_starting(s, "move") == std::vector<std::string>{"move C3 D3"});
}

TEST_CASE("Persephone's demand is judged after Hypnus' freeze, whatever the seat order",
          "[persephone][hypnus][3p]") {
    // B's C3 is its highest worker and the only one that could move up: Hypnus freezes it, so
    // no turn of B moves up and Persephone's demand is waived instead of B losing.
    for (const char* powers : {"powers=Persephone,-,Hypnus", "powers=Hypnus,-,Persephone"}) {
        INFO(powers);
        State s = position(
            (std::string("00000/00000/00120/00000/00000 A:E5,E4 B:C3,A1 C:A5,B5 B ") + powers)
                .c_str());
        CHECK_FALSE(s.over());
        CHECK(legal_starting(s, "move") == sorted({"move A1 A2", "move A1 B1", "move A1 B2"}));
        play(s, {"move A1 A2", "build A2 A1"});
        CHECK(s.turn.seat == 2);
    }
    State alone =
        position("00000/00000/00120/00000/00000 A:E5,E4 B:C3,A1 C:A5,B5 B powers=Persephone,-,-");
    CHECK(legal_starting(alone, "move") == std::vector<std::string>{"move C3 D3"});
}

TEST_CASE("Persephone in 4 players binds the other team, not her teammate", "[persephone][4p]") {
    State s = position(
        "00000/00000/00010/00000/00000 A:C3,A1 B:E4,B5 C players=4 powers=Persephone,-,-,-");
    CHECK(legal(s, "move A1 A2"));  // her teammate
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(s.turn.seat == 3);
    CHECK(legal_starting(s, "move") == std::vector<std::string>{"move E4 D3"});
}

TEST_CASE("Persephone: a win that is not a move up stands only when no turn moves up",
          "[persephone][pan][eros]") {
    // Pan's C3 (level 2) may drop to D3 and win, but A1 may move up to A2: a win ends the
    // turn, so the drop would end a turn without a move up while one was possible.
    State pan = position("00000/02220/02200/12220/00000 A:E5,E4 B:C3,A1 B powers=Persephone,Pan");
    CHECK(legal_texts(pan) == std::vector<std::string>{"move A1 A2"});
    // Eros' workers would meet on level 1 by a level move (onto D3); C3 may move up to C4.
    State eros = position("00000/00200/00110/00001/00000 A:A5,B5 B:C3,E2 B powers=Persephone,Eros");
    CHECK(legal_starting(eros, "move") == std::vector<std::string>{"move C3 C4"});
}

TEST_CASE("Persephone: with no turn that moves up the demand is waived, winning turns or not",
          "[persephone][pan]") {
    // No worker of Pan can move up; C3 can still drop to D3 and win. The demand is waived, so
    // the turns that neither win nor move up are open too.
    State s = position("00000/02220/02200/02220/00000 A:E5,E4 B:C3,A1 B powers=Persephone,Pan");
    CHECK(s.turn.if_possible_waived);
    CHECK(legal(s, "move C3 D3"));
    CHECK(legal(s, "move C3 C4"));
    CHECK(legal(s, "move A1 A2"));
    play(s, {"move A1 A2", "build A2 A1"});
    CHECK(decider(s) == 0);
    State win = position("00000/02220/02200/02220/00000 A:E5,E4 B:C3,A1 B powers=Persephone,Pan");
    play(win, {"move C3 D3"});
    REQUIRE(win.over());
    CHECK(win.winners == 0b10);
}
