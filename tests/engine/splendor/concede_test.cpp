// Conceding (resigning or running out of time): with 2 players the other seat wins; with 3-4
// the seat is out, its holdings kept out of play (ruling S4), the turn order skips it, and the
// last seat still in wins.

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace concede_test {

using namespace splendor;

TEST_CASE("concede with 2 players: the other seat wins at once") {
    State s = position(std::string(table) + " A: tokens=1,1,1,0,0,0 B:");
    CHECK(concede(s, 0) == std::nullopt);
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 1);
    CHECK(decider(s) == -1);
    CHECK(places(s) == std::array<int, max_players>{2, 1, 0, 0});
    CHECK(check_invariants(s) == "");
    CHECK(concede(s, 1) == "the game is over");
}

TEST_CASE("concede refuses a seat that is not in the game or already out") {
    State s = position(std::string(table3) + " A: B: C:");
    CHECK(concede(s, 3) == "no such seat");
    CHECK(concede(s, -1) == "no such seat");
    CHECK(concede(s, 1) == std::nullopt);
    CHECK(concede(s, 1) == "that seat is already out");
}

TEST_CASE(
    "concede with 3 players on another seat's turn: the seat is skipped, its holdings stay out of "
    "play (ruling S4)") {
    State s = position(std::string(table3) + " A: B: tokens=2,1,0,0,0,1 reserved=47* C:");
    State before = s;
    CHECK(concede(s, 1) == std::nullopt);
    CHECK(s.seat(1).out);
    CHECK(s.phase == Phase::Action);
    CHECK(decider(s) == 0);
    CHECK(s.seat(1).tokens == before.seat(1).tokens);
    CHECK(s.seat(1).reserved_count == 1);
    CHECK(s.supply == before.supply);
    play(s, {"take white blue green"});
    CHECK(decider(s) == 2);
    play(s, {"take white blue green"});
    CHECK(decider(s) == 0);
    CHECK(check_invariants(s) == "");
    // The last seat still in wins.
    CHECK(concede(s, 0) == std::nullopt);
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 2);
    CHECK(places(s) == std::array<int, max_players>{2, 2, 1, 0});
}

TEST_CASE("concede with 4 players on one's own turn, mid-return: the next seat plays") {
    State s = position(std::string(table4) + " A: tokens=3,3,3,0,0,0 B: C: D:");
    play(s, {"take green red black"});
    CHECK(s.phase == Phase::Return);
    CHECK(concede(s, 0) == std::nullopt);
    CHECK(s.phase == Phase::Action);
    CHECK(decider(s) == 1);
    CHECK(total(s.seat(0).tokens) == 12);  // out of play as it stood
    CHECK(check_invariants(s) == "");
}

TEST_CASE("the final round still ends before the start player's seat when that seat is out") {
    // A (start player) is out; C reaches 15; D plays, then the round is over: B does not play.
    State s =
        position(std::string(table4) +
                 " start=A current=C turn=6 A: out B: C: tokens=0,0,2,2,2,0 bought=73,77,45,23 D:");
    play(s, {"buy #40"});
    CHECK(s.final_round);
    CHECK(decider(s) == 3);
    play(s, {"take white blue green"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 2);
    CHECK(places(s) == std::array<int, max_players>{4, 2, 1, 2});
}

TEST_CASE("a concession restarts the count of passes (ruling S2)") {
    State s = position(std::string(table4) + " passes=2 A: B: C: D:");
    CHECK(concede(s, 2) == std::nullopt);
    CHECK(s.passes == 0);
}

}  // namespace concede_test
