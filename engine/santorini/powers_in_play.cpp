// The powers in play, kept for the last inputs that decide them (powers_in_play.hpp).

#include "engine/santorini/powers_in_play.hpp"

namespace santorini::detail {

std::uint64_t hooks_of(const PowerRules& r) {
    std::uint64_t h = 0;
    auto add = [&](bool filled, std::uint64_t bit) {
        if (filled) h |= bit;
    };
    add(r.begin_steps != nullptr, hook::begin_steps);
    add(r.extra_moves != nullptr, hook::extra_moves);
    add(r.after_move_steps != nullptr, hook::after_move_steps);
    add(r.builders != nullptr, hook::builders);
    add(r.replaces_normal_build, hook::replaces_normal_build);
    add(r.extra_builds != nullptr, hook::extra_builds);
    add(r.more_builds != nullptr, hook::more_builds);
    add(r.end_steps != nullptr, hook::end_steps);
    add(r.after_step != nullptr, hook::after_step);
    add(r.wins_by_move != nullptr, hook::wins_by_move);
    add(r.own_turn_end != nullptr, hook::own_turn_end);
    add(r.placement_steps != nullptr, hook::placement_steps);
    add(r.neighbors_of != nullptr, hook::neighbors_of);
    add(r.setup_steps != nullptr, hook::setup_steps);
    add(r.takes_extra_turn != nullptr, hook::takes_extra_turn);
    add(r.hide != nullptr, hook::hide);
    add(r.on_turn_start != nullptr, hook::on_turn_start);
    add(r.on_turn_end != nullptr, hook::on_turn_end);
    add(r.after_any_step != nullptr, hook::after_any_step);
    add(r.wins_now != nullptr, hook::wins_now);
    add(r.may_move != nullptr, hook::may_move);
    add(r.may_build != nullptr, hook::may_build);
    add(r.win_veto != nullptr, hook::win_veto);
    add(r.may_end_turn != nullptr, hook::may_end_turn);
    add(r.dome_like_for != nullptr, hook::dome_like_for);
    add(r.interrupt_steps != nullptr, hook::interrupt_steps);
    add(r.cancels != nullptr, hook::cancels);
    add(r.before_turn_start != nullptr, hook::before_turn_start);
    add(r.denies_standing_win != nullptr, hook::denies_standing_win);
    add(r.card_setup != nullptr, hook::card_setup);
    add(r.card_turn_end != nullptr, hook::card_turn_end);
    add(r.if_possible != nullptr, hook::if_possible);
    add(r.if_possible != nullptr && !r.if_possible_ignores_builds, hook::if_possible_by_builds);
    add(r.if_possible != nullptr && !r.if_possible_only_by_moving_up, hook::if_possible_not_by_moving_up);
    // Once the owner has moved, only these generate its steps (besides the core's builds), and
    // an after_step acts after the rest of the turn only if it acts after builds.
    constexpr std::uint32_t builds = step_kind_bit(StepKind::Build) | step_kind_bit(StepKind::Dome);
    const bool acts_after_moving = r.after_move_steps || r.more_builds || r.end_steps || r.extra_builds ||
                                   r.replaces_normal_build || (r.after_step && (r.after_step_kinds & builds));
    add(acts_after_moving && !r.moves_no_worker_after_moving, hook::moves_after_moving);
    add(acts_after_moving, hook::acts_after_moving);
    const bool move_steps = acts_after_moving && !r.moves_no_worker_after_moving && !r.makes_no_move_after_moving;
    add(move_steps, hook::move_steps_after_moving);
    add(r.moves_over != nullptr, hook::moves_over);
    add(move_steps && r.moves_over == nullptr, hook::moves_never_over);
    add(r.end_steps != nullptr && !r.end_steps_one_way, hook::end_steps_branching);
    add(r.end_steps != nullptr && r.end_steps_one_way, hook::end_steps_one_way);
    add(r.may_end_turn != nullptr && !r.end_steps_one_way && !r.may_end_turn_ignores_builds,
        hook::may_end_turn_branching);
    add(r.may_end_turn != nullptr && r.may_end_turn_ignores_builds, hook::may_end_turn_by_moves);
    add(r.after_any_move != nullptr, hook::after_any_move);
    add(r.hero_use != nullptr, hook::hero_use);
    add(r.completes_move != nullptr, hook::completes_move);
    const bool any_step_hooks = r.completes_move || r.after_any_move || r.after_any_step;
    add(any_step_hooks && !r.any_step_hooks_act_after_moves_only, hook::moves_after_any_step);
    const bool own_rest = r.more_builds || r.end_steps || r.after_step || r.wins_by_move || r.neighbors_of;
    const bool any_rest = r.may_end_turn || r.if_possible || any_step_hooks || r.wins_now ||
                          r.denies_standing_win || r.interrupt_steps || r.win_veto || r.may_move || r.may_build ||
                          r.dome_like_for;
    add((own_rest || any_rest) && !r.rest_of_turn_ignores_builds, hook::own_rest_sees_builds);
    add(any_rest && !r.rest_of_turn_ignores_builds && !r.rest_of_others_turns_ignores_builds,
        hook::rest_sees_builds);
    add(r.builds_over_after != nullptr, hook::builds_over_after);
    add(r.more_builds != nullptr && r.builds_over_after == nullptr, hook::builds_never_over);
    return h;
}

namespace {

void compute_powers_in_play(PowersInPlay& p, const State& s) {
    p.hooks = 0;
    p.interrupt_after_kinds = 0;
    p.wins_now_after_kinds = 0;
    for (int o = 0; o < max_seats; ++o) {
        auto& seat = p.seats[static_cast<std::size_t>(o)];
        seat = {};
        if (o >= s.seat_count) continue;
        ActivePowers act = powers_in_effect(s, o);
        for (int i = 0; i < act.size; ++i) {
            const PowerRules& r = rules_of(act.ids[i]);
            seat.rules[seat.size++] = &r;
            seat.hooks |= hooks_of(r);
            if (r.after_step) seat.after_step_kinds |= r.after_step_kinds;
            if (r.interrupt_steps) p.interrupt_after_kinds |= r.interrupt_after_kinds;
            if (r.wins_now) p.wins_now_after_kinds |= r.wins_now_after_kinds;
        }
        p.hooks |= seat.hooks;
    }
}

}  // namespace

// The first lookup always computes: seat count 0 (the empty inputs) never matches a game.
constinit thread_local PowersInPlay last_powers_in_play;

const PowersInPlay& powers_in_play_changed(const State& s) {
    last_powers_in_play.inputs = powers_inputs(s);
    compute_powers_in_play(last_powers_in_play, s);
    return last_powers_in_play;
}

}  // namespace santorini::detail
