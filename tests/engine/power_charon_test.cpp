// Charon, Ferryman to the Underworld. Your Move: before your worker moves, you may force a
// neighbouring opponent worker to the space directly on the other side of your worker, if that
// space is unoccupied. Ruling A6 (docs/rulings.md): optional, before moving, to any level
// (forced is not moved: no win); the worker that forced then moves and builds.

#include "scenario.hpp"

using namespace santorini;

namespace {
bool starts_with(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}
}  // namespace

TEST_CASE(
    "Charon forces a neighbouring opponent across his worker; that worker then moves and builds",
    "[charon]") {
    // Charon on C3 with opponents on B3 (west) and D4 (north-east); his other worker on E5 has
    // D4 as neighbour too, but the space beyond E5 is off the board.
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B3,D4 A powers=Charon,-");
    CHECK(legal_starting(s, "force") == sorted({"force B3 D3", "force D4 B2"}));
    play(s, {"force B3 D3"});
    CHECK_FALSE(legal(s, "force D4 B2"));  // once
    for (const auto& t : legal_texts(s)) CHECK(starts_with(t, "move C3 "));
    play(s, {"move C3 B3", "build B3 C3"});
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:B3,E5 B:D3,D4 B powers=Charon,-");
}

TEST_CASE("Charon's force is optional", "[charon]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B3,D4 A powers=Charon,-");
    CHECK(legal(s, "move E5 E4"));
    CHECK(legal(s, "move C3 D3"));
    play(s, {"move E5 E4", "build E4 E3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00001/00000/00000 A:C3,E4 B:B3,D4 B powers=Charon,-");
}

TEST_CASE("Charon forces to any level; a worker forced onto level 3 does not win", "[charon]") {
    // The opponent on B3 (ground) goes to D3 (level 3).
    State s = position("00000/00000/00030/00000/00000 A:C3,A5 B:B3,E1 A powers=Charon,-");
    play(s, {"force B3 D3"});
    CHECK_FALSE(s.over());
    play(s, {"move C3 C4", "build C4 C5"});
    CHECK_FALSE(s.over());
    CHECK(to_notation(s) == "00100/00000/00030/00000/00000 A:C4,A5 B:D3,E1 B powers=Charon,-");
}

TEST_CASE("Charon cannot force onto an occupied space or off the board", "[charon]") {
    // From C3: B3's far side D3 holds a dome; C4's far side C2 holds his own worker. Only his
    // worker on C2 may force B3, onto D1.
    State s = position("00000/00000/0000D0/00000/00000 A:C3,C2 B:B3,C4 A powers=Charon,-");
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force B3 D1"});
    // A corner: the far side of B2 from A1 is off the board.
    State corner = position("00000/00000/00000/00000/00000 A:A1,E5 B:B2,C5 A powers=Charon,-");
    CHECK(legal_starting(corner, "force").empty());
}

TEST_CASE("Charon is not offered a force that leaves his worker no move", "[charon]") {
    // Charon on C3 (ground) is walled in by domes but for B3 (level 2, an opponent) and D3.
    // Forcing B3 onto D3 would leave him only B3, two levels up.
    State s = position("00000/00D0D0D0/02000/00D0D0D0/00000 A:C3,E5 B:B3,E1 A powers=Charon,-");
    CHECK(legal_starting(s, "force").empty());
    CHECK(legal(s, "move C3 D3"));
}

TEST_CASE("Charon's opponent does not force", "[charon]") {
    State s = position("00000/00000/00000/00000/00000 A:B3,D4 B:C3,E5 B powers=Charon,-");
    CHECK(legal_starting(s, "force").empty());
}

TEST_CASE("Charon in 3 players forces either opponent", "[charon][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,A5 B:B3,E1 C:D4,E5 A powers=Charon,-,-");
    CHECK(legal_starting(s, "force") == sorted({"force B3 D3", "force D4 B2"}));
    play(s, {"force D4 B2", "move C3 D4", "build D4 C3"});
    CHECK(to_notation(s) ==
          "00000/00000/00100/00000/00000 A:D4,A5 B:B3,E1 C:B2,E5 B powers=Charon,-,-");
}

TEST_CASE("Charon in 4 players forces the other team, not his own team's worker", "[charon][4p]") {
    // Team A (seats A, C): C3 and B3. Team B: D4 and E1.
    State s =
        position("00000/00000/00000/00000/00000 A:C3,B3 B:D4,E1 A players=4 powers=Charon,-,-,-");
    CHECK(legal_starting(s, "force") == sorted({"force D4 B2"}));
    State mate =
        position("00000/00000/00000/00000/00000 A:C3,B3 B:D4,E1 C players=4 powers=Charon,-,-,-");
    CHECK(legal_starting(mate, "force").empty());
}
