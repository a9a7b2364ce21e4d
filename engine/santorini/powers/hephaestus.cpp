// Hephaestus, God of Blacksmiths. Your Build: your worker may build one additional block (not
// dome) on top of your first block. Ruling: only if the first build was a block and the
// second is a block too (so the space has at most 2 blocks after the first build).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void second_block(const State& s, int, StepList& out) {
    Square sq = s.turn.last_build;
    if (s.turn.builds != 1 || s.board.has_dome(sq) || s.board.height(sq) >= 3) return;
    out.push_back(Step::build(s.turn.worker, s.worker(s.turn.worker).square, sq));
}
// second_block offers a block after the first build only, on a block that leaves it below
// level 3: none after a dome or a block onto level 2 or higher.
bool hephaestus_builds_over(const State& s, int, const Step& build) {
    return s.turn.builds >= 1 || build.kind == StepKind::Dome || s.board.height(build.to) >= 2;
}
}  // namespace

const PowerRules hephaestus{.more_builds = second_block,
                            .moves_no_worker_after_moving = true,
                            .rest_of_turn_ignores_builds = true,  // nothing of his once his builds are over
                            .builds_over_after = hephaestus_builds_over};

}  // namespace santorini::powers
