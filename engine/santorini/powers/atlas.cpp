// Atlas, Titan Shouldering the Heavens. Your Build: your worker may build a dome at any level.
// Ruling (RULES.md): including the ground.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void low_domes(const State& s, int, int worker, StepList& out) {
    Square from = s.worker(worker).square;
    Bitboard targets = neighbors_for(s, from) & ~occupied(s) & s.board.at_most(2);
    while (targets) out.push_back(Step::build(worker, from, pop_first(targets), true));
}
}  // namespace

const PowerRules atlas{.extra_builds = low_domes, .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
