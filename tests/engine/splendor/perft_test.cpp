// Perft: fixed counts of step sequences from new games and from a position with gold, returns
// and reserves, the regression test of the step generator. Depth 1 and the 2-player depth 2
// are counted by hand below; the deeper counts are the engine's own, pinned (a change in
// them is a change in the rules the generator lists, to be explained or fixed). The same
// numbers are in docs/splendor_engine.md with the commands that print them.

#include "engine/splendor/perft.hpp"

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace perft_test {

using namespace splendor;

TEST_CASE("perft from a new 2-player game (seed 0)") {
    State s = new_state(2, 0, 0);
    // Depth 1: 10 takes of three colours + 5 of two (piles of 4) + 12 face-up reserves + 3 blind.
    CHECK(perft(s, 0) == 1);
    CHECK(perft(s, 1) == 30);
    // Depth 2, B's steps after A's: after three colours, 10 + 2 takes (two piles still at 4) +
    // 15 reserves = 27 (x10); after two of a colour, 10 + 4 + 15 = 29 (x5); after a reserve
    // (the bank unchanged, the row refilled) 30 (x15): 270 + 145 + 450 = 865.
    CHECK(perft(s, 2) == 865);
    CHECK(perft(s, 3) == 24190);
    CHECK(perft(s, 4) == 659505);
}

TEST_CASE("perft from new 3- and 4-player games (seed 7)") {
    State three = new_state(3, 0, 7);
    CHECK(perft(three, 1) == 30);
    CHECK(perft(three, 2) == 895);
    CHECK(perft(three, 3) == 26380);
    CHECK(perft(three, 4) == 765705);
    State four = new_state(4, 0, 7);
    CHECK(perft(four, 1) == 30);
    CHECK(perft(four, 2) == 900);
    CHECK(perft(four, 3) == 26995);
    CHECK(perft(four, 4) == 808875);
}

TEST_CASE("perft from a position with gold to pay with, a full hand and reserves") {
    // A holds 10 tokens (2 gold), bonuses blue 2 green 1, two reserves; every pile holds 1.
    State s = position(std::string(table) +
                       " A: tokens=2,3,1,2,0,2 bought=9,10,17 reserved=47*,12 B: "
                       "tokens=1,0,2,1,3,1 bought=33,25 reserved=60");
    // Depth 1: 10 takes of three colours (no pile of 4) + 12 + 3 reserves + 20 buys: card 0 owes
    // 1 blue (blue, or gold: 2), 8 (1), 16 (3), 24 (2), 46 (3), 52 (1), reserved 12 owes white 1
    // green 1 red 2 with 2 spare gold (8 ways).
    CHECK(perft(s, 1) == 45);
    CHECK(legal_starting(s, "buy").size() == 20);
    CHECK(perft(s, 2) == 764);
    CHECK(perft(s, 3) == 16469);
    CHECK(perft(s, 4) == 500363);
}

TEST_CASE("perft_divide adds up to perft, in the generator's order") {
    State s = new_state(3, 1, 11);
    auto parts = perft_divide(s, 3);
    StepList list;
    legal_steps(s, list);
    REQUIRE(parts.size() == list.size());
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        CHECK(parts[i].first == list[i]);
        sum += parts[i].second;
    }
    CHECK(sum == perft(s, 3));
}

TEST_CASE("perft of a finished game is 0 beyond depth 0") {
    State s = position(std::string(table) + " A: B:");
    REQUIRE(concede(s, 1) == std::nullopt);
    CHECK(perft(s, 0) == 1);
    CHECK(perft(s, 1) == 0);
    CHECK(perft(s, 3) == 0);
}

}  // namespace perft_test
