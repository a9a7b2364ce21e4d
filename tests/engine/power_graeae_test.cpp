// Graeae. Setup: when placing your Workers, place 3 of your color. Your Build: you choose which
// Worker of yours builds.
// Ruling (docs/rulings.md E6): any of her workers on the board builds after the move, by the
// normal rules from where it stands; one build, as without a power.

#include <string>
#include <vector>

#include "engine/santorini/turn_flow.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Graeae: after the move any of her three workers builds", "[graeae]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,C3,E5 B:A5,E1 A powers=Graeae,-");
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:A1,C3,E5 B:A5,E1 A powers=Graeae,-");
    play(s, {"move C3 C4"});
    CHECK(legal(s, "build A1 B2"));
    CHECK(legal(s, "build E5 E4"));
    CHECK(legal(s, "build C4 C3"));
    CHECK(legal_starting(s, "build A1") == sorted({"build A1 A2", "build A1 B1", "build A1 B2"}));
    play(s, {"build A1 B1"});
    CHECK(decider(s) == 1);  // one build, then the turn is over
    CHECK(to_notation(s) == "00000/00000/00000/00000/01000 A:A1,C4,E5 B:A5,E1 B powers=Graeae,-");
}

TEST_CASE("Graeae: a worker that did not move domes a level-3 tower next to it", "[graeae]") {
    State s = position("00000/00000/00000/00000/30000 A:B2,C4,E5 B:A5,E3 A powers=Graeae,-");
    play(s, {"move C4 D4"});
    CHECK(legal(s, "dome B2 A1"));
    CHECK_FALSE(legal(s, "dome D4 A1"));  // not next to the worker that moved
    play(s, {"dome B2 A1"});
    CHECK(to_notation(s) == "00000/00000/00000/00000/3D0000 A:B2,D4,E5 B:A5,E3 B powers=Graeae,-");
}

TEST_CASE("Graeae: setup places three workers in 2 and 3 players; not with 4", "[graeae][3p]") {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Graeae, PowerId::Apollo};
    st.start_player = 0;
    auto g = new_game(st);
    REQUIRE(g.ok());
    State s = *g;
    play(s, {"place A1", "place C3", "place E5", "place A5", "place E1"});
    REQUIRE(s.phase == Phase::Begin);
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:A1,C3,E5 B:A5,E1 A powers=Graeae,Apollo");
    st.players = 3;
    st.powers = {PowerId::Apollo, PowerId::Graeae, PowerId::Artemis};
    auto three = new_game(st);
    REQUIRE(three.ok());
    CHECK(three->worker_count == 7);
    st.players = 4;
    st.powers = {PowerId::Apollo, PowerId::Graeae, PowerId::Artemis, PowerId::Demeter};
    CHECK(validate(st).has_value());
}

TEST_CASE("Graeae: Limus forbids the builds of any of her workers next to his", "[graeae][limus]") {
    // Limus' B2 stands next to A1's every build square (A2, B1) and next to C3.
    State s = position("00000/00000/00000/00000/00000 A:A1,C3,E5 B:B2,E1 A powers=Graeae,Limus");
    play(s, {"move C3 C4"});
    CHECK(legal_starting(s, "build A1") == std::vector<std::string>{});
    CHECK(legal(s, "build E5 E4"));
    CHECK_FALSE(legal(s, "build C4 C3"));  // C3 is next to B2
    CHECK(legal(s, "build C4 C5"));
}

TEST_CASE("Graeae: Hypnus freezes her highest worker, which may still build", "[graeae][hypnus]") {
    State s = position("00000/00000/00100/00000/00000 A:A1,C3,E5 B:A5,E1 A powers=Graeae,Hypnus");
    CHECK(legal_starting(s, "move C3").empty());
    play(s, {"move A1 A2"});
    CHECK(legal(s, "build C3 C4"));
    play(s, {"build C3 C4"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Graeae: she loses only when none of her three workers can move", "[graeae]") {
    // A1 and B1 are walled in; C5 can still move: she plays on.
    State s = position("00000/00000/00000/0D0D0D00/000D00 A:A1,B1,C5 B:E5,E1 A powers=Graeae,-");
    REQUIRE_FALSE(s.over());
    CHECK(decider(s) == 0);
    CHECK(legal_starting(s, "move A1").empty());
    CHECK_FALSE(legal_starting(s, "move C5").empty());
    // Banned only against Nemesis: Atlas and the rest are fine.
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Graeae, PowerId::Nemesis};
    CHECK(detail::validate(st, true).has_value());
    st.powers = {PowerId::Graeae, PowerId::Atlas};
    CHECK_FALSE(validate(st).has_value());
}
