// Setup from the settings: the bank by player count, shuffled decks, four face-up cards a
// level, players + 1 nobles; the same seed gives the same game. And the state hash.

#include <bit>

#include "engine/splendor/state_hash.hpp"
#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace setup_test {

using namespace splendor;

TEST_CASE("setup: tokens by player count, rows, decks and nobles") {
    for (int players = 2; players <= 4; ++players) {
        INFO(players << " players");
        State s = new_state(players, players - 1, 7);
        int gems = players == 2 ? 4 : players == 3 ? 5 : 7;
        CHECK(s.supply == Tokens{static_cast<std::int8_t>(gems), static_cast<std::int8_t>(gems),
                                 static_cast<std::int8_t>(gems), static_cast<std::int8_t>(gems),
                                 static_cast<std::int8_t>(gems), 5});
        CHECK(std::popcount(s.nobles) == players + 1);
        CHECK(s.deck_size == std::array<std::int8_t, levels>{36, 26, 16});
        for (int l = 0; l < levels; ++l)
            for (auto id : s.rows[static_cast<std::size_t>(l)]) {
                REQUIRE(id >= 0);
                CHECK(card(id).level == l + 1);
            }
        CHECK(s.start_player == players - 1);
        CHECK(decider(s) == players - 1);
        CHECK(s.phase == Phase::Action);
        CHECK(s.turn == 0);
        CHECK(check_invariants(s) == "");
    }
}

TEST_CASE("setup: the same seed deals the same game, another seed another") {
    CHECK(new_state(3, 0, 42) == new_state(3, 0, 42));
    CHECK_FALSE(new_state(3, 0, 42).decks == new_state(3, 0, 43).decks);
    // The deal and the hash are pinned: changing either would break every stored game
    // (recovery replays stored steps from the seed and compares hashes).
    State s = new_state(2, 0, 1);
    CHECK(s.nobles == ((1u << 4) | (1u << 6) | (1u << 8)));
    CHECK(s.rows[0] == std::array<std::int8_t, 4>{22, 29, 36, 16});
    CHECK(s.rows[2] == std::array<std::int8_t, 4>{81, 72, 88, 83});
    CHECK(s.decks[0][35] == 15);  // the next level 1 card
    CHECK(state_hash(s) == "92502cc0a729a350");
}

TEST_CASE("setup: refused settings say why") {
    CHECK(validate({.players = 1}) == "Splendor is played by 2, 3 or 4 players");
    CHECK(validate({.players = 5}) == "Splendor is played by 2, 3 or 4 players");
    CHECK(validate({.players = 3, .start_player = 3}) ==
          "the start player must be one of the seats");
    CHECK(std::holds_alternative<std::string>(new_game({.players = 5})));
    CHECK(validate({.players = 4, .start_player = 3}) == std::nullopt);
}

TEST_CASE("state hash: 16 hex digits, equal for equal states, changed by a step") {
    State s = new_state(2, 0, 5);
    std::string h = state_hash(s);
    CHECK(h.size() == 16);
    CHECK(h.find_first_not_of("0123456789abcdef") == std::string::npos);
    State t = s;
    play(t, {"take white blue green"});
    CHECK(state_hash(t) != h);
    State u = s;
    play(u, {"take white blue green"});
    CHECK(state_hash(u) == state_hash(t));
    // A field that is not on the table changes the hash too (whose turn it is).
    State v = s;
    v.current = 1;
    CHECK(state_hash(v) != h);
}

}  // namespace setup_test
