// Persephone, Goddess of Spring Growth. Opponent's Turn: if possible, at least one worker must
// move up this turn.
// Rulings (RULES.md; docs/rulings.md B7): "moved up" is turn_flag::moved_up (a move, not a
// forced displacement, and not rising on one's own build: Zeus). "If possible" is the core's
// if_possible demand: it binds when some complete turn of the mover moves up, judged at the
// turn's start after every turn-start effect (Hypnus' freeze), over every way the mover's
// powers move (a second move of Artemis, Triton's moves); otherwise it is waived for the turn.
// A win ends the turn, so a win that is no move up (Pan, Eros) counts as a turn meeting it
// only when it is waived (the core's completion rule).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool moved_up(const State& s, int seat, int mover) {
    return !opponents(s, seat, mover) || (s.turn.flags & turn_flag::moved_up);
}
}  // namespace

const PowerRules persephone{
    .if_possible = moved_up,
    .if_possible_ignores_builds = true,
    .if_possible_only_by_moving_up = true,
    .rest_of_turn_ignores_builds = true};  // moved_up: turn_flag::moved_up only

}  // namespace santorini::powers
