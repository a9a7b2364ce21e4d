#include "engine/santorini/undo.hpp"

#include "engine/santorini/game.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/turn_flow.hpp"

namespace santorini {

namespace {

// True if the mover's step, chosen on its view, was not applied as it stands on the truth.
bool truth_answered(const State& before, const Step& step) {
    if (!secrets_in_play(before)) return false;
    std::optional<Step> actual = detail::true_step(before, step);
    return !actual || !(*actual == step);
}

}  // namespace

bool closes_undo(const State& before, const Step& step, const State& after) {
    if (!in_play(before) || step.kind == StepKind::EndTurn || step.kind == StepKind::Undo) return true;
    if (after.over()) return true;
    if (after.turn.number != before.turn.number || after.turn.seat != before.turn.seat) return true;
    if (before.interrupt >= 0 || after.interrupt >= 0) return true;
    if (after.rng != before.rng) return true;
    return truth_answered(before, step);
}

}  // namespace santorini
