// Apollo, God of Music. Your Move: your worker may move into an opponent worker's space by
// forcing their worker to the space yours just vacated.
// Ruling (RULES.md): the swap follows the normal move rules for Apollo's worker (up at most
// one); never with his own workers.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void swaps(const State& s, int seat, int worker, StepList& out) {
    Square from = s.worker(worker).square;
    Bitboard targets =
        neighbors_for(s, from) & s.board.at_most(s.board.height(from) + 1) & ~dome_like(s, seat);
    while (targets) {
        Square to = pop_first(targets);
        if (opponent_worker_on(s, seat, to)) out.push_back(Step::move(worker, from, to, from));
    }
}
}  // namespace

const PowerRules apollo{.extra_moves = swaps};

}  // namespace santorini::powers
