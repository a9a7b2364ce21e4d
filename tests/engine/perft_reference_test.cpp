// The engine's perft against an independent reference enumerator (reference_enumerator.hpp):
// fixed positions of the base game and of five easy gods, plus positions the reference reaches
// by its own random play. The reference shares no code with the engine.

#include <catch2/catch_test_macros.hpp>
#include <random>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"
#include "engine/santorini/perft.hpp"
#include "reference_enumerator.hpp"

using namespace santorini;

namespace {

// Fixed positions: start-like, mid-game towers and domes, wins one move away (and 3->3 moves
// that do not win), a side nearly blocked, a side with no legal turn, a crowded high board.
const char* const positions[] = {
    "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A",                // 0 start-like
    "00000/00000/00000/00000/00000 A:A1,E5 B:A5,E1 B",                // 1 corners
    "01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 A",              // 2 the example
    "01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 B",              // 3 same, B to move
    "1D2301/03D122/2230D1/1D0213/00312 A:C4,D2 B:B3,E1 A",            // 4 mid-game, domes
    "00000/01230/02320/01210/00000 A:B3,C2 B:D4,E5 A",                // 5 A can win at once
    "00000/01230/02320/01210/00000 A:B3,C2 B:D4,E5 B",                // 6 B on level 3: 3->3
    "0000D0/00031/00000/22D000/02000 A:A1,E5 B:B4,C3 A",              // 7 A nearly blocked
    "00000/00000/00000/0D0D00D0D/00D00D0 A:A1,E1 B:C3,C4 A",          // 8 A has no turn: lost
    "00000/00000/00000/0D0D00D0D/00D00D0 A:A1,E1 B:C3,C4 B",          // 9 B moves, A boxed in
    "3D23D12/2D3332D/1332D1/02D231/1D0D002 A:B4,D2 B:C3,E1 A",        // 10 crowded high board
    "10001/02220/02320/02220/10001 A:B2,D4 B:B4,D2 A",                // 11 a race around C3
    "00000/03330/03030/03330/00000 A:B2,D4 B:B4,D2 A",                // 12 level-3 ring (Pan)
};
constexpr int position_count = static_cast<int>(sizeof positions / sizeof positions[0]);

enum God { NoGod, Artemis, Demeter, Pan, Atlas, Triton };
const char* god_key(God g) {
    switch (g) {
        case Artemis: return "Artemis";
        case Demeter: return "Demeter";
        case Pan: return "Pan";
        case Atlas: return "Atlas";
        case Triton: return "Triton";
        default: return "-";
    }
}

reference::Gods reference_gods(God a, God b) {
    reference::Gods g;
    God sides[2] = {a, b};
    for (int s = 0; s < 2; ++s) {
        g.artemis[s] = sides[s] == Artemis;
        g.demeter[s] = sides[s] == Demeter;
        g.pan[s] = sides[s] == Pan;
        g.atlas[s] = sides[s] == Atlas;
        g.triton[s] = sides[s] == Triton;
    }
    return g;
}

State engine_position(const std::string& text, God a, God b) {
    std::string full = text;
    if (a != NoGod || b != NoGod) full += std::string(" powers=") + god_key(a) + "," + god_key(b);
    auto s = parse_notation(full);
    INFO(full);
    REQUIRE(s.ok());
    return *s;
}

reference::Position reference_position(const std::string& text) {
    auto p = reference::parse(text);
    INFO(text);
    REQUIRE(p.has_value());
    return *p;
}

void check_perft(const std::string& text, God a, God b, int max_depth, bool by_steps = true) {
    State s = engine_position(text, a, b);
    reference::Position p = reference_position(text);
    reference::Gods g = reference_gods(a, b);
    for (int d = 1; d <= max_depth; ++d) {
        INFO(text << " powers " << god_key(a) << "," << god_key(b) << " depth " << d);
        std::uint64_t expected = reference::perft(p, g, d);
        CHECK(perft(s, d) == expected);
        if (by_steps) CHECK(perft_by_steps(s, d) == expected);
    }
}

}  // namespace

