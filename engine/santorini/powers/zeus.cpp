// Zeus, God of the Sky. Your Build: your worker may build a block under itself.
// Ruling (RULES.md): a block, never a dome, and not from height 3; rising on it is not a move,
// so it never wins and is not "moving up" (Athena, Persephone). Restrictions on builds (Limus)
// bind it like any build.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void build_under_itself(const State& s, int seat, int worker, StepList& out) {
    Square sq = s.worker(worker).square;
    if (s.board.height(sq) < 3 && !(dome_like(s, seat) & bit(sq)))
        out.push_back(Step::build(worker, sq, sq));
}
}  // namespace

const PowerRules zeus{.extra_builds = build_under_itself, .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
