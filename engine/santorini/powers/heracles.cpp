// Heracles, Doer of Great Deeds (hero). End of Your Turn: Once, both your Workers build any
// number of domes (even zero) at any level.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA6-HA8): after his normal turn his workers may
// dome any unoccupied spaces neighbouring them, at any level (ground to level 3), as many as he
// likes; the first dome spends the power (zero domes is no use: it stays for later), and the
// domes of that turn go on until he passes. The domes form a set, not a sequence: the engine
// asks them in board order (A1, B1, ... E5, each after the last), each by the first of his
// workers that neighbours it, so every set of domes is one way to play (otherwise a dozen
// spaces would give billions of orders). Build restrictions (Limus) bind each dome; squares
// dome-like for him (Clio's coins, Talus) are not free. The domes run in the End phase and
// bounce through AfterBuild like Poseidon's builds (docs/engine.md 3.1): his turn has one
// normal build, so Turn::builds above 1 counts the domes and says the use is under way.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool doming(const State& s) {
    return s.turn.builds >= 2;
}

void domes(const State& s, int seat, StepList& out) {
    if (!doming(s) && hero_spent(s, card_seat(s, seat, PowerId::Heracles))) return;
    int side = s.seat(seat).side;
    Bitboard free = ~occupied(s) & all_squares;
    if (doming(s)) free &= ~((bit(s.turn.last_build) << 1) - 1);  // only after the last dome
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side != side || wk.square == no_square) continue;
        Bitboard targets = neighbors_for(s, wk.square) & free;
        free &= ~targets;  // a space next to both workers is domed once, by the first
        while (targets) out.push_back(Step::build(w, wk.square, pop_first(targets), true));
    }
}

// Judged before the dome: a dome after his normal build (Turn::builds already 1) is the use.
bool is_dome_of_the_use(const State& s, int, const Step& st) {
    return st.kind == StepKind::Dome && s.turn.builds >= 1;
}
}  // namespace

const PowerRules heracles{.end_steps = domes,
                          .hero_use = is_dome_of_the_use,
                          .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
