// Triton, God of the Waves. Your Move: each time your worker moves into a perimeter space, it
// may immediately move again.
// Rulings (RULES.md; docs/rulings.md B5): the same worker moves again, each move a normal
// move (up at most one level; a win is checked after each); optional each time (the build is
// the alternative). As for Hermes, the turn never passes twice through the same placement of
// his workers (Turn::visited), so it cannot loop; perft counts paths and explodes like Hermes'.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void move_again(const State& s, int, StepList& out) {
    int w = s.turn.worker;
    if (w < 0 || s.turn.moves == 0 || !(perimeter & bit(s.worker(w).square))) return;
    StepList moves;
    add_normal_moves(s, w, moves);
    for (const Step& m : moves)
        if (!visited(s, configuration_key_after(s, m))) out.push_back(m);
}
}  // namespace

const PowerRules triton{.after_move_steps = move_again};

}  // namespace santorini::powers
