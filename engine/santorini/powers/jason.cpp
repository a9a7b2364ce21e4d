// Jason, Leader of the Argonauts. Setup: take one extra Worker of your color; it is kept on your
// God Power card until needed. Your Turn: once, instead of your normal turn, place your extra
// Worker on an unoccupied ground-level perimeter space. This Worker then builds.
// Rulings (docs/rulings.md HB1-HB3): the placement is the first step of a turn or nothing (it
// replaces the move); the placed worker then makes one normal build, and the turn goes on as a
// turn after its move (end-of-turn powers, the restrictions on builds: Limus); spaces that
// count as domes for him (Clio's coins, Talus) are occupied. A placement cancelled because a
// hidden worker stands there (Hecate) is no use: the power stays unused.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

// His worker on the card (the core created it with in_reserve), or -1 once placed.
int worker_on_card(const State& s, int seat) {
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).in_reserve) return w;
    return -1;
}

bool turn_untouched(const State& s) {
    return s.turn.worker < 0 && s.turn.moves == 0 && !(s.turn.flags & turn_flag::built_before_move);
}

void place_instead(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Jason);
    if (card < 0 || hero_spent(s, card) || !turn_untouched(s)) return;
    int w = worker_on_card(s, seat);
    if (w < 0) return;
    Bitboard spaces = perimeter & s.board.at_height(0) & ~occupied(s);
    while (spaces) out.push_back(Step::place(w, pop_first(spaces)));
}

// The core put the worker on the board; it is now the turn's worker and builds as a worker
// that has just moved would.
void then_build(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Place) return;
    if (card_seat(s, seat, PowerId::Jason) < 0) return;
    s.turn.worker = st.worker;
    s.turn.start = st.to;
    s.phase = Phase::AfterMove;
}

bool is_placement(const State&, int, const Step& st) { return st.kind == StepKind::Place; }

}  // namespace

const PowerRules jason{.begin_steps = place_instead,
                       .after_step = then_build,
                       .after_step_kinds = step_kind_bit(StepKind::Place),
                       .hero_use = is_placement};

}  // namespace santorini::powers
