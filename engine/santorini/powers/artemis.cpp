// Artemis, Goddess of the Hunt. Your Move: your worker may move one additional time, but not
// back to its initial space. Ruling: the second move is optional; a win is checked after each.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void second_move(const State& s, int, StepList& out) {
    if (s.turn.moves != 1) return;
    StepList moves;
    add_normal_moves(s, s.turn.worker, moves);
    for (const Step& m : moves)
        if (m.to != s.turn.start) out.push_back(m);
}

// second_move offers moves only in AfterMove after one move.
bool hunt_over(const State& s, int) {
    return s.turn.moves >= 2 || (s.turn.moves == 1 && s.phase != Phase::AfterMove);
}
}  // namespace

const PowerRules artemis{.after_move_steps = second_move, .moves_over = hunt_over};

}  // namespace santorini::powers
