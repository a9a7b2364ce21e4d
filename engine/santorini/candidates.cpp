// The core turn's candidate steps: one generator, where the powers add theirs through
// PowerRules, and the restriction filters every candidate passes (turn_core.hpp).

#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers_in_play.hpp"
#include "engine/santorini/turn_core.hpp"
#include "engine/santorini/turn_flow.hpp"

namespace santorini {
namespace hook = detail::hook;
using detail::for_each_power;
using detail::for_each_power_in_play;
using detail::if_possible_met;
using detail::turn_may_end;
namespace {

bool move_is_allowed(const State& s, int mover, const Step& m) {
    if (!(s.turn.movable >> m.worker & 1u)) return false;
    if ((s.turn.flags & turn_flag::no_move_up) && s.board.height(m.to) > s.board.height(m.from)) return false;
    bool ok = true;
    for_each_power_in_play(s, hook::may_move, [&](int o, const PowerRules& r) {
        if (ok && r.may_move && !r.may_move(s, o, mover, m)) ok = false;
    });
    return ok;
}

// The restriction hooks in play (may_move, may_build), gathered once for a whole list: they
// only judge (const State&), so the order of asking does not matter.
struct RestrictionsInPlay {
    struct Entry {
        int seat;
        const PowerRules* rules;
    };
    Entry moves[max_seats * 2 * max_seats];
    Entry builds[max_seats * 2 * max_seats];
    int move_count = 0, build_count = 0;

