#include <catch2/catch_test_macros.hpp>

#include "engine/santorini/game.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("conceding with 2 players ends the game for the opponent", "[concede]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
    REQUIRE_FALSE(concede(s, 1).has_value());
    CHECK(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("conceding on another seat's turn with 3 players removes only that seat", "[concede][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,A2 B:C3,C4 C:E1,E2 A powers=Apollo,Pan,Atlas");
    REQUIRE_FALSE(concede(s, 2).has_value());
    CHECK_FALSE(s.over());
    CHECK(s.seat(2).out);
    CHECK(s.side_squares(2) == 0);
    CHECK(decider(s) == 0);  // still A's turn
    CHECK(check_invariants(s).empty());
}

TEST_CASE("conceding on one's own turn with 3 players passes the turn on", "[concede][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,A2 B:C3,C4 C:E1,E2 A powers=Apollo,Pan,Atlas");
    play(s, {"move A1 B1"});  // mid-turn
    REQUIRE_FALSE(concede(s, 0).has_value());
    CHECK(s.seat(0).out);
    CHECK(decider(s) == 1);
    CHECK(s.phase == Phase::Begin);
    REQUIRE_FALSE(concede(s, 1).has_value());
    CHECK(s.over());
    CHECK(s.winners == 0b100);
}

TEST_CASE("conceding in a team game loses for the whole team", "[concede][4p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,A2 B:E4,E5 C players=4 powers=Apollo,Pan,Atlas,Demeter");
    REQUIRE_FALSE(concede(s, 2).has_value());
    CHECK(s.over());
    CHECK(s.winners == 0b1010);  // seats B and D: team B
}

TEST_CASE("conceding is refused before the turns begin and for seats already out", "[concede]") {
    Settings st;
    st.draft = DraftMode::FullOffer;
    auto g = new_game(st);
    REQUIRE(g.ok());
    State s = *g;
    State before = s;
    CHECK(concede(s, 0).has_value());
    CHECK(s == before);

    State t = position("00000/00000/00000/00000/00000 A:A1,A2 B:C3,C4 C:- A powers=Apollo,Pan,Atlas out=C");
    State t_before = t;
    CHECK(concede(t, 2).has_value());
    CHECK(t == t_before);
}
