// Perft for the heroes Achilles, Adonis, Atalanta, Bellerophon and Heracles against no power:
// the bitboard-free count equals the count through legal_steps/apply_step, and the counts are
// pinned. Every pinned count was checked against an independent enumerator written from the
// cards (tests/engine/heroes_a_reference.py, no engine code): the start position and a
// position with levels (a two-level climb, wins by a first build, charmed workers that must
// come back), and Atalanta's paths in a walled pocket.

#include "engine/santorini/perft.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {
struct Pinned {
    const char* position;
    std::uint64_t counts[2];  // depths 1-2 (0: not checked here)
};
}  // namespace

TEST_CASE("Heroes Achilles to Heracles: perft through steps agrees, pinned to depth 2",
          "[perft][achilles][adonis][atalanta][bellerophon][heracles]") {
    const char* start = "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=";
    const char* mid = "00100/01200/00310/02100/10000 A:B2,D4 B:B4,D2 A powers=";
    const Pinned cases[] = {
        {"Achilles,-", {720, 55400}},
        {"Adonis,-", {240, 12164}},
        {"Bellerophon,-", {80, 6176}},  // nothing two levels up: as without a power
        {"Heracles,-", {481280, 0}},    // depth 2: 20,546,560 (the reference agrees; 12 s)
    };
    const Pinned mids[] = {
        {"Achilles,-", {561, 35961}},
        {"Adonis,-", {190, 7496}},
        {"Bellerophon,-", {71, 4599}},
        {"Heracles,-", {401409, 0}},
    };
    auto check = [](const std::string& text, const Pinned& c, bool by_steps) {
        INFO(text);
        State s = position(text.c_str());
        for (int d = 1; d <= 2; ++d) {
            if (!c.counts[d - 1]) continue;
            CHECK(perft(s, d) == c.counts[d - 1]);
            if (by_steps) CHECK(perft_by_steps(s, d) == c.counts[d - 1]);
        }
    };
    for (const auto& c : cases) check(std::string(start) + c.position, c, c.counts[0] < 10000);
    for (const auto& c : mids) check(std::string(mid) + c.position, c, c.counts[0] < 10000);
}

TEST_CASE("Atalanta's paths in a walled pocket: perft 1 counts every path once",
          "[perft][atalanta]") {
    // Free: A1-E1 and A2-C2; the other workers stand in pockets of their own.
    State s =
        position("00D00D0/0D0D0D0D0D/0D0D0D0D0D/0000D0D/00000 A:A1,E5 B:A5,C5 A powers=Atalanta,-");
    CHECK(perft(s, 1) == 7165);
    CHECK(perft_by_steps(s, 1) == 7165);
    CHECK(perft_distinct(s) > 0);
}
