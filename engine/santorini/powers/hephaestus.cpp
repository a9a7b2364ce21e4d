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
}  // namespace

const PowerRules hephaestus{.more_builds = second_block, .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
