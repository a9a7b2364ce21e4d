// Worker indices through the notation (docs/engine.md G22, section 8): a position written and
// read back has the same workers at the same indices, so state that names a worker by index
// (Adonis' charm) still names it. The reader numbers workers as create_workers does: every
// side's regular workers side by side, then each side's further workers (placed from a card,
// then still on it); a worker removed from play is written `-` when a later one of its side
// follows it.

#include <string>

#include "engine/santorini/powers/hero.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {

// Writes `s`, reads it back and checks that nothing moved: the workers index by index, the
// legal steps, and the text itself.
void round_trips(const State& s) {
    const std::string text = to_notation(s);
    INFO(text);
    State t = position(text.c_str());
    REQUIRE(t.worker_count == s.worker_count);
    for (int w = 0; w < s.worker_count; ++w) {
        INFO("worker " << w);
        CHECK(t.worker(w) == s.worker(w));
    }
    CHECK(sorted(legal_texts(t)) == sorted(legal_texts(s)));
    CHECK(to_notation(t) == text);
}

}  // namespace

TEST_CASE("notation: Jason's placed worker keeps its index, and Adonis' charm its worker",
          "[notation][g22][jason][adonis]") {
    State s = position("00000/00000/00000/00000/00000 A:D3,B5 B:B2,C1 A powers=Jason,Adonis reserve=1,0");
    play(s, {"place E1", "build E1 D1", "move C1 C2", "build C2 C1", "select E1"});
    REQUIRE(s.worker(4).square == *parse_square("E1"));  // after both sides' regular workers
    REQUIRE(powers::adonis_charmed(s, 1) == 4);
    CHECK(to_notation(s) ==
          "00000/00000/00000/00000/00110 A:D3,B5,E1 B:B2,C2 A powers=Jason,Adonis memory=0,5 counter=1,1");
    round_trips(s);
    // Read back, the charm still binds E1: it must end the turn next to B2 or C2.
    State t = position(to_notation(s).c_str());
    CHECK(legal_starting(t, "move") == sorted({"move E1 D1", "move E1 D2"}));

    // The position the pair sweep found (docs/engine.md G22).
    State found = position(
        "00000/00000/00000/11010/00000 A:D3,B5,E1 B:B2,C1 A powers=Jason,Adonis memory=0,5 counter=1,1");
    CHECK(found.worker(4).square == *parse_square("E1"));
    CHECK(found.worker(2).square == *parse_square("B2"));
    round_trips(found);
}

TEST_CASE("notation: a worker captured by Medusa keeps the indices of the others",
          "[notation][g22][medusa]") {
    // Medusa's C3 (1) stands above A's first worker on B3 (0).
    State s = position("00000/00000/00100/00000/00000 A:B3,E1 B:C3,E5 B powers=-,Medusa");
    play(s, {"move E5 E4", "build E4 E5", "capture C3 B3"});
    REQUIRE(decider(s) == 0);
    REQUIRE(s.worker(0).square == no_square);
    CHECK(to_notation(s) == "00001/00000/01100/00000/00000 A:-,E1 B:C3,E4 A powers=-,Medusa");
    round_trips(s);
}

TEST_CASE("notation: a worker captured by Theseus keeps the indices of the others",
          "[notation][g22][theseus]") {
    // Theseus' D2 (1) is two levels below B's first worker on E3 (3).
    State s = position("00000/00000/00003/00010/00000 A:B2,D2 B:E3,A5 A powers=Theseus,-");
    play(s, {"move B2 B1", "build B1 A1", "capture D2 E3"});
    REQUIRE(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00003/00010/10000 A:B1,D2 B:-,A5 B powers=Theseus,- counter=1,0");
    round_trips(s);
}

TEST_CASE("notation: removed workers and workers on a card read back in create_workers' order",
          "[notation][g22][gaea]") {
    // Gaea's first card worker was placed and then removed; her second is still on the card.
    State s = position("00000/00000/00000/00000/00000 A:A1,B1,- B:D5,E5 B powers=Gaea,- reserve=1,0");
    REQUIRE(s.worker_count == 6);
    CHECK(s.worker(2).square == *parse_square("D5"));
    CHECK(s.worker(4).square == no_square);
    CHECK_FALSE(s.worker(4).in_reserve);
    CHECK(s.worker(5).in_reserve);
    round_trips(s);

    // A side listing fewer workers than it has: the rest are off the board, and the next side
    // keeps its indices; nothing of it is written.
    State short_side = position("00000/00000/00000/00000/00000 A:C3 B:D4,E5 A");
    REQUIRE(short_side.worker_count == 4);
    CHECK(short_side.worker(1).square == no_square);
    CHECK(short_side.worker(2).square == *parse_square("D4"));
    CHECK(to_notation(short_side) == "00000/00000/00000/00000/00000 A:C3 B:D4,E5 A");
    round_trips(short_side);
}
