// Adonis, Devastatingly Handsome (hero). End of Your Turn: Once, choose an opponent Worker. If
// possible, that Worker must be neighboring one of your Workers at the end of their next turn.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA2, HA9-HA11): at the end of his turn he may
// once choose (`select C3`) an opponent worker on the board; that spends the power and the
// choice is kept on his card (hero.hpp: adonis_charmed). On the opponent's next turn the
// worker must end the turn next to one of his workers (the 8 spaces around them) if any
// complete turn of the opponent can do so: the core's "if possible" demand (G10, as
// Persephone's), judged at that turn's start and otherwise waived for the turn. A win ends the
// turn, so a win that leaves the worker away stands only when the demand is waived. The
// choice is forgotten when that turn ends, met or not. A worker he cannot see (Hecate's)
// cannot be chosen.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void choose(const State& s, int seat, StepList& out) {
    if (hero_spent(s, card_seat(s, seat, PowerId::Adonis))) return;
    for (int w = 0; w < s.worker_count; ++w) {
        Square sq = s.worker(w).square;
        if (sq != no_square && s.worker(w).side != s.seat(seat).side)
            out.push_back(Step{StepKind::Select, static_cast<std::int8_t>(w), sq, no_square, -1});
    }
}

void remember_choice(State& s, int seat, const Step& st) {
    if (st.kind == StepKind::Select)
        set_adonis_charmed(s, card_seat(s, seat, PowerId::Adonis), st.worker);
}

bool is_choice(const State&, int, const Step& st) { return st.kind == StepKind::Select; }

bool charmed_worker_near(const State& s, int seat, int mover) {
    int w = adonis_charmed(s, card_seat(s, seat, PowerId::Adonis));
    if (w < 0 || !opponents(s, seat, mover) || s.worker(w).side != s.seat(mover).side) return true;
    Square sq = s.worker(w).square;
    return sq != no_square && (neighbors(sq) & s.side_squares(s.seat(seat).side)) != 0;
}

void forget_after_their_turn(State& s, int seat, int mover) {
    if (opponents(s, seat, mover)) set_adonis_charmed(s, card_seat(s, seat, PowerId::Adonis), -1);
}
}  // namespace

const PowerRules adonis{.end_steps = choose,
                        .after_step = remember_choice,
                        .on_turn_end = forget_after_their_turn,
                        .if_possible = charmed_worker_near,
                        .hero_use = is_choice,
                        .if_possible_ignores_builds = true,
                        .moves_no_worker_after_moving = true,
                        // choose: the opponent workers on the board; charmed_worker_near: where
                        // workers stand
                        .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
