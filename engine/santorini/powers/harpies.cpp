// Harpies, Winged Menaces. Opponent's Turn: each time an opponent's Worker moves, it is forced
// space by space in the same direction until the next space is at a higher level or it is
// obstructed.
// RULES.md: the win check of the move happens before the slide. Ruling W5: every Move step of an
// opponent's worker (by owner, C11) on an opponent's turn slides (each move of a turn with
// several), never a forced worker (Apollo's swapped or Minotaur's pushed one, Siren's song,
// Charon's ferry); the direction is the move's (across Urania's wrap: the step over the edge,
// W1) and the slide itself stays on the board; it stops before the edge, a worker, a dome or a
// square the mover treats as a dome (the Ram, Talus, Clio's coins), or a higher space; down is
// fine and lands at any level without winning (forced). It runs as an after_any_move hook, so
// the mover builds from where the slide left the worker.
#include "engine/santorini/powers/powers.hpp"
#include "engine/santorini/powers/torus.hpp"

namespace santorini::powers {
namespace {
void slide(State& s, int seat, int mover, const Step& st) {
    if (st.kind != StepKind::Move || !opponents(s, seat, mover)) return;
    Worker& moved = s.worker(st.worker);
    if (moved.side == s.seat(seat).side || moved.square == no_square) return;
    int d = move_direction(st.from, st.to);
    if (d < 0) return;
    Bitboard blocked = occupied(s, mover);
    Square at = moved.square;
    for (;;) {
        Square next = step_toward(at, static_cast<santorini::Direction>(d));
        if (next == no_square || (blocked & bit(next)) || s.board.height(next) > s.board.height(at)) break;
        at = next;
    }
    moved.square = at;
}
}  // namespace

// The slide follows Move steps only.
// slide: after Move steps only, which the rest of a turn after its build does not have where
// every power in play says rest_of_turn_ignores_builds.
const PowerRules harpies{.after_any_move = slide,
                         .any_step_hooks_act_after_moves_only = true,
                         .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
