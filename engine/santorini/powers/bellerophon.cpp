// Bellerophon, Tamer of Pegasus (hero). Your Move: Once, your Worker moves up two levels.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA5): besides its normal moves, a worker may once
// per game move to an unoccupied neighbouring space exactly two levels higher (ground to level
// 2, level 1 to level 3: a win by the normal rule); moving up one level or less is a normal
// move and spends nothing. The climb is a move up like any other: Athena's and Prometheus'
// "not up", Hera's and Moerae's vetoes and every move restriction bind it. Spent by the move.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void climb_two(const State& s, int seat, int worker, StepList& out) {
    if (hero_spent(s, card_seat(s, seat, PowerId::Bellerophon))) return;
    Square from = s.worker(worker).square;
    int up = s.board.height(from) + 2;
    if (up > 3) return;
    Bitboard targets = neighbors_for(s, from) & ~occupied(s) & s.board.at_height(up);
    while (targets) out.push_back(Step::move(worker, from, pop_first(targets)));
}

// Judged before the move, the winning climb too.
bool is_climb(const State& s, int, const Step& st) {
    return st.kind == StepKind::Move && s.board.height(st.to) - s.board.height(st.from) == 2;
}
}  // namespace

const PowerRules bellerophon{.extra_moves = climb_two, .hero_use = is_climb};

}  // namespace santorini::powers
