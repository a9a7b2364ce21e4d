// Charon, Ferryman to the Underworld. Your Move: before your worker moves, you may force a
// neighbouring opponent worker to the space directly on the other side of your worker, if that
// space is unoccupied. Ruling (A6): optional, once, before anything moved; the forced worker
// goes to any level (it does not win, it has not moved); the worker that forced is then the
// one that must move and build (a force that leaves it no complete turn is not offered).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void ferries(const State& s, int seat, StepList& out) {
    if (s.turn.worker >= 0) return;
    int side = s.seat(seat).side;
    Bitboard blocked = occupied(s);
    for (int w = 0; w < s.worker_count; ++w) {
        Square at = s.worker(w).square;
        if (s.worker(w).side != side || at == no_square || !(s.turn.movable >> w & 1u)) continue;
        Bitboard around = neighbors(at);
        while (around) {
            Square from = pop_first(around);
            if (!opponent_worker_on(s, seat, from)) continue;
            Square to = step_toward(at, direction_between(from, at));
            if (to == no_square || (blocked & bit(to))) continue;
            out.push_back(Step{StepKind::Force, static_cast<std::int8_t>(w), from, to,
                               static_cast<std::int8_t>(s.worker_at(from))});
        }
    }
}

// The core moves the forced worker; the ferryman is now the selected worker.
void select_ferryman(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Force || st.worker < 0 ||
        s.worker(st.worker).side != s.seat(seat).side)
        return;
    s.turn.worker = st.worker;
    s.turn.start = s.worker(st.worker).square;
}
}  // namespace

const PowerRules charon{.begin_steps = ferries,
                        .after_step = select_ferryman,
                        .after_step_kinds = step_kind_bit(StepKind::Force)};

}  // namespace santorini::powers
