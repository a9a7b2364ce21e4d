#include "engine/santorini/view.hpp"

#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/square.hpp"

namespace santorini {

State view_for(const State& state, int viewer) {
    State v = state;
    v.rng = 0;  // nobody may learn what the shuffles will deal next
    for (int o = 0; o < state.seat_count; ++o) {
        // A seat that is out has no power in effect, but its card keeps its secret (3 players:
        // an eliminated Moerae's Fate is not shown to the others).
        if (state.seat(o).out) {
            if (const auto& r = rules_of(state.seat(o).power); r.hide && !state.setup.golden_fleece) r.hide(v, o, viewer);
            continue;
        }
        ActivePowers act = powers_in_effect(state, o);
        for (int i = 0; i < act.size; ++i)
            if (const auto& r = rules_of(act.ids[i]); r.hide) r.hide(v, o, viewer);
    }
    return v;
}

namespace {

// True if `viewer` would not see worker `w` standing on `at` (Hecate's workers).
bool hidden_on(State s, int w, Square at, int viewer) {
    if (w < 0 || w >= s.worker_count || at == no_square) return false;
    s.worker(w).square = at;
    return view_for(s, viewer).worker(w).square == no_square;
}

// True if one of `seat`'s powers keeps secrets (its setup Token steps place them: Fate, Abyss).
bool keeps_secrets(const State& s, int seat) {
    if (seat < 0 || seat >= s.seat_count) return false;
    ActivePowers act = powers_in_effect(s, seat);
    for (int i = 0; i < act.size; ++i)
        if (rules_of(act.ids[i]).hide) return true;
    return false;
}

}  // namespace

Reading reading_for(const State& before, const Step& step, int actor, int viewer) {
    const bool same_side = viewer >= 0 && actor >= 0 && viewer < before.seat_count &&
                           actor < before.seat_count &&
                           before.seat(viewer).side == before.seat(actor).side;
    if (same_side || !secrets_in_play(before)) return Reading::Whole;
    // A secret placed in setup (Moerae's Fate, Tartarus' Abyss): only that a token was placed.
    if (step.kind == StepKind::Token && before.phase == Phase::Token && keeps_secrets(before, actor))
        return Reading::Kind;
    // A hidden worker's step (Hecate): where it was and where it went stay hidden; of a build
    // only the space built on, which everyone sees on the board.
    const int w = step.worker;
    const Square at = w >= 0 && w < before.worker_count ? before.worker(w).square : no_square;
    const bool hidden = hidden_on(before, w, at, viewer) ||
                        ((step.kind == StepKind::Place || step.kind == StepKind::Move) && hidden_on(before, w, step.to, viewer));
    if (!hidden) return Reading::Whole;
    if (step.kind == StepKind::Build || step.kind == StepKind::Dome) return Reading::KindAndTarget;
    return Reading::Kind;
}

std::string step_text_for(const State& before, const Step& step, int actor, int viewer) {
    return step_text_as(step, reading_for(before, step, actor, viewer));
}

std::string step_text_as(const Step& step, Reading reading) {
    std::string text = to_text(step);
    if (reading == Reading::Whole) return text;
    std::string kind = text.substr(0, text.find(' '));  // the first word names the kind
    if (reading == Reading::KindAndTarget) return kind + " " + square_name(step.to);
    return kind;
}

State revealed_view(const State& state) {
    State v = state;
    v.rng = 0;
    return v;
}

}  // namespace santorini
