// Aphrodite, Goddess of Love. Any Move: if an opponent worker starts its turn neighbouring one
// of your workers, its last move must be to a space neighbouring one of your workers.
// Rulings (A8): "must" binds (a turn that cannot satisfy it is not legal; no such turn at all
// loses). Only a bound worker that moved is held to it (forced is not moved); its last move is
// judged by the space it moved into, next to her workers as they stand after that move. A win
// by a move is that worker's last move, so a bound worker's win elsewhere does not count (the
// turn must go on, e.g. Artemis moving again). 4p: her team's workers bind the other team.
#include "engine/santorini/powers/aphrodite.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
// The card's data: bits 0-15 the opponent workers bound this turn (set at its start),
// bits 16-31 those among them whose last move so far ended next to one of her workers.
constexpr int ok_shift = 16;

std::uint64_t& data(State& s, int seat) {
    return s.card(card_seat(s, seat, PowerId::Aphrodite)).data;
}
std::uint64_t data(const State& s, int seat) {
    return s.card(card_seat(s, seat, PowerId::Aphrodite)).data;
}

bool next_to_her(const State& s, int seat, Square sq) {
    return (neighbors(sq) & s.side_squares(s.seat(seat).side)) != 0;
}

void bind(State& s, int seat, int mover) {
    std::uint64_t bound = 0;
    if (opponents(s, seat, mover))
        for (int w = 0; w < s.worker_count; ++w) {
            Square at = s.worker(w).square;
            if (at != no_square && s.worker(w).side == s.seat(mover).side &&
                next_to_her(s, seat, at))
                bound |= 1u << w;
        }
    data(s, seat) = bound;
}

void judge_move(State& s, int seat, int, const Step& st) {
    std::uint64_t& d = data(s, seat);
    if (st.kind != StepKind::Move || !(d >> st.worker & 1u)) return;
    std::uint64_t ok = std::uint64_t{1} << (ok_shift + st.worker);
    d = next_to_her(s, seat, st.to) ? d | ok : d & ~ok;
}

bool satisfied(const State& s, int seat, int) {
    std::uint64_t d = data(s, seat);
    std::uint64_t moved_bound = d & s.turn.moved_workers & 0xFFFF;
    return ((d >> ok_shift) & moved_bound) == moved_bound;
}

WinVeto last_move_elsewhere(const State& s, int seat, int, const Step& m) {
    bool bound = data(s, seat) >> m.worker & 1u;
    return bound && !next_to_her(s, seat, m.to) ? WinVeto::Deny : WinVeto::Allow;
}
}  // namespace

void aphrodite_forget(State& view, int card, std::uint32_t workers) {
    std::uint64_t both = std::uint64_t{workers & 0xFFFFu} | std::uint64_t{workers & 0xFFFFu} << ok_shift;
    view.card(card).data &= ~both;
}

const PowerRules aphrodite{.on_turn_start = bind,
                           .after_any_step = judge_move,
                           .win_veto = last_move_elsewhere,
                           .may_end_turn = satisfied,
                           .data_not_in_notation = true,
                           // judge_move: her card's data, after Move steps only
                           .any_step_hooks_act_after_moves_only = true,
                           // satisfied: the card's data (moves) and Turn::moved_workers
                           .may_end_turn_ignores_builds = true,
                           // judge_move, last_move_elsewhere: Move steps only; satisfied: as above
                           .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
