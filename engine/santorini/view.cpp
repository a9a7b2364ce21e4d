#include "engine/santorini/view.hpp"

#include "engine/santorini/power_rules.hpp"

namespace santorini {

State view_for(const State& state, int viewer) {
    State v = state;
    v.rng = 0;  // nobody may learn what the shuffles will deal next
    for (int o = 0; o < state.seat_count; ++o) {
        if (state.seat(o).out) continue;
        ActivePowers act = powers_in_effect(state, o);
        for (int i = 0; i < act.size; ++i)
            if (const auto& r = rules_of(act.ids[i]); r.hide) r.hide(v, o, viewer);
    }
    return v;
}

State revealed_view(const State& state) {
    State v = state;
    v.rng = 0;
    return v;
}

}  // namespace santorini
