// Odysseus, Cunning Leader. Start of Your Turn: once, force to unoccupied corner spaces any
// number of opponent Workers that neighbor your Workers.
// Rulings (docs/rulings.md HB7-HB9): the forces come before anything else of the turn, one
// Force step each ("force D4 E5": the worker on D4 to the corner E5; no worker of his is
// written, so two of his workers next to one victim do not list it twice), then his normal
// turn; the use is spent from the first force and goes on until he moves (Turn::extra: the
// workers forced), each opponent worker at most once. A corner is unoccupied for him (no
// worker, no dome, nothing that counts as a dome for him: Clio's coins, Talus); any level.
// A forced worker does not move: it never wins there and is not bound by move restrictions.
#include <cassert>

#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

// Turn::extra: the opponent workers (bits of indices) forced this turn; non-zero = the use goes
// on. Heroes play only 2-player games, with at most 6 workers, so 8 bits are enough.

bool nothing_else_done(const State& s) {
    return s.turn.worker < 0 && s.turn.moves == 0 && !(s.turn.flags & turn_flag::built_before_move);
}

void forces(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Odysseus);
    if (card < 0 || (hero_spent(s, card) && s.turn.extra == 0) || !nothing_else_done(s)) return;
    int side = s.seat(seat).side;
    Bitboard his = 0;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).square != no_square) his |= bit(s.worker(w).square);
    Bitboard free_corners = corners & ~occupied(s);
    for (int v = 0; v < s.worker_count; ++v) {
        Square at = s.worker(v).square;
        if (at == no_square || !opponent_worker_on(s, seat, at) || (s.turn.extra >> v & 1u)) continue;
        if (!(neighbors(at) & his)) continue;
        Bitboard to = free_corners;
        while (to)
            out.push_back(Step{StepKind::Force, -1, at, pop_first(to), static_cast<std::int8_t>(v)});
    }
}

void forced(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Force) return;
    int card = card_seat(s, seat, PowerId::Odysseus);
    if (card < 0) return;
    assert(st.aux < 8);
    s.turn.extra = static_cast<std::uint8_t>(s.turn.extra | 1u << st.aux);
}

bool is_force(const State&, int, const Step& st) { return st.kind == StepKind::Force; }

}  // namespace

const PowerRules odysseus{.begin_steps = forces,
                          .after_step = forced,
                          .after_step_kinds = step_kind_bit(StepKind::Force),
                          .hero_use = is_force};

}  // namespace santorini::powers
