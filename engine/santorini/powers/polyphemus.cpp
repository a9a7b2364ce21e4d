// Polyphemus, Gigantic Cyclops. End of Your Turn: once, your Worker builds up to 2 domes at any
// level on any unoccupied spaces on the board.
// Rulings (docs/rulings.md HB10-HB11): "your Worker" is the worker that moved this turn; the
// domes go anywhere on the board (not only next to it), on any level, each on a space with no
// worker, no dome and nothing that counts as a dome for him (Clio's coins, Talus); one Dome step
// each ("dome B2 E5"); the use is spent from the first dome, and he may stop after one (the
// core's Pass). They are builds: restrictions on builds bind them (Limus), and they count as
// domes for other powers (Chaos' change, Gaea's placement, Chronus' towers).
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

// His turn has one normal build (Turn::builds = 1 once in End), so his domes are the builds
// after it: Turn::builds - 1 of them so far, as Poseidon counts his.
int domes_built(const State& s) { return s.turn.builds - 1; }

void domes(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Polyphemus);
    if (card < 0 || s.turn.worker < 0 || domes_built(s) >= 2) return;
    if (hero_spent(s, card) && domes_built(s) < 1) return;
    int w = s.turn.worker;
    Square from = s.worker(w).square;
    if (from == no_square) return;
    Bitboard spaces = all_squares & ~occupied(s);
    while (spaces) out.push_back(Step::build(w, from, pop_first(spaces), true));
}

// Judged before the dome: a dome after his normal build (domes_built already 0) is the use.
bool is_dome_of_the_use(const State& s, int, const Step& st) {
    return st.kind == StepKind::Dome && domes_built(s) >= 0;
}

}  // namespace

const PowerRules polyphemus{.end_steps = domes,
                            .hero_use = is_dome_of_the_use,
                            .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
