// Prometheus, Titan Benefactor of Mankind. Your Turn: if your worker does not move up, it may
// build both before and after moving. Ruling: the first build is optional; if he takes it,
// the same worker must then move, not up, and build again.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void build_first(const State& s, int seat, StepList& out) {
    if (s.turn.worker >= 0) return;
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).square != no_square)
            add_normal_builds(s, w, out, true);
}

void no_climb_after_building(State& s, int, const Step& st) {
    if ((st.kind == StepKind::Build || st.kind == StepKind::Dome) && st.aux == 1)
        s.turn.flags |= turn_flag::no_move_up;
}
}  // namespace

const PowerRules prometheus{
    .begin_steps = build_first,
    .after_step = no_climb_after_building,
    .after_step_kinds = step_kind_bit(StepKind::Build) | step_kind_bit(StepKind::Dome),
    .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
