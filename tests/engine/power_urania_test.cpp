// Urania, Muse of Astronomy. Your Turn: when your Worker moves or builds, treat opposite edges
// and corners as if they are adjacent so that every space has 8 neighbors. Rulings W1, W8
// (docs/rulings.md).

#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Urania: a corner worker has 8 neighbours to move to", "[urania]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,C3 B:C5,E3 A powers=Urania,-");
    CHECK(legal_starting(s, "move A1") ==
          sorted({"move A1 A2", "move A1 A5", "move A1 B1", "move A1 B2", "move A1 B5", "move A1 E1", "move A1 E2",
                  "move A1 E5"}));
}

TEST_CASE("Urania builds across the edges too", "[urania]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,C3 B:C5,E3 A powers=Urania,-");
    play(s, {"move A1 E1"});
    CHECK(legal(s, "build E1 A1"));  // the square it left, across the edge
    CHECK(legal(s, "build E1 A2"));
    CHECK(legal(s, "build E1 E5"));
    play(s, {"build E1 A5"});
    CHECK(to_notation(s) == "10000/00000/00000/00000/00000 A:E1,C3 B:C5,E3 B powers=Urania,-");
}

TEST_CASE("Urania: across the edge a move still climbs at most one level, and wins on level 3", "[urania]") {
    // A3 (level 2): E3 (level 3) across the edge is a win; E4 (level 4? no: a dome) is closed,
    // E2 level 0 is fine.
    State s = position("00000/00000D/20003/00000/00000 A:A3,C1 B:C5,C4 A powers=Urania,-");
    CHECK_FALSE(legal(s, "move A3 E4"));
    CHECK(legal(s, "move A3 E2"));
    play(s, {"move A3 E3"});
    CHECK(s.over());
    CHECK(winners(s) == 1u);
    State low = position("00000/00000/00002/00000/00000 A:A3,C1 B:C5,C4 A powers=Urania,-");
    CHECK_FALSE(legal(low, "move A3 E3"));  // two up
}

TEST_CASE("Urania's opponents do not wrap", "[urania]") {
    State s = position("00000/00000/00000/00000/00000 A:C3,C4 B:A1,E3 B powers=Urania,-");
    CHECK(legal_starting(s, "move A1") == sorted({"move A1 A2", "move A1 B1", "move A1 B2"}));
    play(s, {"move A1 A2"});
    CHECK_FALSE(legal(s, "build A2 E2"));
}

TEST_CASE("Urania: an opponent Minotaur cannot push her worker over the edge; Charon ferries on the board", "[urania][minotaur][charon]") {
    // Minotaur on B1 would push her worker on A1 west: off the board, so no push.
    State m = position("00000/00000/00000/00000/00000 A:A1,C3 B:B1,E5 B powers=Urania,Minotaur");
    CHECK_FALSE(legal(m, "move B1 A1"));
    // Charon on A2 cannot ferry her worker from B2 across him to the west: off the board.
    State c = position("00000/00000/00000/00000/00000 A:B2,C4 B:A2,E5 B powers=Urania,Charon");
    CHECK(legal_starting(c, "force").empty());
}

TEST_CASE("Urania and Apollo: Apollo swaps only with neighbours on the board; she swaps nobody", "[urania][apollo]") {
    // Apollo on A1 and her worker on E1: no swap across the edge on his turn.
    State s = position("00000/00000/00000/00000/00000 A:E1,C3 B:A1,C5 B powers=Urania,Apollo");
    CHECK_FALSE(legal(s, "move A1 E1"));
    // On her turn she cannot enter his square across the edge either (occupied).
    State u = position("00000/00000/00000/00000/00000 A:E1,C3 B:A1,C5 A powers=Urania,Apollo");
    CHECK_FALSE(legal(u, "move E1 A1"));
    CHECK(legal(u, "move E1 A2"));
}

TEST_CASE("Urania cannot be drafted against Aphrodite, but may meet Aeolus", "[urania]") {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Urania, PowerId::Aphrodite};
    CHECK(validate(st).has_value());
    st.powers = {PowerId::Urania, PowerId::Aeolus};
    CHECK_FALSE(validate(st).has_value());
}

TEST_CASE("Urania and Limus: Limus' neighbours are on the board", "[urania][limus]") {
    // Limus' worker on A3: Urania's worker on E2 may not build on B3 or A2 (board neighbours of
    // Limus), but may build on E3, which touches A3 only across the edge.
    State s = position("00000/00000/00000/00000/00000 A:A3,C5 B:D2,C1 B powers=Limus,Urania");
    play(s, {"move D2 E2"});
    CHECK(legal(s, "build E2 E3"));
    CHECK_FALSE(legal(s, "build E2 A2"));
    CHECK(legal(s, "build E2 A1"));
}

TEST_CASE("Urania and Bia: Bia's next space does not wrap onto Urania's worker", "[urania][bia]") {
    // Bia moves west from B3 to A3: the next space west is off the board, so Urania's worker
    // on E3 (across the edge only for Urania) stays.
    State s = position("00000/00000/00000/00000/00000 A:E3,C5 B:B3,C1 B powers=Urania,Bia");
    play(s, {"move B3 A3"});
    CHECK(s.worker_at(*parse_square("E3")) >= 0);
    // On the board the same move removes: Bia from C3 to B3, Urania's worker on A3.
    State r = position("00000/00000/00000/00000/00000 A:A3,C5 B:C3,C1 B powers=Urania,Bia");
    play(r, {"move C3 B3"});
    CHECK(r.worker_at(*parse_square("A3")) < 0);
}
