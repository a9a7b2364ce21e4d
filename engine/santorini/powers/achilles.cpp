// Achilles, Volatile Warrior (hero). Your Turn: Once, your Worker builds both before and after
// moving.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA1): like Prometheus' build before moving, the
// worker that builds first is the one that must then move and build again (the English card's
// "your Worker"), but without Prometheus' "not up": Achilles may climb onto the block he just
// built, to level 3 as well (a win). The first build is a normal build (a block, or a dome on
// level 3); taking it spends the power (hero.hpp), so it is offered once per game, and never
// on a turn that is not his own (a Dionysus extra turn is Dionysus'). Declining it is a normal
// turn.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void build_first(const State& s, int seat, StepList& out) {
    if (s.turn.worker >= 0 || hero_spent(s, card_seat(s, seat, PowerId::Achilles))) return;
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).square != no_square)
            add_normal_builds(s, w, out, true);
}

bool is_first_build(const State&, int, const Step& st) {
    return (st.kind == StepKind::Build || st.kind == StepKind::Dome) && st.aux == 1;
}
}  // namespace

const PowerRules achilles{.begin_steps = build_first, .hero_use = is_first_build};

}  // namespace santorini::powers