    explicit RestrictionsInPlay(const State& s) {
        const detail::PowersInPlay& p = detail::powers_in_play(s);
        if (!(p.hooks & (hook::may_move | hook::may_build))) return;
        for (int o = 0; o < s.seat_count; ++o) {
            if (s.seat(o).out) continue;
            const auto& mine = p.seats[static_cast<std::size_t>(o)];
            for (int i = 0; i < mine.size; ++i) {
                if (mine.rules[i]->may_move) moves[move_count++] = {o, mine.rules[i]};
                if (mine.rules[i]->may_build) builds[build_count++] = {o, mine.rules[i]};
            }
        }
    }
    bool move_ok(const State& s, int mover, const Step& m) const {
        if (!(s.turn.movable >> m.worker & 1u)) return false;
        if ((s.turn.flags & turn_flag::no_move_up) && s.board.height(m.to) > s.board.height(m.from)) return false;
        for (int i = 0; i < move_count; ++i)
            if (!moves[i].rules->may_move(s, moves[i].seat, mover, m)) return false;
        return true;
    }
    bool build_ok(const State& s, int mover, const Step& b) const {
        for (int i = 0; i < build_count; ++i)
            if (!builds[i].rules->may_build(s, builds[i].seat, mover, b)) return false;
        return true;
    }
};

void filter_restricted(const State& s, int mover, StepList& out) {
    const RestrictionsInPlay r(s);
    out.filter([&](const Step& st) {
        switch (st.kind) {
            case StepKind::Move: return r.move_ok(s, mover, st);
            case StepKind::Build:
            case StepKind::Dome: return r.build_ok(s, mover, st);
            default: return true;
        }
    });
}

void begin_candidates(const State& s, int seat, StepList& out) {
    for (int w = 0; w < s.worker_count; ++w) {
        if (!(s.turn.movable >> w & 1u) || s.worker(w).square == no_square) continue;
        if (s.turn.worker >= 0 && w != s.turn.worker) continue;
        add_normal_moves(s, w, out);
        for_each_power(s, seat, hook::extra_moves, [&](const PowerRules& r) {
            if (r.extra_moves) r.extra_moves(s, seat, w, out);
        });
    }
    for_each_power(s, seat, hook::begin_steps, [&](const PowerRules& r) {
        if (r.begin_steps) r.begin_steps(s, seat, out);
    });
}

void after_move_candidates(const State& s, int seat, StepList& out) {
    std::uint32_t builders = 0;
    bool hooked = false, normal = true;
    for_each_power(s, seat, hook::after_move_steps | hook::builders | hook::replaces_normal_build, [&](const PowerRules& r) {
        if (r.after_move_steps) r.after_move_steps(s, seat, out);
        if (r.builders) {
            builders |= r.builders(s, seat);
            hooked = true;
        }
        if (r.replaces_normal_build) normal = false;
    });
    if (!normal) return;
    if (!hooked) builders = std::uint32_t{1} << s.turn.worker;
    for (int w = 0; w < s.worker_count; ++w) {
        if (!(builders >> w & 1u) || s.worker(w).square == no_square) continue;
        add_normal_builds(s, w, out);
        for_each_power(s, seat, hook::extra_builds, [&](const PowerRules& r) {
            if (r.extra_builds) r.extra_builds(s, seat, w, out);
        });
    }
}

}  // namespace

namespace detail {

// True if every "if possible" demand on the mover is met (Persephone), or they are waived, or
// the turn was declined (nothing of it is played).
bool if_possible_met(const State& s) {
    bool ok = true;
    if (!s.turn.if_possible_waived && !(s.turn.flags & turn_flag::declined))
        for_each_power_in_play(s, hook::if_possible, [&](int o, const PowerRules& r) {
            if (ok && r.if_possible && !r.if_possible(s, o, s.turn.seat)) ok = false;
        });
    return ok;
}

// A game that ended during the turn ended the turn too, and the turn still had to meet the
// "if possible" demands (or they are waived): a winning step that does not meet them (Pan's
// drop, Eros' pair, when a move up was possible for Persephone) is no way to end the turn.
bool ended_meeting_demands(const State& s) {
    return s.over() && if_possible_met(s);
}

bool if_possible_in_play(const State& s) { return (detail::hooks_in_play(s) & hook::if_possible) != 0; }

bool turn_may_end(const State& s) {
    bool ok = if_possible_met(s);
    for_each_power_in_play(s, hook::may_end_turn, [&](int o, const PowerRules& r) {
        if (ok && r.may_end_turn && !r.may_end_turn(s, o, s.turn.seat)) ok = false;
    });
    return ok;
}

// Candidates before the completion rule.
void candidates(const State& s, StepList& out) {
    if (s.interrupt >= 0) {
        for_each_power(s, s.interrupt, hook::interrupt_steps, [&](const PowerRules& r) {
            if (r.interrupt_steps) r.interrupt_steps(s, s.interrupt, out);
        });
        out.push_back(Step::pass());
        return;
    }
    int seat = s.turn.seat;
    switch (s.phase) {
        case Phase::Begin: begin_candidates(s, seat, out); break;
        case Phase::AfterMove: after_move_candidates(s, seat, out); break;
        case Phase::AfterBuild:
            for_each_power(s, seat, hook::more_builds, [&](const PowerRules& r) {
                if (r.more_builds) r.more_builds(s, seat, out);
            });
            break;
        case Phase::End:
            for_each_power(s, seat, hook::end_steps, [&](const PowerRules& r) {
                if (r.end_steps) r.end_steps(s, seat, out);
            });
            break;
        case Phase::Confirm: out.push_back(Step::end_turn()); return;  // nothing to restrict or decline
        default: detail::setup_steps(s, out); return;
    }
    filter_restricted(s, seat, out);
    // The optional parts of a turn can be declined, unless a power says the turn must go on.
    if ((s.phase == Phase::AfterBuild || s.phase == Phase::End) && !out.empty() && turn_may_end(s))
        out.push_back(Step::pass());
}

}  // namespace detail

bool move_allowed(const State& s, int mover, const Step& move) { return move_is_allowed(s, mover, move); }

bool build_allowed(const State& s, int mover, const Step& b) {
    bool ok = true;
    for_each_power_in_play(s, hook::may_build, [&](int o, const PowerRules& r) {
        if (ok && r.may_build && !r.may_build(s, o, mover, b)) ok = false;
    });
    return ok;
}

}  // namespace santorini
