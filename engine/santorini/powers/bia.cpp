// Bia, Goddess of Violence. Setup: place your workers first (PowerInfo::placement = First).
// Your Move: if your worker moves into a space and the next space in the same direction is
// occupied by an opponent worker, the opponent's worker is removed from the game.
// Ruling (RULES.md, A4): the English setup text (no perimeter rule); after each of her moves,
// not when her worker is forced; no step, as there is nothing to choose. A side left without
// workers loses at the start of its turn (it has no turn to complete).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void remove_beyond(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Move || s.worker(st.worker).side != s.seat(seat).side) return;
    if (!(neighbors(st.from) & bit(st.to))) return;  // only a step to a neighbour has a direction
    Square beyond = step_toward(st.to, direction_between(st.from, st.to));
    if (beyond == no_square || !opponent_worker_on(s, seat, beyond)) return;
    s.worker(s.worker_at(beyond)).square = no_square;
}
}  // namespace

const PowerRules bia{.after_step = remove_beyond,
                     .after_step_kinds = step_kind_bit(StepKind::Move)};

}  // namespace santorini::powers
