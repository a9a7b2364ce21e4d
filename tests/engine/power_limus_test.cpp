// Limus, Goddess of Famine. Opponent's Turn: opponent workers cannot build on spaces
// neighbouring your workers, unless building a dome to create a Complete Tower.
// Rulings (docs/rulings.md B2): the exception is a dome on height 3 only; every build of an
// opponent is bound (before moving, Atlas' domes, Zeus, Poseidon); a teammate is not.

#include <string>
#include <vector>

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Limus: opponents cannot build next to her workers", "[limus]") {
    // Limus' workers on C3 and E5; B builds from B1 (B2 and C2 neighbour C3).
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A1,A5 B powers=Limus,-");
    play(s, {"move A1 B1"});
    CHECK(legal_starting(s, "build") == sorted({"build B1 A1", "build B1 A2", "build B1 C1"}));
    CHECK(legal_starting(s, "dome").empty());
}

TEST_CASE("Limus lets an opponent build a dome that completes a tower next to her workers",
          "[limus]") {
    State s = position("00000/00000/00000/03000/00000 A:C3,E5 B:A1,A5 B powers=Limus,-");
    play(s, {"move A1 B1"});
    CHECK(legal_starting(s, "dome") == std::vector<std::string>{"dome B1 B2"});
    CHECK_FALSE(legal(s, "build B1 C2"));
    play(s, {"dome B1 B2"});
    CHECK(to_notation(s) == "00000/00000/00000/03D000/00000 A:C3,E5 B:B1,A5 A powers=Limus,-");
}

TEST_CASE("Limus refuses Atlas' dome below height 3 next to her workers", "[limus][atlas]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A1,A5 B powers=Limus,Atlas");
    play(s, {"move A1 B1"});
    CHECK_FALSE(legal(s, "dome B1 C2"));
    CHECK_FALSE(legal(s, "dome B1 B2"));
    CHECK(legal(s, "dome B1 A2"));
}

TEST_CASE("Limus' own builds next to her workers are free", "[limus]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A1,A5 A powers=Limus,-");
    play(s, {"move E5 D5"});
    CHECK(legal(s, "build D5 D4"));
    CHECK(legal(s, "build D5 C4"));
}

TEST_CASE("Limus binds Prometheus' build before moving", "[limus][prometheus]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:A1,A5 B powers=Limus,Prometheus");
    CHECK_FALSE(legal(s, "build A1 B2 first"));
    CHECK(legal(s, "build A1 A2 first"));
}

TEST_CASE("An opponent left without a build anywhere by Limus loses at the start of its turn",
          "[limus]") {
    // Every space B's workers could build on after any move neighbours B2 or B4.
    const char* board = "00000/00000/00000/00000/00000 A:B2,B4 B:A1,A5 B";
    State s = position((std::string(board) + " powers=Limus,-").c_str());
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK_FALSE(position((std::string(board) + " powers=-,Limus").c_str()).over());
}

TEST_CASE("Limus in 4 players binds the other team, not her teammate", "[limus][4p]") {
    State s =
        position("00000/00000/00000/00000/00000 A:C3,E5 B:A1,A5 B players=4 powers=Limus,-,-,-");
    play(s, {"move A1 B1"});
    CHECK_FALSE(legal(s, "build B1 B2"));
    play(s, {"build B1 A1"});
    CHECK(s.turn.seat == 2);  // her teammate
    play(s, {"move E5 D5"});
    CHECK(legal(s, "build D5 D4"));
    play(s, {"build D5 D4"});
    CHECK(s.turn.seat == 3);  // the other team's second player is bound too
    play(s, {"move B1 B2"});
    CHECK_FALSE(legal(s, "build B2 C2"));
    CHECK(legal(s, "build B2 A2"));
}
