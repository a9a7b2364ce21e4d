// Dionysus, God of Wine. Your Build: each time a worker you control creates a Complete Tower,
// you may take an additional turn using an opponent worker instead of your own. No player can
// win during these additional turns. Rulings (docs/rulings.md C9-C13). Notation: `counter=` is
// the additional turns owed (the current one included), `extra_turn=1` marks one being played.

#include "scenario.hpp"

using namespace santorini;

namespace {
bool all_start_with(const std::vector<std::string>& texts,
                    std::initializer_list<const char*> prefixes) {
    for (const auto& t : texts) {
        bool ok = false;
        for (const char* p : prefixes) ok = ok || t.starts_with(p);
        if (!ok) return false;
    }
    return true;
}
}  // namespace

TEST_CASE("Dionysus completes a tower and takes an additional turn with an opponent worker",
          "[dionysus]") {
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Dionysus,-");
    play(s, {"move B2 B1", "dome B1 C2"});
    CHECK(decider(s) == 0);
    CHECK(to_notation(s) ==
          "00000/00000/00000/003D00/00000 A:B1,E5 B:A5,E1 A powers=Dionysus,- counter=1,0 "
          "extra_turn=1");
    auto texts = legal_texts(s);
    CHECK(all_start_with(texts, {"move A5 ", "move E1 ", "pass"}));
    CHECK(legal(s, "move E1 D1"));
    CHECK(legal(s, "move A5 A4"));
    CHECK_FALSE(legal(s, "move E5 E4"));
    play(s, {"move E1 D1"});
    CHECK_FALSE(legal(s, "move A5 A4"));  // one opponent worker: the one that moved builds
    play(s, {"build D1 E1"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/003D00/00001 A:B1,E5 B:A5,D1 B powers=Dionysus,-");
}

TEST_CASE("Dionysus may decline the additional turn", "[dionysus]") {
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Dionysus,-");
    play(s, {"move B2 B1", "dome B1 C2", "pass"});
    CHECK(decider(s) == 1);
    CHECK(s.card(0).counter == 0);
    CHECK_FALSE(s.turn.flags & turn_flag::extra_turn);
}

TEST_CASE("Dionysus: nobody wins by moving up during the additional turn", "[dionysus]") {
    // B's worker on D4 (level 2) next to D5 (level 3).
    State s = position("00030/00020/00000/00300/00000 A:B2,E1 B:D4,A5 A powers=Dionysus,-");
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(legal(s, "move D4 D5"));
    play(s, {"move D4 D5"});
    CHECK_FALSE(s.over());
    play(s, {"build D5 E5"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
    // On its own turn B is already on level 3; a move up from below would win again.
    State b = position("00030/00020/00000/00000/00000 A:B2,E1 B:D4,A5 B powers=Dionysus,-");
    play(b, {"move D4 D5"});
    CHECK(b.over());
}

TEST_CASE(
    "Dionysus: a tower built in the additional turn earns another; a block on level 2 earns none",
    "[dionysus]") {
    State s = position("00000/00000/00000/00330/00020 A:B2,E5 B:A5,D3 A powers=Dionysus,-");
    play(s, {"move B2 B1", "dome B1 C2"});
    play(s, {"move D3 E3", "dome E3 D2"});
    CHECK(decider(s) == 0);
    CHECK(s.card(0).counter == 1);
    CHECK(s.turn.flags & turn_flag::extra_turn);
    play(s, {"move E3 E2", "build E2 E1"});  // E1 goes to level 3: a block, not a tower
    CHECK(decider(s) == 1);
    CHECK(s.card(0).counter == 0);
}

TEST_CASE(
    "Dionysus and Chronus: no standing win during the additional turn, Chronus wins when the next "
    "turn starts",
    "[dionysus][chronus]") {
    // Three Complete Towers on row 5; Dionysus makes the fourth, then the fifth in his extra turn.
    State s =
        position("3D3D3D00/00000/00000/00330/00000 A:B2,E5 B:A3,E1 A powers=Dionysus,Chronus");
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(s.turn.flags & turn_flag::extra_turn);
    play(s, {"move E1 E2",
             "dome E2 D2"});  // the fifth Complete Tower, by an opponent worker he controls
    CHECK(s.board.complete_towers() == 5);
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 0);  // and it earned him another additional turn
    play(s, {"pass"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Dionysus: a position in an additional turn reads back from notation", "[dionysus]") {
    const char* text =
        "00000/00000/00000/003D00/00000 A:B1,E5 B:A5,E1 A powers=Dionysus,- counter=1,0 "
        "extra_turn=1";
    State s = position(text);
    CHECK(to_notation(s) == text);
    CHECK(legal(s, "move E1 D1"));
    CHECK_FALSE(legal(s, "move E5 E4"));
    CHECK(legal(s, "pass"));
    // Old strings without the field are ordinary turns.
    State t =
        position("00000/00000/00000/003D00/00000 A:B1,E5 B:A5,E1 A powers=Dionysus,- counter=1,0");
    CHECK(legal(t, "move E5 E4"));
    CHECK(parse_notation("00000/00000/00000/00000/00000 A:B1,E5 B:A5,E1 A extra_turn=2").ok() ==
          false);
}

TEST_CASE("Dionysus in 3 players: either opponent's worker, then the seat after him",
          "[dionysus][3p]") {
    State s =
        position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,A4 C:E1,E3 A powers=Dionysus,-,-");
    play(s, {"move B2 B1", "dome B1 C2"});
    CHECK(legal(s, "move A4 A3"));
    CHECK(legal(s, "move E3 D3"));
    play(s, {"move E3 D3", "build D3 D4"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Dionysus and Limus: her worker he moves builds freely; another opponent's does not",
          "[dionysus][limus]") {
    // Limus binds "opponent Workers": her own worker is not one, even in his turn.
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Dionysus,Limus");
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(s.turn.flags & turn_flag::extra_turn);
    CHECK(legal(s, "move E1 D1"));
    play(s, {"move E1 D1"});
    CHECK(legal_starting(s, "build") ==
          sorted({"build D1 C1", "build D1 D2", "build D1 E1", "build D1 E2"}));
    play(s, {"build D1 E1"});
    CHECK(decider(s) == 1);
    // 3 players: C's worker, which he moves next to Limus' A5, is an opponent's worker to her.
    const char* three =
        "00000/00000/00000/00300/00000 A:B2,E5 B:A5,A3 C:C5,E1 A powers=Dionysus,Limus,-";
    State t = position(three);
    play(t, {"move B2 B1", "dome B1 C2", "move C5 B5"});
    CHECK(legal_starting(t, "build") == sorted({"build B5 C4", "build B5 C5"}));
    t = position(three);
    play(t, {"move B2 B1", "dome B1 C2", "move A5 A4"});
    CHECK(legal(t, "build A4 A5"));  // next to her A3, by her own worker
}

TEST_CASE("Dionysus and Athena: her worker he moves may move up; his own may not",
          "[dionysus][athena]") {
    // Athena moved up on her last turn: opponent workers cannot move up. Dionysus' own turn
    // is bound; in his additional turn the worker he moves is hers, which is not.
    State s = position(
        "00000/00000/00000/00300/10010 A:B2,E5 B:A5,E1 A powers=Dionysus,Athena memory=0,1");
    CHECK_FALSE(legal(s, "move B2 A1"));
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(s.turn.flags & turn_flag::extra_turn);
    CHECK(legal(s, "move E1 D1"));
    play(s, {"move E1 D1", "build D1 E1"});
    CHECK(decider(s) == 1);
    CHECK(s.card(1).memory == 1);  // his turn, not hers: her memory is still her last turn's
}

TEST_CASE("Dionysus may decline the additional turn with Persephone in play",
          "[dionysus][persephone]") {
    // In the additional turn Persephone's E1 could move up to D1: her demand binds that turn
    // (it is his), but "you may": declining it plays no turn, so nothing is demanded of it.
    State s =
        position("00000/00000/00000/00300/00010 A:B2,E5 B:A5,E1 A powers=Dionysus,Persephone");
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(s.turn.flags & turn_flag::extra_turn);
    CHECK_FALSE(s.turn.if_possible_waived);
    CHECK(sorted(legal_texts(s)) == sorted({"move E1 D1", "pass"}));
    play(s, {"pass"});
    CHECK(decider(s) == 1);
    CHECK(s.card(0).counter == 0);
    // With no move up possible in it, the demand is waived and every move is open, and so is
    // the decline.
    State flat =
        position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Dionysus,Persephone");
    play(flat, {"move B2 B1", "dome B1 C2"});
    CHECK(flat.turn.if_possible_waived);
    CHECK(legal(flat, "move E1 D1"));
    CHECK(legal(flat, "pass"));
}

TEST_CASE("Dionysus and Hades: Hades' worker he moves may move down; his own may not",
          "[dionysus][hades]") {
    // Ruling C11: Hades binds "opponent Workers" by their owner, so in the additional turn the
    // worker Dionysus moves, Hades' own, goes down freely (E1 on level 1 to D1).
    State s = position("00001/00000/00000/00300/00001 A:B2,E5 B:A5,E1 A powers=Dionysus,Hades");
    CHECK_FALSE(legal(s, "move E5 D5"));  // his own turn: his worker may not go down
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(s.turn.flags & turn_flag::extra_turn);
    CHECK(legal(s, "move E1 D1"));
    play(s, {"move E1 D1", "build D1 E1"});
    CHECK(decider(s) == 1);
}

TEST_CASE("Dionysus and Siren: no song in his additional turn", "[dionysus][siren]") {
    // Rulings C11 and W4: the additional turn is his, with his powers; Siren's song is her
    // turn's, so he moves her worker and builds, and nobody is forced.
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Dionysus,Siren memory=0,1");
    play(s, {"move B2 B1", "dome B1 C2"});
    REQUIRE(s.turn.flags & turn_flag::extra_turn);
    CHECK(legal_starting(s, "force").empty());
    CHECK(legal(s, "move E1 D1"));
}