TEST_CASE("reference enumerator reads and prints its own notation", "[perft][reference]") {
    for (const char* text : positions) {
        auto p = reference::parse(text);
        REQUIRE(p.has_value());
        CHECK(reference::to_text(*p) == text);
    }
    CHECK_FALSE(reference::parse("0000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A"));
    CHECK_FALSE(reference::parse("00000/00000/00000/00000/00000 A:B2,D4 B:B4,F2 A"));
}

TEST_CASE("reference enumerator counts hand-checked turns", "[perft][reference]") {
    // A on B3 and C2 (level 2) next to C3 (level 3): each worker has exactly one winning move.
    auto p = reference_position(positions[5]);
    int wins = 0;
    for (const auto& q : reference::full_turns(p, {})) wins += q.winner == 0;
    CHECK(wins == 2);
    // Corner workers A1 and E5 on a flat board, B on C3 and C4 (moves, then free neighbours):
    //   A1->A2: A1,A3,B1,B2,B3 = 5   A1->B1: A1,A2,B2,C1,C2 = 5   A1->B2: 8 minus C3 = 7
    //   E5->D5: C5,D4,E4,E5 = 4      E5->E4: D3,D4,D5,E3,E5 = 5   E5->D4: 8 minus C3,C4 = 6
    auto corners = reference_position("00000/00000/00000/00000/00000 A:A1,E5 B:C3,C4 A");
    CHECK(reference::perft(corners, {}, 1) == 32);
    // Triton on row 1 with row 2 and D1 domed: his A1 worker lives on A1, B1, C1 (all perimeter,
    // flat), the E1 worker cannot move. Paths (square, moves: 1 or 2+), never repeating a state:
    //   B1 | B1 A1 | B1 A1 B1 | B1 A1 B1 C1 | B1 C1 | B1 C1 B1 | B1 C1 B1 A1
    // builds: on B1 two (A1, C1), on A1 or C1 one (B1): 2+1+2+1+1+2+1 = 10.
    const char* walled = "00000/00000/00000/0D0D0D0D0D/0000D0 A:A1,E1 B:A4,E4 A";
    CHECK(reference::perft(reference_position(walled), reference_gods(Triton, NoGod), 1) == 10);
    CHECK(perft(engine_position(walled, Triton, NoGod), 1) == 10);
    // The boxed-in side has no turn: it has lost, perft is 0 at every depth.
    auto boxed = reference_position(positions[8]);
    CHECK(reference::full_turns(boxed, {}).empty());
    CHECK(reference::perft(boxed, {}, 2) == 0);
}

TEST_CASE("perft without powers equals the reference at depths 1-3", "[perft][reference]") {
    // perft_by_steps walks every step through the generator with the completion probe: depth 3
    // there only on the smaller trees, so the file stays fast under the sanitizers.
    for (int i = 0; i < position_count; ++i) {
        check_perft(positions[i], NoGod, NoGod, 2, true);
        bool small_tree = i == 4 || i == 7 || i == 9 || i == 10;
        State s = engine_position(positions[i], NoGod, NoGod);
        std::uint64_t expected = reference::perft(reference_position(positions[i]), {}, 3);
        INFO(positions[i] << " depth 3");
        CHECK(perft(s, 3) == expected);
        if (small_tree) CHECK(perft_by_steps(s, 3) == expected);
    }
}

TEST_CASE("perft without powers equals the reference at depth 4", "[perft][reference]") {
    State s = engine_position(positions[7], NoGod, NoGod);
    std::uint64_t expected = reference::perft(reference_position(positions[7]), {}, 4);
    CHECK(perft(s, 4) == expected);
    CHECK(perft_by_steps(s, 4) == expected);
}

TEST_CASE("perft with Artemis, Demeter, Pan, Atlas and Triton equals the reference",
          "[perft][reference][artemis][demeter][pan][atlas][triton]") {
    // With a power in play perft and perft_by_steps take the same path: perft is checked.
    const God gods[] = {Artemis, Demeter, Pan, Atlas, Triton};
    for (God g : gods) {
        for (int i : {4, 7, 10}) {
            check_perft(positions[i], g, NoGod, 2, false);
            check_perft(positions[i], NoGod, g, 2, false);
        }
        for (int i : {0, 2, 5, 6, 11, 12}) {
            check_perft(positions[i], g, NoGod, 1, false);
            check_perft(positions[i], NoGod, g, 1, false);
        }
    }
    // Both sides with a god.
    const God pairs[][2] = {{Artemis, Pan},    {Pan, Atlas},   {Demeter, Artemis},
                            {Atlas, Demeter},  {Triton, Pan},  {Artemis, Triton}};
    for (const auto& pair : pairs) {
        check_perft(positions[10], pair[0], pair[1], 2, false);
        check_perft(positions[7], pair[0], pair[1], 2, false);
        for (int i : {2, 6, 12}) check_perft(positions[i], pair[0], pair[1], 1, false);
    }
}

