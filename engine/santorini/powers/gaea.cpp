// Gaea, Goddess of the Earth. Setup: take 2 extra Workers of your color; they are kept on your
// God Power card until needed. Any Build: when a Worker builds a dome, Gaea may immediately
// place a Worker from her God Power card onto a ground-level space neighboring the dome.
// Rulings (docs/rulings.md E1-E5): any worker's dome counts, hers and opponents', in her turn
// and theirs, every dome of a turn (Atlas' low domes and Selene's are banned pairings, but a
// Prometheus dome before moving or a Dionysus dome count); the decision is hers, out of turn
// (State::interrupt), one worker per dome; she may place a worker that leaves the mover no way
// to finish the turn, and the mover then loses ("must" binds: engine.md 3.6); Circe holding
// the card places Circe's own reserve workers, and she has none, so the card gives her nothing.
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

// The squares a worker from the card may take next to `dome`: ground level, nobody on it,
// nothing dome-like (the Ram).
Bitboard ground_spaces(const State& s, Square dome) {
    return neighbors(dome) & s.board.at_height(0) & ~occupied(s);
}

int first_reserve_worker(const State& s, int seat) {
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).in_reserve) return w;
    return -1;
}

// After every step of anyone: a dome with a worker left on her card and a space for it gives
// her the decision. The dome is remembered on her card until she decides or the next step.
void on_any_step(State& s, int seat, int, const Step& st) {
    int card = card_seat(s, seat, PowerId::Gaea);
    if (card < 0) return;
    set_gaea_dome(s, card, no_square);
    if (st.kind != StepKind::Dome || !s.board.has_dome(st.to)) return;
    if (first_reserve_worker(s, seat) < 0 || !ground_spaces(s, st.to)) return;
    set_gaea_dome(s, card, st.to);
    s.interrupt = static_cast<std::int8_t>(seat);
}

// Her decision: one of her workers from the card onto a space next to the dome (both workers
// on the card are alike, so only the first is listed); the core adds the Pass.
void place_from_card(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Gaea);
    int w = first_reserve_worker(s, seat);
    if (card < 0 || w < 0) return;
    Square dome = gaea_dome(s, card);
    if (dome == no_square) return;
    Bitboard to = ground_spaces(s, dome);
    while (to) out.push_back(Step::place(w, pop_first(to)));
}

// The core applies nothing of an out-of-turn step: her Place is applied here. (A Place in a
// turn is the core's and has left the card already.)
void apply_place(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Place || st.worker < 0 || !s.worker(st.worker).in_reserve) return;
    s.worker(st.worker).square = st.to;
    s.worker(st.worker).in_reserve = false;
    if (int card = card_seat(s, seat, PowerId::Gaea); card >= 0) set_gaea_dome(s, card, no_square);
}

// A decision never outlives its turn: positions at a turn start carry no pending dome.
void forget_dome(State& s, int seat, int) {
    if (int card = card_seat(s, seat, PowerId::Gaea); card >= 0) set_gaea_dome(s, card, no_square);
}

}  // namespace

const PowerRules gaea{
    .after_step = apply_place,
    .on_turn_start = forget_dome,
    .after_any_step = on_any_step,
    .interrupt_steps = place_from_card,
    .data_not_in_notation = true,
    .after_step_kinds = step_kind_bit(StepKind::Place),  // apply_place: her card's workers only
    // on_any_step: her card's data, and her decision after a dome
    .any_step_hooks_act_after_moves_only = true,
    .interrupt_after_kinds = step_kind_bit(StepKind::Dome),
    // on_any_step after any other step only forgets the dome; place_from_card comes after one
    .rest_of_turn_ignores_builds = true,
};

}  // namespace santorini::powers
