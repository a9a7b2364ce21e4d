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

std::string step_text_for(const State& before, const Step& step, int actor, int viewer) {
    const bool same_side = viewer >= 0 && actor >= 0 && viewer < before.seat_count &&
                           actor < before.seat_count &&
                           before.seat(viewer).side == before.seat(actor).side;
    std::string text = to_text(step);
    if (same_side || !secrets_in_play(before)) return text;
    return text.substr(0, text.find(' '));  // the first word names the kind
}

State revealed_view(const State& state) {
    State v = state;
    v.rng = 0;
    return v;
}

}  // namespace santorini
