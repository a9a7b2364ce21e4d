// Graeae. Setup: when placing your Workers, place 3 of your color (2-3 players, not in the
// Golden Fleece: PowerInfo::workers = 3). Your Build: you choose which Worker of yours builds.
// Rulings (docs/rulings.md E6): any of her workers on the board builds, the one that moved or
// another, each by the normal rules from where it stands; Circe holding the card chooses among
// her own workers.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

std::uint32_t any_of_hers(const State& s, int seat) {
    std::uint32_t bits = 0;
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).square != no_square) bits |= std::uint32_t{1} << w;
    return bits;
}

}  // namespace

const PowerRules graeae{.builders = any_of_hers};

}  // namespace santorini::powers
