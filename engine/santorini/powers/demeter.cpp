// Demeter, Goddess of the Harvest. Your Build: your worker may build one additional time, but
// not on the same space. Ruling: optional; the same worker builds, block or dome as usual.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void second_build(const State& s, int, StepList& out) {
    if (s.turn.builds != 1) return;
    StepList builds;
    add_normal_builds(s, s.turn.worker, builds);
    for (const Step& b : builds)
        if (b.to != s.turn.last_build) out.push_back(b);
}
// second_build offers builds only while one build was made.
bool demeter_builds_over(const State& s, int, const Step&) { return s.turn.builds >= 1; }
}  // namespace

const PowerRules demeter{.more_builds = second_build,
                         .moves_no_worker_after_moving = true,
                         .rest_of_turn_ignores_builds = true,  // nothing of hers once her builds are over
                         .builds_over_after = demeter_builds_over};

}  // namespace santorini::powers
