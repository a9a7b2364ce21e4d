// Triton, God of the Waves. Your Move: each time your worker moves into a perimeter space, it
// may immediately move again.
// Rulings (RULES.md; docs/rulings.md B5): the same worker moves again, each move a normal
// move (up at most one level; a win is checked after each); optional each time (the build is
// the alternative). Unlike Artemis he may come back to any square, his starting one included;
// only a move that repeats a whole state of the turn (the same square after the same moves so
// far) is stopped, by the core's loop guard. Perft counts paths and explodes like Hermes'.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void move_again(const State& s, int, StepList& out) {
    int w = s.turn.worker;
    if (w < 0 || s.turn.moves == 0 || !(perimeter & bit(s.worker(w).square))) return;
    add_normal_moves(s, w, out);
}
}  // namespace

const PowerRules triton{.after_move_steps = move_again};

}  // namespace santorini::powers
