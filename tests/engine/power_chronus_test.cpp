// Chronus, God of Time. Win Condition: you also win when there are at least five Complete
// Towers on the board. Rulings (docs/rulings.md C1, C2): a standing win, checked after every
// step of anyone and at every turn start; a Complete Tower is a dome on level 3.

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Chronus wins when his own dome completes the fifth tower", "[chronus]") {
    State s = position("3D3D3D3D0/00000/00000/00000/00300 A:C2,E5 B:A1,E1 A powers=Chronus,-");
    play(s, {"move C2 B2"});
    CHECK_FALSE(s.over());
    play(s, {"dome B2 C1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Chronus wins when an opponent completes the fifth tower, at once", "[chronus]") {
    State s = position("3D3D3D3D0/00000/00000/00000/00300 A:A3,E5 B:C2,E1 B powers=Chronus,-");
    play(s, {"move C2 B2", "dome B2 C1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Chronus' win comes on the step: Demeter gets no second build after the fifth tower",
          "[chronus][demeter]") {
    State s =
        position("3D3D3D3D0/00000/00000/00000/00300 A:A3,E5 B:C2,E1 B powers=Chronus,Demeter");
    play(s, {"move C2 B2", "dome B2 C1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("Chronus: a dome below level 3 is not a Complete Tower", "[chronus][atlas]") {
    // Atlas domes C1 on level 2: four Complete Towers still.
    State s = position("3D3D3D3D0/00000/00000/00000/00200 A:A3,E5 B:C2,E1 B powers=Chronus,Atlas");
    play(s, {"move C2 B2", "dome B2 C1"});
    CHECK_FALSE(s.over());
    CHECK(s.board.complete_towers() == 4);
    // Nor is a block on level 3's way up: only the dome on level 3 counts.
    State t = position("3D3D3D3D0/00000/00000/00000/00200 A:A3,E5 B:C2,E1 B powers=Chronus,-");
    play(t, {"move C2 B2", "build B2 C1"});
    CHECK_FALSE(t.over());
}

TEST_CASE(
    "Chronus: a position with five Complete Towers is already won (checked at the turn start)",
    "[chronus]") {
    State s = position("3D3D3D3D3D/00000/00000/00000/00000 A:A1,E1 B:A3,E3 A powers=-,Chronus");
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
    CHECK_FALSE(
        position("3D3D3D3D0/00000/00000/00000/00000 A:A1,E1 B:A3,E3 A powers=-,Chronus").over());
    // Without Chronus five towers win nothing.
    CHECK_FALSE(
        position("3D3D3D3D3D/00000/00000/00000/00000 A:A1,E1 B:A3,E3 A powers=-,Apollo").over());
}

TEST_CASE("Chronus: a winning move up is still a win for his opponent", "[chronus]") {
    State s = position("3D3D3D3D0/00000/00000/00000/02300 A:A3,E5 B:B1,E1 B powers=Chronus,-");
    play(s, {"move B1 C1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Chronus is a 2-player power", "[chronus]") {
    Settings st;
    st.players = 3;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Chronus, PowerId::Apollo, PowerId::Pan};
    auto e = validate(st);
    REQUIRE(e.has_value());
    CHECK(*e == "Chronus cannot be played with 3 players");
    st.players = 2;
    st.powers = {PowerId::Chronus, PowerId::Apollo};
    CHECK_FALSE(validate(st).has_value());
}
