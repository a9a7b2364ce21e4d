// Hades, God of the Underworld. Opponent's Turn: opponent Workers cannot move down.
// Moves only (every Move step, whichever power made it: Artemis' second move, Apollo's and
// Minotaur's own worker); forced workers may go down (Siren, Charon, a push, Harpies' slide).
// Workers are judged by their owner (C11): his own worker moved by an opponent (Dionysus) is
// free, and a teammate is no opponent. Ruling W9.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool not_down(const State& s, int seat, int mover, const Step& move) {
    if (!opponents(s, seat, mover) || s.worker(move.worker).side == s.seat(seat).side) return true;
    return s.board.height(move.to) >= s.board.height(move.from);
}
}  // namespace

const PowerRules hades{.may_move = not_down};

}  // namespace santorini::powers
