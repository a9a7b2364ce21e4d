// Gaea, Goddess of the Earth. Setup: take 2 extra Workers of your color, kept on your God Power
// card until needed. Any Build: when a Worker builds a dome, Gaea may immediately place a
// Worker from her God Power card onto a ground-level space neighboring the dome.
// Rulings (docs/rulings.md E1-E5): anyone's dome, in anyone's turn, each dome of a turn; her
// decision is out of turn; a placement that strands the mover makes the mover lose.

#include <string>
#include <vector>

#include "engine/santorini/perft.hpp"
#include "engine/santorini/turn_flow.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {

int reserve_of(const State& s, int side) {
    int n = 0;
    for (int w = 0; w < s.worker_count; ++w) n += s.worker(w).side == side && s.worker(w).in_reserve;
    return n;
}

// Full turns counted through real play (legal_steps/apply_step), interrupt steps included.
std::uint64_t real_full_turns(const State& s) {
    StepList list;
    legal_steps(s, list);
    std::uint64_t n = 0;
    for (const Step& st : list) {
        State next = s;
        apply_step(next, st);
        n += same_turn(s, next) ? real_full_turns(next) : 1;
    }
    return n;
}

}  // namespace

TEST_CASE("Gaea: an opponent's dome lets her place a worker from her card next to it", "[gaea]") {
    // B moves C3 -> C4 and domes the level-3 tower on D5; its ground neighbours C5, E5, E4 are free
    // (D4 is level 1).
    State s = position("00030/00110/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,- reserve=2,0");
    CHECK(to_notation(s) == "00030/00110/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,- reserve=2,0");
    play(s, {"move C3 C4", "dome C4 D5"});
    REQUIRE(decider(s) == 0);  // Gaea decides, out of turn
    CHECK(legal_starting(s, "place") == sorted({"place C5", "place E5", "place E4"}));
    CHECK(legal(s, "pass"));
    play(s, {"place E4"});
    CHECK(decider(s) == 0);  // B's turn is over: A's turn
    CHECK(s.turn.seat == 0);
    CHECK(reserve_of(s, 0) == 1);
    CHECK(to_notation(s) == "0003D0/00110/00000/00000/00000 A:A1,B1,E4 B:C4,E1 A powers=Gaea,- reserve=1,0");
    // The placed worker is hers like the others: it may move this turn.
    CHECK(legal(s, "move E4 E5"));
}

TEST_CASE("Gaea: she may decline; a dome with no free ground-level neighbour gives her nothing", "[gaea]") {
    State s = position("00030/00110/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,- reserve=2,0");
    play(s, {"move C3 C4", "dome C4 D5", "pass"});
    CHECK(s.turn.seat == 0);
    CHECK(reserve_of(s, 0) == 2);
    // D5's ground neighbours are all taken or built: no decision.
    State t = position("00132/00121/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,- reserve=2,0");
    play(t, {"move C3 C4", "dome C4 D5"});
    CHECK(t.turn.seat == 0);
    CHECK(t.interrupt == -1);
    CHECK(reserve_of(t, 0) == 2);
}

TEST_CASE("Gaea: her own dome in her own turn, and a block never counts", "[gaea]") {
    State s = position("00030/00000/00000/00000/00000 A:C3,A1 B:B1,E1 A powers=Gaea,- reserve=2,0");
    play(s, {"move C3 C4", "build C4 C5"});
    CHECK(s.turn.seat == 1);  // a block: no decision
    s = position("00030/00000/00000/00000/00000 A:C3,A1 B:B1,E1 A powers=Gaea,- reserve=2,0");
    play(s, {"move C3 C4", "dome C4 D5"});
    REQUIRE(decider(s) == 0);
    CHECK(s.turn.seat == 0);
    play(s, {"place E5"});
    CHECK(s.turn.seat == 1);
    CHECK(to_notation(s) == "0003D0/00000/00000/00000/00000 A:C4,A1,E5 B:B1,E1 B powers=Gaea,- reserve=1,0");
}

