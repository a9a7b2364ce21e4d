// Medea, Powerful Sorceress. End of Your Turn: once, remove one block from under any number of
// Workers neighboring your unmoved Worker. You also remove any Tokens on the blocks.
// Rulings (docs/rulings.md HB4-HB6): any worker counts, hers or an opponent's (her moved worker
// too), on a block (height 1-3); each of those workers loses at most one block, and she picks
// which (one Remove step each, "remove C3 D4": her unmoved worker on C3, the worker on D4 goes
// down one level); the use is spent from the first removal and goes on through the same End
// phase (Turn::extra: the workers lowered), she may stop at any time (the core's Pass). A
// worker lowered is not moved (no win, not "moved down" for Hades); tokens on the block go as
// with Ares (Clio's coin, a whirlpool).
#include <cassert>

#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

// Turn::extra: the workers (bits of indices) lowered this turn; non-zero = the use goes on.
// Heroes play only 2-player games, with at most 6 workers (Gaea's 2 + 2 on cards), so the
// 8 bits are enough.

void lowerings(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Medea);
    if (card < 0 || (hero_spent(s, card) && s.turn.extra == 0)) return;
    int side = s.seat(seat).side;
    Bitboard listed = 0;  // each worker's square once, by her first unmoved worker next to it
    for (int u = 0; u < s.worker_count; ++u) {
        Square from = s.worker(u).square;
        if (s.worker(u).side != side || from == no_square || (s.turn.moved_workers >> u & 1u)) continue;
        for (int v = 0; v < s.worker_count; ++v) {
            Square at = s.worker(v).square;
            if (at == no_square || !(neighbors(from) & bit(at)) || (listed & bit(at))) continue;
            if ((s.turn.extra >> v & 1u) || s.board.height(at) == 0) continue;
            listed |= bit(at);
            out.push_back(Step{StepKind::Remove, static_cast<std::int8_t>(u), from, at, -1});
        }
    }
}

void lowered(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Remove) return;
    int card = card_seat(s, seat, PowerId::Medea);
    int v = s.worker_at(st.to);
    if (card < 0 || v < 0) return;
    assert(v < 8);
    s.turn.extra = static_cast<std::uint8_t>(s.turn.extra | 1u << v);
    for (auto& c : s.cards) c.tokens &= ~bit(st.to);
}

bool is_removal(const State& s, int, const Step& st) {
    return st.kind == StepKind::Remove && s.worker_at(st.to) >= 0;
}

}  // namespace

const PowerRules medea{.end_steps = lowerings,
                       .after_step = lowered,
                       .after_step_kinds = step_kind_bit(StepKind::Remove),
                       .hero_use = is_removal,
                       .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
