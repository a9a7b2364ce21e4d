// Minotaur, Bull-headed Monster. Your Move: your worker may move into an opponent worker's
// space if their worker can be forced one space straight backwards to an unoccupied space at
// any level. Ruling: "backwards" = on, away from the Minotaur, on the board; the Minotaur's
// own move follows the normal rules (up at most one).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void pushes(const State& s, int seat, int worker, StepList& out) {
    Square from = s.worker(worker).square;
    Bitboard targets =
        neighbors_for(s, from) & s.board.at_most(s.board.height(from) + 1) & ~dome_like(s, seat);
    Bitboard blocked = occupied(s);
    while (targets) {
        Square to = pop_first(targets);
        if (!opponent_worker_on(s, seat, to)) continue;
        Square beyond = step_toward(to, direction_between(from, to));
        if (beyond != no_square && !(blocked & bit(beyond)))
            out.push_back(Step::move(worker, from, to, beyond));
    }
}
}  // namespace

const PowerRules minotaur{.extra_moves = pushes};

}  // namespace santorini::powers
