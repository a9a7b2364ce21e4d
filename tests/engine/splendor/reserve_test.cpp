// Reserving: a face-up card or the top of a deck, a gold if any is left, at most three held;
// the row refilled at once from its deck, or left empty once the deck is.

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace reserve_test {

using namespace splendor;

TEST_CASE("reserve: every face-up card, then the top of every deck with cards") {
    State s = position(std::string(table) + " A: B:");
    CHECK(legal_starting(s, "reserve") ==
          std::vector<std::string>{"reserve #0", "reserve #8", "reserve #16", "reserve #24",
                                   "reserve #40", "reserve #46", "reserve #52", "reserve #58",
                                   "reserve #70", "reserve #74", "reserve #78", "reserve #82",
                                   "reserve level 1", "reserve level 2", "reserve level 3"});
}

TEST_CASE(
    "reserve a face-up card: it is held, a gold comes with it, the slot is refilled from the "
    "deck's top") {
    State s = position(std::string(table) + " deck1=33,1,2,... A: B:");
    play(s, {"reserve #8"});
    const Player& a = s.seat(0);
    REQUIRE(a.reserved_count == 1);
    CHECK(a.reserved[0] == Reserved{8, false});
    CHECK(a.tokens[Gold] == 1);
    CHECK(s.supply[Gold] == 4);
    CHECK(s.rows[0] == std::array<std::int8_t, 4>{0, 33, 16, 24});  // the same slot
    CHECK(s.deck_size[0] == 35);
    CHECK(s.decks[0][34] == 1);  // the next on top
    CHECK(s.current == 1);
}

TEST_CASE("reserve from a deck: its top card, blind; the row does not change") {
    State s = position(std::string(table) + " deck2=47,41,... A: B:");
    auto rows = s.rows;
    play(s, {"reserve level 2"});
    CHECK(s.seat(0).reserved[0] == Reserved{47, true});
    CHECK(s.rows == rows);
    CHECK(s.deck_size[1] == 25);
    CHECK(s.seat(0).tokens[Gold] == 1);
}

TEST_CASE("an empty deck: no blind reserve from it, and a slot taken from its row stays empty") {
    // The level 1 cards not face up were all bought by B.
    State s = position(std::string(table) + " deck1=- A: B: bought=1-7,9-15,17-23,25-39");
    CHECK(s.deck_size[0] == 0);
    CHECK_FALSE(legal(s, "reserve level 1"));
    CHECK(legal(s, "reserve level 2"));
    play(s, {"reserve #8"});
    CHECK(s.rows[0] == std::array<std::int8_t, 4>{0, -1, 16, 24});
    CHECK_FALSE(legal(s, "reserve #8"));
    // The empty slot offers nothing; the others still do.
    CHECK(legal_starting(s, "reserve").front() == "reserve #0");
    CHECK(legal_starting(s, "reserve").size() == 3 + 8 + 2);
}

TEST_CASE("gold exhausted: a reserve is still possible but gives no gold") {
    // The five golds are in the hands (A 3, B 2): the bank has none.
    State s = position(std::string(table) +
                       " A: tokens=0,0,0,0,0,3 reserved=1* B: tokens=0,0,0,0,0,2 reserved=2*,3*");
    CHECK(s.supply[Gold] == 0);
    play(s, {"reserve #16"});
    CHECK(s.seat(0).tokens[Gold] == 3);
    CHECK(s.seat(0).reserved_count == 2);
    CHECK(s.supply[Gold] == 0);
}

TEST_CASE("three reserved cards: no reserve of any kind") {
    State s = position(std::string(table) + " A: reserved=1*,2,3* B:");
    CHECK(legal_starting(s, "reserve").empty());
    CHECK_FALSE(legal_starting(s, "take").empty());
}

TEST_CASE("a reserve that brings the hand to 11 asks for a token back, the gold included") {
    State s = position(std::string(table) + " A: tokens=2,2,2,2,2,0 B:");
    play(s, {"reserve #0"});
    CHECK(s.phase == Phase::Return);
    CHECK(s.current == 0);
    CHECK(legal_texts(s) == std::vector<std::string>{"return white", "return blue", "return green",
                                                     "return red", "return black", "return gold"});
    play(s, {"return gold"});
    CHECK(s.seat(0).tokens[Gold] == 0);
    CHECK(s.supply[Gold] == 5);
    CHECK(s.phase == Phase::Action);
    CHECK(s.current == 1);
}

}  // namespace reserve_test
