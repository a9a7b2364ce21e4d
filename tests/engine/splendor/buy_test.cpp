// Buying: a face-up card or one's own reserved card, the cost less one's bonuses, paid with
// gems and gold; one Buy step per distinct payment, the gems-first default first (ruling S3).

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace buy_test {

using namespace splendor;

TEST_CASE("buy a face-up card: tokens back to the bank, a bonus, the slot refilled") {
    State s = position(std::string(table) + " deck1=33,1,... A: tokens=0,3,0,0,0,0 B:");
    play(s, {"buy #0 for blue 3"});
    const Player& a = s.seat(0);
    CHECK(a.tokens == Tokens{});
    CHECK(a.bonuses == Colours{1, 0, 0, 0, 0});
    CHECK(a.cards == 1);
    CHECK(a.points == 0);
    CHECK(s.supply[Blue] == 4);
    CHECK(s.rows[0][0] == 33);
    CHECK(s.deck_size[0] == 35);
}

TEST_CASE("buy: a card not affordable is not offered") {
    State s = position(std::string(table) + " A: tokens=0,2,0,0,0,0 B:");
    CHECK_FALSE(legal(s, "buy #0"));
    CHECK(legal_starting(s, "buy").empty());
}

TEST_CASE("buy: bonuses lower the cost; enough bonuses buy for nothing") {
    State one = position(std::string(table) + " A: tokens=0,2,0,0,0,0 bought=9 B:");
    CHECK(legal_starting(one, "buy #0") == std::vector<std::string>{"buy #0 for blue 2"});
    State free = position(std::string(table) + " A: bought=9,10,11 B:");
    CHECK(legal_starting(free, "buy #0") == std::vector<std::string>{"buy #0 for nothing"});
    play(free, {"buy #0 for nothing"});
    CHECK(free.seat(0).cards == 4);
}

TEST_CASE("buy with gold: every way to pay, gems first listed first, never more than owed") {
    // Card 0 costs 3 blue; A holds 3 blue and 2 gold.
    State s = position(std::string(table) + " A: tokens=0,3,0,0,0,2 B:");
    CHECK(legal_starting(s, "buy #0") == std::vector<std::string>{"buy #0 for blue 3",
                                                                  "buy #0 for blue 2 gold 1",
                                                                  "buy #0 for blue 1 gold 2"});
    // `buy #0` alone is the default way.
    CHECK(to_text(step(s, "buy #0")) == "buy #0 for blue 3");
    play(s, {"buy #0 for blue 1 gold 2"});
    CHECK(s.seat(0).tokens == Tokens{0, 2, 0, 0, 0, 0});
    CHECK(s.supply == Tokens{4, 2, 4, 4, 4, 5});
}

TEST_CASE("buy with gold for a shortfall: the gold is not optional") {
    State s = position(std::string(table) + " A: tokens=0,1,0,0,0,2 B:");
    CHECK(legal_starting(s, "buy #0") == std::vector<std::string>{"buy #0 for blue 1 gold 2"});
}

TEST_CASE("buy with gold over several colours: one step per distinct payment") {
    // Card 3 costs one of blue, green, red and black; A holds one of each and 2 gold: gold may
    // stand in for any 0, 1 or 2 of the four gems: 1 + 4 + 6 payments.
    State s = position(
        "nobles=0,3,7 row1=3,8,16,24 row2=40,46,52,58 row3=70,74,78,82 A: tokens=0,1,1,1,1,2 B:");
    auto buys = legal_starting(s, "buy #3");
    REQUIRE(buys.size() == 11);
    CHECK(buys.front() == "buy #3 for blue 1 green 1 red 1 black 1");
    CHECK(buys[1] == "buy #3 for blue 1 green 1 red 1 gold 1");
    CHECK(buys.back() == "buy #3 for red 1 black 1 gold 2");
    CHECK(std::find(buys.begin(), buys.end(), "buy #3 for blue 1 gold 3") == buys.end());
}

TEST_CASE("buy a reserved card: only one's own; the others keep their order") {
    State s =
        position(std::string(table) + " A: tokens=0,1,1,1,4,0 reserved=23*,3,9 B: reserved=1");
    CHECK(legal(s, "buy #3"));
    CHECK(legal(s, "buy #23"));
    CHECK_FALSE(legal(s, "buy #1"));  // B's
    auto rows = s.rows;
    play(s, {"buy #3 for blue 1 green 1 red 1 black 1"});
    CHECK(s.rows == rows);
    const Player& a = s.seat(0);
    REQUIRE(a.reserved_count == 2);
    CHECK(a.reserved[0] == Reserved{23, true});
    CHECK(a.reserved[1] == Reserved{9, false});
    CHECK(a.reserved[2] == Reserved{});
    play(s, {"take white blue green"});
    play(s, {"buy #9 for black 3"});
    CHECK(s.seat(0).bonuses == Colours{1, 1, 0, 0, 0});
    REQUIRE(s.seat(0).reserved_count == 1);
    CHECK(s.seat(0).reserved[0] == Reserved{23, true});
}

TEST_CASE("buy: the card joins the buyer's bought cards, face up or reserved") {
    // A's seven blue bonuses (cards 9-15) pay for card 0 (3 blue) and reserved 79 (7 blue).
    State s = position(std::string(table) + " A: bought=9-15 reserved=79 B:");
    CHECK(s.seat(0).bought == std::array<std::uint64_t, 2>{0x7Fu << 9, 0});
    play(s, {"buy #0 for nothing"});
    CHECK(bought_card(s.seat(0), 0));
    CHECK(s.seat(1).bought == std::array<std::uint64_t, 2>{});
    play(s, {"take white blue green", "buy #79 for nothing"});
    CHECK(s.seat(0).bought == std::array<std::uint64_t, 2>{(0x7Fu << 9) | 1u, 1u << (79 - 64)});
    CHECK(s.seat(0).cards == 9);
    CHECK(check_invariants(s) == "");
}

TEST_CASE("buy from a row whose deck is empty: the slot stays empty") {
    // Every level 3 card not face up was bought: card 75 by A, the others by B. A buys
    // face-up card 70 (3 blue 3 green 5 red 3 black; A's bonuses: 1 blue, 2 red, 2 black).
    State s = position(
        std::string(table) +
        " deck3=- A: tokens=0,2,3,3,1,0 bought=25,26,32,33,75 B: bought=71-73,76-77,79-81,83-89");
    REQUIRE(s.deck_size[2] == 0);
    play(s, {"buy #70 for blue 2 green 3 red 3 black 1"});
    CHECK(s.rows[2] == std::array<std::int8_t, 4>{-1, 74, 78, 82});
    CHECK(s.seat(0).points == 4 + 3);
}

TEST_CASE("try_step refuses a step that is not listed and changes nothing") {
    State s = position(std::string(table) + " A: tokens=0,2,0,0,0,0 B:");
    const State before = s;
    Step unaffordable{.kind = StepKind::Buy, .card = 0};
    unaffordable.gems[Blue] = 2;
    CHECK(try_step(s, unaffordable) == "not a legal step now");
    Step other_turn{.kind = StepKind::Return};
    other_turn.gems[Blue] = 1;
    CHECK(try_step(s, other_turn) == "not a legal step now");
    CHECK(s == before);
    CHECK(try_step(s, step(s, "take white blue green")) == std::nullopt);
    CHECK(s.current == 1);
}

}  // namespace buy_test
