// Hecate, Goddess of Magic. Setup: place your Workers last; keep them hidden (a secret map of
// their spaces). Any Time: if an opponent's action would be illegal because of your hidden
// Workers, that action is cancelled and the rest of their turn is lost. When possible, use
// their power on their behalf to make their turns legal without informing them. (2-3 players.)
//
// Her workers stand on their true squares in the State; `hide` takes them off the board in
// the view of every seat of another side and of spectators (3 players: each opponent sees its
// own and the other opponent's workers, not hers), and during her turn also the Turn fields
// that would tell where they stand or stood. With a `hide` in play the core makes every
// decider's legal steps on its view (3.2) and maps the chosen step onto the truth: the same
// step, or the true one of the same kind, worker, from and to (Apollo's move onto her hidden
// worker becomes his swap, Minotaur's his push); a step with no true counterpart is cancelled
// and the rest of the turn is lost (rules.cpp apply_checked, G4.2). The core does that for
// every secret, so this card needs no `cancels` hook. An opponent whose turn is possible on
// its view does not lose at its turn start (G4.3). Rulings H7-H12.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {

namespace {

void hide_workers(State& view, int seat, int viewer) {
    int side = view.seat(seat).side;
    if (viewer >= 0 && view.seat(viewer).side == side) return;
    for (int w = 0; w < view.worker_count; ++w)
        if (view.worker(w).side == side) view.worker(w).square = no_square;
    if (view.seat(view.turn.seat).side != side) return;
    // Her turn: which worker moved, from where, and the placements it passed through.
    view.turn.worker = -1;
    view.turn.start = no_square;
    view.turn.visited = {};
    view.turn.moved_workers = 0;
    // Which of her workers may move (Hypnus' freeze names her highest), whether she moved up or
    // changed level, whether she could move up (Persephone's waiver): each narrows the squares.
    view.turn.movable = 0;
    view.turn.flags &= static_cast<std::uint16_t>(~(turn_flag::moved_up | turn_flag::level_changed));
    view.turn.if_possible_waived = false;
}

}  // namespace

const PowerRules hecate{.hide = hide_workers};

}  // namespace santorini::powers
