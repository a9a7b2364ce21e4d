// Jason, Leader of the Argonauts. Setup: take one extra Worker of your color, kept on your
// card until needed. Your Turn: once, instead of your normal turn, place your extra Worker on an
// unoccupied ground-level perimeter space. This Worker then builds.
// Rulings (docs/rulings.md HB1-HB3): the placement replaces the move (first step of a turn);
// the placed worker builds as a worker that moved; spaces that count as domes are occupied.

#include <string>
#include <vector>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {
constexpr const char* open_board = "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Jason,- reserve=1,0";
}

TEST_CASE("Jason places his extra worker on a ground-level perimeter space instead of moving; it builds",
          "[jason][hero]") {
    State s = position(open_board);
    CHECK(legal_starting(s, "place").size() == 16);  // every perimeter space is free and on the ground
    CHECK_FALSE(powers::hero_spent(s, 0));
    play(s, {"place A1"});
    CHECK(powers::hero_spent(s, 0));
    CHECK(legal_starting(s, "move").empty());  // instead of the normal turn: no move after it
    CHECK(sorted(legal_texts(s)) == std::vector<std::string>{"build A1 A2", "build A1 B1"});
    play(s, {"build A1 B1"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/00000/01000 A:B2,D4,A1 B:B4,D2 B powers=Jason,- counter=1,0");
}

TEST_CASE("Jason's power is used once: the placed worker plays on, and no placement is offered again",
          "[jason][hero]") {
    State s = position(open_board);
    play(s, {"place E3", "build E3 E4", "move B4 B5", "build B5 A5"});
    CHECK(legal_starting(s, "place").empty());
    CHECK_FALSE(legal_starting(s, "move E3").empty());  // the placed worker is a worker like the others
    play(s, {"move E3 E2", "build E2 E3"});
    CHECK(s.turn.seat == 1);
}

TEST_CASE("Jason's placement is optional and only instead of the whole turn", "[jason][hero]") {
    State s = position(open_board);
    CHECK_FALSE(legal_starting(s, "move B2").empty());
    play(s, {"move B2 B3"});
    CHECK(legal_starting(s, "place").empty());
    play(s, {"build B3 B2", "move B4 B5", "build B5 A5"});
    CHECK_FALSE(powers::hero_spent(s, 0));
    CHECK(legal_starting(s, "place").size() == 14);  // B5 is taken and A5 built on now
}

TEST_CASE("Jason places only on unoccupied ground-level perimeter spaces", "[jason][hero]") {
    // A1 has a block, B1 a dome, E5 and A5 workers; C1 holds Talus (a dome for everyone).
    State s = position("00000/00000/00000/00000/10D000 A:B2,E5 B:B4,A5 A powers=Jason,EuropaTalus reserve=1,0 tokens=-,C1");
    auto places = legal_starting(s, "place");
    CHECK(places.size() == 11);
    for (const char* taken : {"place A1", "place B1", "place C1", "place E5", "place A5"})
        CHECK(std::find(places.begin(), places.end(), std::string(taken)) == places.end());
    CHECK(std::find(places.begin(), places.end(), std::string("place D1")) != places.end());
}

TEST_CASE("Jason's placed worker builds under the opponents' restrictions (Limus)", "[jason][hero][limus]") {
    // A Limus worker on B2 forbids blocks on A2 and B1, so the worker placed on A1 could not
    // build: that placement is not listed (the turn could not be completed).
    State s = position("00000/00000/00000/00000/00000 A:D4,E4 B:B2,C4 A powers=Jason,Limus reserve=1,0");
    auto places = legal_starting(s, "place");
    CHECK(std::find(places.begin(), places.end(), std::string("place A1")) == places.end());
    CHECK(std::find(places.begin(), places.end(), std::string("place E1")) != places.end());
    play(s, {"place E1"});
    CHECK(legal_starting(s, "build") == std::vector<std::string>{"build E1 D1", "build E1 D2", "build E1 E2"});
}

TEST_CASE("Jason boxed in does not lose while his extra worker can come in; once spent he does",
          "[jason][hero]") {
    // His workers on A1 and B1 can move nowhere (domes on A2, B2, C1, C2).
    const char* boxed = "00000/00000/00000/0D0D0D00/000D00 A:A1,B1 B:E5,E4 A powers=Jason,-";
    State s = position((std::string(boxed) + " reserve=1,0").c_str());
    CHECK_FALSE(s.over());
    CHECK(legal_starting(s, "move").empty());
    CHECK_FALSE(legal_starting(s, "place").empty());
    State t = position((std::string(boxed) + " counter=1,0 reserve=1,0").c_str());
    CHECK(t.over());
    CHECK(t.winners == 0b10);
}

TEST_CASE("Jason's placement turn must meet Persephone's demand when a move up is possible",
          "[jason][hero][persephone]") {
    State up = position("00000/00000/00000/00000/01000 A:A1,D4 B:B4,D2 A powers=Jason,Persephone reserve=1,0");
    CHECK(legal_starting(up, "place").empty());  // A1 -> B1 moves up: the demand binds
    State flat = position(open_board);
    State flat_p = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Jason,Persephone reserve=1,0");
    CHECK(legal_starting(flat_p, "place") == legal_starting(flat, "place"));  // no move up: waived
}

TEST_CASE("Jason's card state reads and writes in notation", "[jason][hero][notation]") {
    for (const char* text :
         {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Jason,- reserve=1,0",
          "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 B powers=-,Jason reserve=0,1",
          "00000/00000/00000/00000/00000 A:B2,D4,A1 B:B4,D2 A powers=Jason,- counter=1,0"}) {
        State s = position(text);
        CHECK(to_notation(s) == text);
    }
    State s = position("00000/00000/00000/00000/00000 A:B2,D4,A1 B:B4,D2 A powers=Jason,- counter=1,0");
    CHECK(legal_starting(s, "place").empty());
}

TEST_CASE("Jason's card: heroes are 2 players only and never the Golden Fleece", "[jason][hero]") {
    auto two = eligible_powers(2, false);
    CHECK(std::find(two.begin(), two.end(), PowerId::Jason) != two.end());
    auto three = eligible_powers(3, false);
    CHECK(std::find(three.begin(), three.end(), PowerId::Jason) == three.end());
    auto fleece = eligible_powers(2, true);
    CHECK(std::find(fleece.begin(), fleece.end(), PowerId::Jason) == fleece.end());
}

TEST_CASE("Jason's placement onto Hecate's hidden worker is cancelled and does not use his power",
          "[jason][hero][hecate]") {
    // Hecate's worker on A1 is hidden from Jason: A1 looks free to him.
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A1,E5 A powers=Jason,Hecate reserve=1,0");
    REQUIRE(legal(s, "place A1"));
    play(s, {"place A1"});
    CHECK(s.turn.seat == 1);  // the rest of his turn is lost
    CHECK_FALSE(powers::hero_spent(s, 0));
    int on_card = 0;
    for (int w = 0; w < s.worker_count; ++w) on_card += s.worker(w).in_reserve;
    CHECK(on_card == 1);
}
