// Hidden information: a card reserved from a deck is seen by its owner only (and by the
// `revealed` viewer of a finished game's replay); the decks' order is seen by nobody. History
// lines follow the protocol's text forms (docs/protocol.md, Splendor).

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace view_test {

using namespace splendor;

TEST_CASE(
    "views: another seat's blind reserve shows only its level; face-up reserves show to all") {
    State s = position(std::string(table) + " A: reserved=47*,12 B: reserved=60*");
    View a = view_for(s, 0), b = view_for(s, 1), watcher = view_for(s, spectator),
         all = view_for(s, revealed);
    CHECK(a.seats[0].reserved[0] == ReservedView{47, 2, true});
    CHECK(a.seats[0].reserved[1] == ReservedView{12, 1, false});
    CHECK(a.seats[1].reserved[0] == ReservedView{-1, 2, true});
    CHECK(b.seats[0].reserved[0] == ReservedView{-1, 2, true});
    CHECK(b.seats[0].reserved[1] == ReservedView{12, 1, false});
    CHECK(b.seats[1].reserved[0] == ReservedView{60, 2, true});
    CHECK(watcher.seats[0].reserved[0] == ReservedView{-1, 2, true});
    CHECK(watcher.seats[0].reserved[1] == ReservedView{12, 1, false});
    CHECK(watcher.seats[1].reserved[0] == ReservedView{-1, 2, true});
    CHECK(all.seats[0].reserved[0] == ReservedView{47, 2, true});
    CHECK(all.seats[1].reserved[0] == ReservedView{60, 2, true});
    CHECK(a.seats[0].reserved_count == 2);
    CHECK(a.seats[0].reserved[2] == ReservedView{});
}

TEST_CASE("views: the decks' order is in no view, only their sizes") {
    State one = position(std::string(table) + " deck1=1,2,3,... A: B:");
    State other = position(std::string(table) + " deck1=3,1,2,... A: B:");
    REQUIRE_FALSE(one == other);
    for (int viewer : {0, 1, spectator, revealed})
        CHECK(view_for(one, viewer) == view_for(other, viewer));
    CHECK(view_for(one, 0).deck_size == std::array<std::int8_t, levels>{36, 26, 16});
}

TEST_CASE("views copy everything public") {
    State s = position(std::string(table3) +
                       " current=C turn=5 A: tokens=1,0,2,0,0,1 bought=1,9 reserved=33 B: out C:");
    View v = view_for(s, spectator);
    CHECK(v.players == 3);
    CHECK(v.current == 2);
    CHECK(v.turn == 5);
    CHECK(v.supply == s.supply);
    CHECK(v.rows == s.rows);
    CHECK(v.nobles == s.nobles);
    CHECK(v.seats[0].tokens == s.seat(0).tokens);
    CHECK(v.seats[0].bonuses == Colours{1, 1, 0, 0, 0});
    CHECK(v.seats[0].cards == 2);
    CHECK(v.seats[1].out);
}

TEST_CASE("history: a blind reserve names its card to its owner and the replay only") {
    State s = position(std::string(table) + " deck2=47,41,... A: B:");
    CHECK(line(s, "reserve level 2", 0) ==
          "reserve #47 (level 2 blue, 1 point) from the level 2 deck");
    CHECK(line(s, "reserve level 2", revealed) ==
          "reserve #47 (level 2 blue, 1 point) from the level 2 deck");
    CHECK(line(s, "reserve level 2", 1) == "reserve from the level 2 deck");
    CHECK(line(s, "reserve level 2", spectator) == "reserve from the level 2 deck");
    play(s, {"reserve level 2"});
    CHECK(view_for(s, 1).seats[0].reserved[0] == ReservedView{-1, 2, true});
    CHECK(view_for(s, 0).seats[0].reserved[0] == ReservedView{47, 2, true});
}

TEST_CASE(
    "history: the text of every kind of step, the same for every viewer when nothing is hidden") {
    State s = position(std::string(table) + " A: tokens=0,3,0,0,0,1 B: bought=9,10,11");
    for (int viewer : {0, 1, spectator, revealed}) {
        CHECK(line(s, "take white blue green", viewer) == "take white blue green");
        CHECK(line(s, "take red red", viewer) == "take red red");
        CHECK(line(s, "reserve #8", viewer) == "reserve #8 (level 1 blue, 0 points)");
        CHECK(line(s, "buy #0 for blue 2 gold 1", viewer) ==
              "buy #0 (level 1 white, 0 points) for blue 2 gold 1");
        CHECK(line(s, "reserve #70", viewer) == "reserve #70 (level 3 white, 3 points)");
    }
    play(s, {"take white white"});
    CHECK(line(s, "buy #0", spectator) == "buy #0 (level 1 white, 0 points) for nothing");
}

}  // namespace view_test
