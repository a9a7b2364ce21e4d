// Hestia, Goddess of Hearth and Home. Your Build: your worker may build one additional time,
// but this cannot be on a perimeter space. Ruling (A2): optional; the same worker builds, and
// may build on the same space again (block or dome as usual), as long as it is not perimeter.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void inner_build(const State& s, int, StepList& out) {
    if (s.turn.builds != 1) return;
    StepList builds;
    add_normal_builds(s, s.turn.worker, builds);
    for (const Step& b : builds)
        if (!(perimeter & bit(b.to))) out.push_back(b);
}
// inner_build offers builds only while one build was made.
bool hestia_builds_over(const State& s, int, const Step&) { return s.turn.builds >= 1; }
}  // namespace

const PowerRules hestia{.more_builds = inner_build,
                        .moves_no_worker_after_moving = true,
                        .rest_of_turn_ignores_builds = true,  // nothing of hers once her builds are over
                        .builds_over_after = hestia_builds_over};

}  // namespace santorini::powers