TEST_CASE("perft equals the reference on positions from the reference's own random games", "[perft][reference]") {
    std::mt19937_64 rng(20240601);
    const God gods[] = {NoGod, Artemis, Demeter, Pan, Atlas};
    int checked = 0;
    for (int game = 0; game < 12; ++game) {
        auto p = reference_position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
        God a = gods[rng() % 5], b = gods[rng() % 5];
        if (a == b) b = NoGod;
        reference::Gods g = reference_gods(a, b);
        for (int ply = 0; ply < 40 && p.winner < 0; ++ply) {
            auto next = reference::full_turns(p, g);
            if (next.empty()) break;
            if (ply % 4 == 3) {
                check_perft(reference::to_text(p), a, b, (a == NoGod && b == NoGod) ? 2 : 1);
                ++checked;
            }
            p = next[static_cast<std::size_t>(rng() % next.size())];
        }
    }
    CHECK(checked >= 40);
}

TEST_CASE("perft with Triton equals the reference on positions from the reference's own games",
          "[perft][reference][triton]") {
    // Triton comes back to squares his worker left (the start included) and moves on while he
    // is on the perimeter: many paths per turn, so depth 1, and the distinct results too.
    std::mt19937_64 rng(20261125);
    int checked = 0;
    for (int game = 0; game < 8; ++game) {
        auto p = reference_position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
        God a = game % 2 == 0 ? Triton : (game % 4 == 1 ? Pan : NoGod);
        God b = game % 2 == 0 ? (game % 4 == 0 ? Artemis : NoGod) : Triton;
        reference::Gods g = reference_gods(a, b);
        for (int ply = 0; ply < 40 && p.winner < 0; ++ply) {
            auto next = reference::full_turns(p, g);
            if (next.empty()) break;
            if (ply % 4 == 2) {
                std::string text = reference::to_text(p);
                check_perft(text, a, b, 1, false);
                INFO(text << " powers " << god_key(a) << "," << god_key(b));
                CHECK(perft_distinct(engine_position(text, a, b)) == reference::distinct_results(p, g));
                ++checked;
            }
            p = next[static_cast<std::size_t>(rng() % next.size())];
        }
    }
    CHECK(checked >= 30);
}

TEST_CASE("perft_distinct without powers counts distinct boards and worker sets", "[perft][reference]") {
    for (int i : {0, 2, 3, 4, 5, 6, 7, 10, 11}) {
        INFO(positions[i]);
        State s = engine_position(positions[i], NoGod, NoGod);
        CHECK(perft_distinct(s) == reference::distinct_results(reference_position(positions[i]), {}));
    }
    // A side with no legal turn has lost: nothing follows.
    CHECK(perft_distinct(engine_position(positions[8], NoGod, NoGod)) == 0);
}

TEST_CASE("perft_distinct with Hermes is finite and counts reachable placements once", "[perft][hermes]") {
    // Row 2 is all domes and E1 is domed: Hermes' workers (A1, B1) live on A1-D1, all on the
    // ground. Every pair of those four spaces is reachable (even zero moves), then one block
    // is built next to either worker on a free space of row 1:
    //   {A1,B1}: C1          1      {B1,C1}: A1, D1    2
    //   {A1,C1}: B1, D1      2      {B1,D1}: A1, C1    2
    //   {A1,D1}: B1, C1      2      {C1,D1}: B1        1
    // 10 distinct results. (B is far away on row 4 and always has a turn.)
    auto s = parse_notation("00000/00000/00000/0D0D0D0D0D/00000D A:A1,B1 B:C4,D4 A powers=Hermes,-");
    REQUIRE(s.ok());
    CHECK(perft_distinct(*s) == 10);
}
