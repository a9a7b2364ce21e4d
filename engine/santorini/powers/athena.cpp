// Athena, Goddess of Wisdom. Opponent's Turn: if one of your workers moved up on your last
// turn, opponent workers cannot move up this turn.
// Ruling: "moved up" means moved, not was forced; the memory lasts until her next turn ends,
// so it binds every opponent turn in between (3 players: both opponents). "Opponent Workers"
// are told by their owner (C11): her own worker that Dionysus moves is not bound.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void remember(State& s, int seat) {
    s.seat(seat).memory = (s.turn.flags & turn_flag::moved_up) ? 1 : 0;
}

bool no_moving_up(const State& s, int seat, int mover, const Step& m) {
    return !opponents(s, seat, mover) || s.worker(m.worker).side == s.seat(seat).side ||
           s.seat(seat).memory == 0 || s.board.height(m.to) <= s.board.height(m.from);
}
}  // namespace

const PowerRules athena{.own_turn_end = remember, .may_move = no_moving_up};

}  // namespace santorini::powers
