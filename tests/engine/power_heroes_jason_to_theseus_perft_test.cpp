// Perft for Jason, Medea, Odysseus, Polyphemus and Theseus against no power, from positions
// where each power can be used on the first turn. The counts to depth 2 were checked against an
// independent enumerator (a small script written from the card texts and rulings HB1-HB13, no
// engine code: plain moves and builds, then each hero's steps); here the count through
// legal_steps/apply_step must agree with perft, and the counts are pinned (a change of the
// rules shows here).

#include <string>

#include "scenario.hpp"

#include "engine/santorini/perft.hpp"

using namespace santorini;

namespace {
struct Pinned {
    const char* position;
    std::uint64_t counts[2];  // depths 1-2
};
}  // namespace

TEST_CASE("Heroes Jason to Theseus: perft through steps agrees, pinned to depth 2",
          "[perft][hero][jason][medea][odysseus][polyphemus][theseus]") {
    const Pinned cases[] = {
        // 80 normal turns, 52 placements with a build (16 perimeter spaces).
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Jason,- reserve=1,0", {132, 10068}},
        {"10000/00000/0D0000/00001/00100 A:B2,D4 B:B4,D2 A powers=Jason,- reserve=1,0", {112, 7850}},
        {"00000/02000/00010/01100/00000 A:B3,D3 B:B4,C2 A powers=Medea,-", {267, 18833}},
        {"01000/12100/01210/00100/00000 A:B3,C2 B:B4,C4 A powers=Medea,-", {295, 15268}},
        {"00000/00000/00000/00000/00000 A:B2,D4 B:C3,E5 A powers=Odysseus,-", {1862, 63786}},
        {"01000/00100/00200/00010/00000 A:B2,B4 B:A3,C3 A powers=Odysseus,-", {2222, 75550}},
        // Each of the 80 turns ends with no dome, one of 21 or two: 80 * (1 + 21 + 21 * 20).
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Polyphemus,-", {35360, 2283136}},
        {"00000/0D0000/00300/00000/00000 A:B2,D4 B:B4,D2 A powers=Polyphemus,-", {27112, 1310013}},
        {"00000/00000/00200/00000/20000 A:B2,D4 B:C3,A1 A powers=Theseus,-", {183, 6956}},
        {"00000/02000/01200/00000/20000 A:B2,A3 B:C3,B4 A powers=Theseus,-", {89, 5170}},
    };
    for (const auto& c : cases) {
        INFO(c.position);
        State s = position(c.position);
        for (int d = 1; d <= 2; ++d) {
            CHECK(perft(s, d) == c.counts[d - 1]);
            CHECK(perft_by_steps(s, d) == c.counts[d - 1]);
        }
    }
}

TEST_CASE("Heroes Jason to Theseus: a spent power counts as no power", "[perft][hero]") {
    for (const char* power : {"Jason", "Medea", "Odysseus", "Polyphemus", "Theseus"}) {
        INFO(power);
        std::string board = "01000/00100/00200/00010/00000 A:B2,B4 B:A3,C3 A";
        State spent = position((board + " powers=" + power + ",- counter=1,0").c_str());
        State none = position(board.c_str());
        CHECK(perft(spent, 2) == perft(none, 2));
    }
}
