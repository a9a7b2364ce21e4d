// Perft for Aeolus, Siren, Harpies, Urania and Hades against no power, from the start position
// with workers placed: the bitboard-free count equals the count through legal_steps/apply_step
// (probes and real play agree: Siren's song ending in the End phase, Aeolus' mandatory re-aim,
// the Harpies' slide), and the counts are pinned (a change of the rules shows here).

#include "scenario.hpp"

#include "engine/santorini/perft.hpp"

using namespace santorini;

namespace {
struct Pinned {
    const char* position;
    std::uint64_t counts[3];  // depths 1-3 (0: not checked here)
};
}  // namespace

TEST_CASE("Golden Fleece gods: perft through steps agrees, pinned to depth 3 (Aeolus 2)", "[perft][aeolus][siren][harpies][urania][hades]") {
    const Pinned cases[] = {
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Aeolus,- memory=1,0", {544, 36764, 0}},  // depth 3: 17664640 (6 s: santorini-perft)
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Siren,- memory=1,0", {84, 6454, 467748}},
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Harpies,-", {80, 5952, 412528}},
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Urania,-", {114, 8992, 946352}},
        {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Hades,-", {80, 6176, 426384}},
    };
    for (const auto& c : cases) {
        INFO(c.position);
        State s = position(c.position);
        for (int d = 1; d <= 3; ++d)
            if (c.counts[d - 1]) CHECK(perft(s, d) == c.counts[d - 1]);
        for (int d = 1; d <= 2; ++d) CHECK(perft_by_steps(s, d) == c.counts[d - 1]);
    }
}

TEST_CASE("Harpies and Hades bind the other side: perft from the other seat", "[perft][harpies][hades]") {
    // The opponents (A) move first: their moves slide (Harpies) or may not go down (Hades).
    State h = position("00000/00000/01210/00000/00000 A:B3,D4 B:B4,D2 A powers=-,Harpies");
    CHECK(perft(h, 2) == perft_by_steps(h, 2));
    State d = position("00000/00000/01210/00000/00000 A:C3,D4 B:B4,D2 A powers=-,Hades");
    State free = position("00000/00000/01210/00000/00000 A:C3,D4 B:B4,D2 A");
    CHECK(perft(d, 1) < perft(free, 1));  // C3 (level 2) may not step down to B3, D3 or the ground
    CHECK(perft(d, 2) == perft_by_steps(d, 2));
}