TEST_CASE("Gaea: every dome of a turn is a decision, until her card is empty", "[gaea][demeter]") {
    // Demeter domes B4 then D4 (both level 3), one decision each; a third dome finds no worker.
    State s = position("00000/03030/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,Demeter reserve=2,0");
    play(s, {"move C3 C4", "dome C4 B4"});
    REQUIRE(decider(s) == 0);
    play(s, {"place A4"});
    REQUIRE(decider(s) == 1);
    play(s, {"dome C4 D4"});
    REQUIRE(decider(s) == 0);
    play(s, {"place E4"});
    CHECK(s.turn.seat == 0);
    CHECK(reserve_of(s, 0) == 0);
    CHECK(to_notation(s) == "00000/03D03D0/00000/00000/00000 A:A1,B1,A4,E4 B:C4,E1 A powers=Gaea,Demeter");
    // Her card empty: a dome no longer asks her.
    State t = position("00000/03030/00000/00000/00000 A:A1,B1,A5,E5 B:C3,E1 B powers=Gaea,Demeter");
    play(t, {"move C3 C4", "dome C4 B4"});
    CHECK(decider(t) == 1);
}

TEST_CASE("Gaea: a placement that leaves the mover no way to finish makes the mover lose", "[gaea][prometheus]") {
    // Prometheus domes D4 (level 3) before moving, so he may not move up; C5 may then go only
    // to D5 (B5, B4, C4 are domed). Gaea places a worker there: he cannot finish and loses.
    const char* start = "00D000/00D0D30/00000/00000/00000 A:A1,B1 B:C5,E1 B powers=Gaea,Prometheus reserve=2,0";
    State s = position(start);
    play(s, {"dome C5 D4 first"});
    REQUIRE(decider(s) == 0);
    CHECK(legal_starting(s, "place") == sorted({"place C3", "place D3", "place D5", "place E3", "place E4", "place E5"}));
    State passed = s;
    play(passed, {"pass", "move C5 D5"});
    CHECK_FALSE(passed.over());
    play(s, {"place D5"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
}

TEST_CASE("Gaea: probes and perft count a stranding placement as real play does (G21)", "[gaea][perft]") {
    State s = position("00D000/00D0D30/00000/00000/00000 A:A1,B1 B:C5,E1 B powers=Gaea,Prometheus reserve=2,0");
    std::uint64_t real = real_full_turns(s);
    CHECK(count_full_turns(s) == real);
    CHECK(perft(s, 1) == real);
    CHECK(perft(s, 2) == perft_by_steps(s, 2));
    // The turn that ends in Prometheus' loss is one of them.
    State t = s;
    play(t, {"dome C5 D4 first"});
    CHECK(count_full_turns(t) == real_full_turns(t));
}

TEST_CASE("Gaea with 3 players: a dome in a third player's turn is her decision too", "[gaea][3p]") {
    State s = position("00000/00000/00300/00000/00000 A:A1,B1 B:E5,E4 C:D3,A5 C powers=Apollo,Gaea,- reserve=0,2,0");
    CHECK(to_notation(s) == "00000/00000/00300/00000/00000 A:A1,B1 B:E5,E4 C:D3,A5 C powers=Apollo,Gaea,- reserve=0,2,0");
    play(s, {"move D3 D2", "dome D2 C3"});
    REQUIRE(decider(s) == 1);
    play(s, {"place B3"});
    CHECK(s.turn.seat == 0);
    CHECK(to_notation(s) == "00000/00000/003D00/00000/00000 A:A1,B1 B:E5,E4,B3 C:D2,A5 A powers=Apollo,Gaea,- reserve=0,1,0");
}

TEST_CASE("Gaea is never dealt against Atlas or Selene; Demeter and Hephaestus are fine", "[gaea][draft]") {
    auto fixed = [](PowerId a, PowerId b) {
        Settings st;
        st.draft = DraftMode::Fixed;
        st.powers = {a, b};
        return validate(st);
    };
    CHECK(fixed(PowerId::Gaea, PowerId::Atlas).has_value());
    CHECK(fixed(PowerId::Selene, PowerId::Gaea).has_value());
    CHECK_FALSE(fixed(PowerId::Gaea, PowerId::Demeter).has_value());
    CHECK_FALSE(fixed(PowerId::Hephaestus, PowerId::Gaea).has_value());
    // A new game gives her two workers on her card, placed by nobody during setup.
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Gaea, PowerId::Demeter};
    st.start_player = 0;
    auto g = new_game(st);
    REQUIRE(g.ok());
    CHECK(g->worker_count == 6);
    CHECK(reserve_of(*g, 0) == 2);
    State s = *g;
    play(s, {"place A1", "place B1", "place D5", "place E5"});
    CHECK(s.phase == Phase::Begin);
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A powers=Gaea,Demeter reserve=2,0");
}

TEST_CASE("Gaea: Atlas' low domes and Selene's domes count too (banned pairings, set up by hand)", "[gaea][atlas][selene]") {
    // The draft never deals these pairs; a position may still hold them, and the card's text
    // ("a Worker builds a dome") covers a dome at any level.
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,Atlas reserve=2,0");
    play(s, {"move C3 C4", "dome C4 D4"});
    REQUIRE(decider(s) == 0);
    CHECK(legal_starting(s, "place") ==
          sorted({"place C3", "place C5", "place D3", "place D5", "place E3", "place E4", "place E5"}));
    play(s, {"place C3"});
    CHECK(s.turn.seat == 0);
    State t = position("00000/00000/00000/00000/00000 A:A5,B5 B:C3,E1f B powers=Gaea,Selene reserve=2,0");
    play(t, {"move C3 C4", "dome E1 D1"});
    REQUIRE(decider(t) == 0);
    CHECK(legal_starting(t, "place") == sorted({"place C1", "place C2", "place D2", "place E2"}));
}

TEST_CASE("Gaea conceding while her decision is pending: the mover's turn goes on", "[gaea][3p][concede]") {
    State s = position("00000/00000/00300/00000/00000 A:A1,B1 B:E5,E4 C:D3,A5 C powers=Apollo,Gaea,- reserve=0,2,0");
    play(s, {"move D3 D2", "dome D2 C3"});
    REQUIRE(decider(s) == 1);
    REQUIRE_FALSE(concede(s, 1).has_value());
    CHECK(s.interrupt == -1);
    CHECK(s.turn.seat == 0);  // C's turn had nothing left: A plays
    CHECK(to_notation(s) == "00000/00000/003D00/00000/00000 A:A1,B1 B:- C:D2,A5 A powers=Apollo,Gaea,- out=B");
}

TEST_CASE("Gaea and Circe: the card Circe takes places nobody, and Gaea places nothing meanwhile",
          "[gaea][circe]") {
    // Ruling E5: the workers on Gaea's card are Gaea's; Circe, using the card, has none on it,
    // so a dome gives her nothing, and Gaea, without her card, places nothing either.
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Circe,Gaea reserve=0,2");
    REQUIRE(s.holder[1] == 0);
    play(s, {"move B2 B1", "dome B1 C2"});
    CHECK(s.interrupt < 0);
    CHECK(decider(s) == 1);
    CHECK(legal_starting(s, "place").empty());
    // Gaea keeping her card (her workers neighbour each other) places after the same dome.
    State kept = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,A4 A powers=Circe,Gaea reserve=0,2");
    REQUIRE(kept.holder[1] == 1);
    play(kept, {"move B2 B1", "dome B1 C2"});
    CHECK(decider(kept) == 1);
    CHECK_FALSE(legal_starting(kept, "place").empty());
}
