// Eros, God of Desire. Setup: place your workers anywhere along opposite edges of the board.
// Win Condition: you also win if one of your workers moves to a space neighbouring your other
// worker and both are on the first level (or the same level in a 3-player game).
// Rulings (RULES.md; docs/rulings.md A5, A7): a corner lies on two edges; the win is by his
// move, not by a forced worker; 2p and 4p: level 1; 3p: any same level.

#include "scenario.hpp"

using namespace santorini;

namespace {
State placing(int players, std::vector<PowerId> powers, int start) {
    Settings st;
    st.players = players;
    st.draft = DraftMode::Fixed;
    st.powers = std::move(powers);
    st.start_player = start;
    auto r = new_game(st);
    REQUIRE(r.ok());
    return *r;
}
}  // namespace

TEST_CASE("Eros places his first worker on the perimeter, the second on the opposite edge",
          "[eros][setup]") {
    State s = placing(2, {PowerId::Eros, PowerId::Apollo}, 0);
    CHECK(legal_texts(s).size() == 16);  // the perimeter
    CHECK_FALSE(legal(s, "place B2"));
    play(s, {"place C1"});
    CHECK(legal_starting(s, "place") ==
          sorted({"place A5", "place B5", "place C5", "place D5", "place E5"}));
    play(s, {"place D5"});
    CHECK(decider(s) == 1);
    CHECK(legal_texts(s).size() == 23);  // his opponent places anywhere
}

TEST_CASE("Eros' worker in a corner lies on two edges: the second goes on either opposite edge",
          "[eros][setup]") {
    State s = placing(2, {PowerId::Eros, PowerId::Apollo}, 0);
    play(s, {"place A1"});
    CHECK(legal_starting(s, "place") ==
          sorted({"place A5", "place B5", "place C5", "place D5", "place E5", "place E1",
                  "place E2", "place E3", "place E4"}));
    play(s, {"place E1"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Eros placing after his opponent avoids occupied spaces on the opposite edge",
          "[eros][setup]") {
    State s = placing(2, {PowerId::Apollo, PowerId::Eros}, 0);
    play(s, {"place B5", "place C5"});
    CHECK(decider(s) == 1);
    CHECK(legal_texts(s).size() == 14);  // the perimeter but B5 and C5
    play(s, {"place C1"});
    CHECK(legal_starting(s, "place") == sorted({"place A5", "place D5", "place E5"}));
}

TEST_CASE("Eros wins by moving next to his other worker with both on level 1", "[eros]") {
    // Eros' workers on B2 (ground) and D3 (level 1); C3 is level 1.
    State s = position("00000/00000/00110/00000/00000 A:B2,D3 B:A5,E1 A powers=Eros,-");
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Eros does not win on other levels in 2 players, nor when not neighbouring", "[eros]") {
    // Both on the ground.
    State ground = position("00000/00000/00000/00000/00000 A:B2,D3 B:A5,E1 A powers=Eros,-");
    play(ground, {"move B2 C3"});
    CHECK_FALSE(ground.over());
    // Both on level 2: C3 (2), D3 (2), B2 (1).
    State two = position("00000/00000/00220/01000/00000 A:B2,D3 B:A5,E1 A powers=Eros,-");
    play(two, {"move B2 C3"});
    CHECK_FALSE(two.over());
    // Level 1 on C2, other worker on E3 (level 1), not neighbouring.
    State apart = position("00000/00000/00001/00100/00000 A:B2,E3 B:A5,E1 A powers=Eros,-");
    play(apart, {"move B2 C2"});
    CHECK_FALSE(apart.over());
    // The other worker on the ground, the mover on level 1.
    State mixed = position("00000/00000/00100/00000/00000 A:B2,D3 B:A5,E1 A powers=Eros,-");
    play(mixed, {"move B2 C3"});
    CHECK_FALSE(mixed.over());
}

TEST_CASE("Eros in 3 players wins with both workers on the same level, the ground too",
          "[eros][3p]") {
    State ground =
        position("00000/00000/00000/00000/00000 A:B2,D3 B:A5,E1 C:A3,E5 A powers=Eros,-,-");
    play(ground, {"move B2 C3"});
    REQUIRE(ground.over());
    CHECK(ground.winners == 0b001);

    State two = position("00000/00000/00220/01000/00000 A:B2,D3 B:A5,E1 C:A3,E5 A powers=Eros,-,-");
    play(two, {"move B2 C3"});
    REQUIRE(two.over());
    CHECK(two.winners == 0b001);

    State mixed =
        position("00000/00000/00100/00000/00000 A:B2,D3 B:A5,E1 C:A3,E5 A powers=Eros,-,-");
    play(mixed, {"move B2 C3"});
    CHECK_FALSE(mixed.over());
}

TEST_CASE("Eros' worker forced next to the other does not win", "[eros][apollo]") {
    // Apollo on C3 (level 1) swaps with Eros' worker on B2 (ground): Eros' worker is forced onto
    // C3, next to his other worker on D3 (level 1).
    State s = position("00000/00000/00110/00000/00000 A:B2,D3 B:C3,E1 B powers=Eros,Apollo");
    play(s, {"move C3 B2"});
    CHECK_FALSE(s.over());
    play(s, {"build B2 A1"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 0);
}

TEST_CASE("Hera denies Eros' win on the perimeter", "[eros][hera]") {
    // Eros' workers on A3 (ground) and B3 (level 1); A2 (level 1) is perimeter, C2 inside.
    const char* fen = "00000/00000/01000/10100/00000 A:D5,E5 B:A3,B3 B powers=Hera,Eros";
    State s = position(fen);
    play(s, {"move A3 A2"});
    CHECK_FALSE(s.over());
    State inside = position("00000/00000/01000/10100/00000 A:D5,E5 B:B1,B3 B powers=Hera,Eros");
    play(inside, {"move B1 C2"});
    REQUIRE(inside.over());
    CHECK(inside.winners == 0b10);
}

TEST_CASE("Eros in 4 players: his team places on opposite edges even when his teammate places",
          "[eros][4p]") {
    // Eros is seat C (team A); the start player A places team A's workers.
    State s = placing(4, {PowerId::Apollo, PowerId::Atlas, PowerId::Eros, PowerId::Pan}, 0);
    CHECK(decider(s) == 0);
    CHECK(legal_texts(s).size() == 16);
    play(s, {"place A3"});
    CHECK(legal_starting(s, "place") ==
          sorted({"place E1", "place E2", "place E3", "place E4", "place E5"}));
    play(s, {"place E3"});
    CHECK(decider(s) == 1);
    CHECK(legal_texts(s).size() == 23);  // the other team places anywhere
}

TEST_CASE("Eros in 4 players wins on level 1 only on his own turn", "[eros][4p]") {
    const char* board = "00000/00000/00110/00000/00000 A:B2,D3 B:A5,E1";
    State own = position((std::string(board) + " A players=4 powers=Eros,-,-,-").c_str());
    play(own, {"move B2 C3"});
    REQUIRE(own.over());
    CHECK(own.winners == 0b0101);
    State mate = position((std::string(board) + " C players=4 powers=Eros,-,-,-").c_str());
    play(mate, {"move B2 C3"});
    CHECK_FALSE(mate.over());
}
