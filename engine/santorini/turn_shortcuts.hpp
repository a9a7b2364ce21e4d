#pragma once
// Internal to the core (completion.cpp): where the completion rule and counting can skip
// playing a step. Both are exact: they answer what playing the step in a probe would, from
// facts of the core turn that no hook in play can change (a test compares them with playing
// every step: perft_shortcuts_test.cpp). docs/engine.md 3.2 and 8.

#include <cstdint>

#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers_in_play.hpp"
#include "engine/santorini/turn_core.hpp"

namespace santorini::detail {

/// On unless a test turns them off (use_shortcuts, turn_flow.hpp).
inline thread_local bool shortcuts = true;

// The hooks of the powers in play, and of the mover's own (hooks the core calls for the mover
// only: its generators, its neighbours, its wins by moving, after_step outside interrupts).
// With what the shortcuts ask of the state they were made for, once: each of its candidates
// asks the same.
struct TurnHooks {
    std::uint64_t any;
    std::uint64_t mover;
    std::uint32_t mover_after_step_kinds;  // the step kinds after which the mover's after_step acts
    std::uint32_t interrupt_after_kinds;   // the step kinds after which an out-of-turn decision may come
    std::uint32_t wins_now_after_kinds;    // the step kinds after which a standing win may come
    mutable std::int8_t demands_met = -1;  // if_possible_met, once asked (-1: not yet)
    mutable std::int8_t may_end_before_build = -1;  // may_end_after_build, once asked
};

inline TurnHooks turn_hooks(const State& s) {
    const detail::PowersInPlay& p = detail::powers_in_play(s);
    const auto& mover = p.seats[static_cast<std::size_t>(s.turn.seat)];
    return {p.hooks, mover.hooks, mover.after_step_kinds, p.interrupt_after_kinds, p.wins_now_after_kinds};
}

// if_possible_met(s) for the state `h` was made for.
inline bool demands_met(const State& s, const TurnHooks& h) {
    if (h.demands_met < 0) h.demands_met = if_possible_met(s) ? 1 : 0;
    return h.demands_met != 0;
}

// The step kinds a candidate and what certainly follows it in the turn are made of: a build,
// or a first move and then its build.
inline std::uint32_t kinds_of_rest(const Step& c) {
    constexpr std::uint32_t builds = step_kind_bit(StepKind::Build) | step_kind_bit(StepKind::Dome);
    return c.kind == StepKind::Move ? builds | step_kind_bit(StepKind::Move) : step_kind_bit(c.kind);
}

// A build after moving (not Prometheus' build before moving): it takes the turn to AfterBuild.
inline bool build_after_moving(const State& s, const Step& c) {
    return (c.kind == StepKind::Build || c.kind == StepKind::Dome) && c.aux != 1 &&
           (s.phase == Phase::AfterMove || s.phase == Phase::AfterBuild);
}

// The hooks that may act after a step of the turn or judge whether the turn may end, "if
// possible" demands aside.
inline constexpr std::uint64_t turn_end_hooks =
    hook::completes_move | hook::after_any_move | hook::after_any_step | hook::may_end_turn;

// True if no hook acts after `c` and its build (kinds_of_rest) or judges whether the turn may
// end: the turn then ends where the core's own rules end it. Out-of-turn decisions (Gaea) are
// never skipped.
inline bool turn_ends_by_core_rules(const State& s, const Step& c, const TurnHooks& h) {
    return shortcuts && s.interrupt < 0 && !(h.any & (turn_end_hooks | hook::if_possible)) &&
           !(h.mover_after_step_kinds & kinds_of_rest(c));
}

// True if the turn, in the state before a build that ends the rest of it, meets the demands
// and what the may_end_turn hooks that no build changes say (PowerRules::may_end_turn_ignores_builds:
// Aphrodite's): the build then ends the turn, and otherwise leaves a dead end.
inline bool may_end_after_build(const State& s, const TurnHooks& h) {
    if (h.may_end_before_build >= 0) return h.may_end_before_build != 0;
    bool ok = demands_met(s, h);
    if (ok && (h.any & hook::may_end_turn_by_moves))
        for_each_power_in_play(s, hook::may_end_turn, [&](int o, const PowerRules& r) {
            if (ok && r.may_end_turn && r.may_end_turn_ignores_builds && !r.may_end_turn(s, o, s.turn.seat)) ok = false;
        });
    h.may_end_before_build = ok ? 1 : 0;
    return ok;
}

// True if the turn's end after a build is as the state before it: the mover's end-of-turn
// steps, if any, come with a Pass (no may_end_turn but those below is in play), or take the
// turn one way to its end (PowerRules::end_steps_one_way: Medusa's captures) where no demand
// they could change is in play (only one a move up meets) and no out-of-turn decision can
// follow them. A may_end_turn of such a power judges only those steps.
inline bool end_steps_keep_count(const TurnHooks& h) {
    if (!(h.mover & hook::end_steps_one_way)) return true;
    return !(h.mover & hook::end_steps_branching) &&
           !(h.any & (hook::interrupt_steps | hook::if_possible_not_by_moving_up));
}

// The same for a build after moving where the only other judge is an "if possible" demand
// that no build changes (PowerRules::if_possible_ignores_builds: Persephone, Adonis): the turn
// ends after the build where the core's rules end it if the state before the build meets the
// demands, and otherwise stops there, a dead end (rules.cpp, advance). Hooks on every seat's
// turn may act after the build where they say that after a step that moves no worker they
// move or place none and make no seat lose (hook::moves_after_any_step unset), and start no
// out-of-turn decision after this kind of build (PowerRules::interrupt_after_kinds: Gaea's
// after domes): the turn then ends as without them (Clio's coins, Tartarus' Abyss).
// A standing win that the build or the steps after it may bring (Chronus' fifth tower, after a
// dome: PowerRules::wins_now_after_kinds) ends the turn whatever a may_end_turn says, so those
// are judged before the build only where no such win can come.
inline bool build_ends_unless_demands(const State& s, const Step& c, const TurnHooks& h) {
    constexpr std::uint32_t builds = step_kind_bit(StepKind::Build) | step_kind_bit(StepKind::Dome);
    return shortcuts && s.interrupt < 0 &&
           !(h.any & (hook::may_end_turn_branching | hook::moves_after_any_step | hook::if_possible_by_builds)) &&
           !((h.any & hook::may_end_turn_by_moves) && (h.any & hook::wins_now) &&
             (h.wins_now_after_kinds & (~builds | step_kind_bit(c.kind)))) &&
           !((h.any & hook::interrupt_steps) && (h.interrupt_after_kinds & kinds_of_rest(c))) &&
           !(h.mover_after_step_kinds & kinds_of_rest(c)) && end_steps_keep_count(h) && build_after_moving(s, c);
}

// True if no out-of-turn decision can come after the mover's move in its turn: no power in play
// has one, or they come only after domes (PowerRules::interrupt_after_kinds: Gaea's), the
// mover's powers add nothing after moving (so only the core's one build follows the move),
// and no space on the board has height 3 without a dome (so that build is no dome).
inline bool no_decision_after_moving(const State& s, const TurnHooks& h) {
    if (!(h.any & hook::interrupt_steps)) return true;
    return !(h.interrupt_after_kinds & ~step_kind_bit(StepKind::Dome)) && !(h.mover & hook::acts_after_moving) &&
           !(s.board.at_height(3) & ~s.board.domes());
}

// True if nothing the mover still does this turn can meet the demands in play: nothing moves or
// places a worker (hook::moves_after_moving), or, where only a move up meets them
// (hook::if_possible_not_by_moving_up unset), nothing is a Move step (forces and placements may
// come: hook::move_steps_after_moving), or the powers that offer moves say they are over
// (PowerRules::moves_over), and there are two sides, so that a seat that loses by what follows
// a force ends the game (which meets no demand), not only the turn.
inline bool no_move_after_moving(const State& s, const TurnHooks& h) {
    if (!(h.mover & hook::moves_after_moving)) return true;
    if ((h.any & hook::if_possible_not_by_moving_up) || s.side_count != 2) return false;
    if (!(h.mover & hook::move_steps_after_moving)) return true;
    // Moves may follow: only if every power that offers them says they are over by now.
    if (h.mover & hook::moves_never_over) return false;
    bool over = true;
    for_each_power(s, s.turn.seat, hook::moves_over, [&](const PowerRules& r) {
        if (over && r.moves_over && !r.moves_over(s, s.turn.seat)) over = false;
    });
    return over;
}

// True if no turn ends from `s`, where the mover has moved without meeting an "if possible"
// demand that no build changes and only a move or a placement meets, and nothing the mover
// still does this turn can meet it (no_move_after_moving: only the core's builds come, or its
// powers say so), so the demand stays unmet: the rest of the turn need not
// be played. Persephone's turns that did not move up. The hooks on every seat's turn must not
// undo that after those steps (hook::moves_after_any_step), and no out-of-turn decision may
// come (a decision that leaves the mover no way on ends the turn: rules.cpp,
// no_decision_after_moving); a may_end_turn only keeps turns from ending, which leaves a dead
// end dead.
inline bool demands_failed_after_move(const State& s, const TurnHooks& h) {
    return shortcuts && s.interrupt < 0 && (h.any & hook::if_possible) &&
           !(h.any & (hook::moves_after_any_step | hook::if_possible_by_builds)) && s.turn.moves > 0 &&
           (s.phase == Phase::AfterMove || s.phase == Phase::AfterBuild || s.phase == Phase::End) &&
           no_move_after_moving(s, h) && no_decision_after_moving(s, h) && !demands_met(s, h);
}

// True if `c`, a move that is not up, leads where demands_failed_after_move finds a dead end,
// or to the game's end without meeting the demands: they are all met only by a move up
// (hook::if_possible_not_by_moving_up unset: Persephone's) and not met yet, and a move leaves
// the turn in AfterMove having moved (do_move) with the same hooks in play, and no out-of-turn
// decision is in play (whether one can come is judged on the board after the move). With two sides a
// hook that makes the mover lose after the move (Tartarus' Abyss) ends the game, which meets
// no demand either; with more, the turn would end there (rules.cpp), so not then.
inline bool move_fails_demands(const State& s, const Step& c, const TurnHooks& h) {
    return c.kind == StepKind::Move && shortcuts && s.side_count == 2 && s.interrupt < 0 &&
           (h.any & hook::if_possible) &&
           !(h.any & (hook::moves_after_any_step | hook::interrupt_steps | hook::if_possible_by_builds |
                      hook::if_possible_not_by_moving_up)) &&
           !(h.mover & hook::move_steps_after_moving) && s.board.height(c.to) <= s.board.height(c.from) &&
           !demands_met(s, h);
}

// True if `c` is a build after moving after which the mover has no further build this turn:
// it has no more_builds, or those of its powers say so (PowerRules::builds_over_after).
inline bool builds_over(const State& s, const Step& c, const TurnHooks& h) {
    if (!(h.mover & hook::more_builds)) return true;
    if ((h.mover & hook::builds_never_over) || !build_after_moving(s, c)) return false;
    bool over = true;
    for_each_power(s, s.turn.seat, hook::builds_over_after, [&](const PowerRules& r) {
        if (over && r.builds_over_after && !r.builds_over_after(s, s.turn.seat, c)) over = false;
    });
    return over;
}

// True if `c` is a build after moving that ends the mover's building (builds_over) on a
// space without a worker, where every power in play says that the rest of the
// turn does not depend on which such build it was (PowerRules::rest_of_turn_ignores_builds):
// the full turns after it are then as many as after any other such build of `s`, since the
// states after them differ only in the board away from the workers and in the turn's record
// of its last build, which nothing of the rest reads (and the loop guard compares placements).
// Out-of-turn decisions and standing wins may come only after builds
// (PowerRules::interrupt_after_kinds, wins_now_after_kinds: Gaea's and Chronus' after domes),
// which the rest of such a turn has none of, and not after `c`'s kind.
// Nemesis' swaps, Medusa's captures. Only builds by the same worker share it (the card may
// note who built: Terpsichore).
inline bool rest_after_build_shared(const State& s, const Step& c, const TurnHooks& h) {
    constexpr std::uint32_t builds = step_kind_bit(StepKind::Build) | step_kind_bit(StepKind::Dome);
    return shortcuts && s.interrupt < 0 && build_after_moving(s, c) && !(h.mover & hook::own_rest_sees_builds) &&
           !(h.any & hook::rest_sees_builds) &&
           !((h.any & hook::interrupt_steps) &&
             (h.interrupt_after_kinds & (~builds | step_kind_bit(c.kind)))) &&
           !((h.any & hook::wins_now) && (h.wins_now_after_kinds & (~builds | step_kind_bit(c.kind)))) &&
           !(s.worker_squares() & bit(c.to)) && builds_over(s, c, h);
}

// True if the mover's builds after a move are the normal ones: the worker that moved builds
// on any neighbour without a worker, a dome or the Ram.
inline bool normal_builds(const TurnHooks& h) {
    return !(h.any & (hook::may_build | hook::dome_like_for)) &&
           !(h.mover & (hook::builders | hook::replaces_normal_build | hook::neighbors_of));
}

// The first move of a turn, to a neighbouring square: the square it left is then free unless
// the move swaps (Apollo puts the other worker there).
inline bool first_move_leaving_free(const State& s, const Step& c) {
    return c.kind == StepKind::Move && s.phase == Phase::Begin && s.turn.moves == 0 && c.aux != c.from &&
           (neighbors(c.to) & bit(c.from)) != 0;
}

// True if the turn can certainly be brought to its end after `c`, a candidate at `s`. A build
// after moving: the turn may end after it (only may_end_turn and if_possible say otherwise;
// with a demand no build changes, it may if the state before the build meets it), and further
// builds or end-of-turn steps come with a Pass. The first move of a turn that
// leaves its square free: that square is a neighbour of the mover's new square with no
// worker, dome or Ram, so the mover can build there when the builds are the normal ones (and
// the loop guard cannot stop a first move: it changes the turn's record); a winning move ends
// the game, which ends the turn. A declined turn (Dionysus) ends declined, which is no end
// for a search of played turns.
inline bool certainly_completes(const State& s, const Step& c, const TurnHooks& h, bool declined_ends = true) {
    if (!declined_ends && (s.turn.flags & turn_flag::declined)) return false;
    if (build_ends_unless_demands(s, c, h)) return may_end_after_build(s, h);
    if (!turn_ends_by_core_rules(s, c, h)) return false;
    return first_move_leaving_free(s, c) && normal_builds(h);
}

// True if a Pass, a candidate at `s`, ends the turn. In the End phase it always does
// (complete_turn). After a build it leads to the End phase, where the mover has no steps, and
// the core offered it because the turn may end (candidates): the turn then ends unless the
// Pass changes what judges that, which only a hook acting after it could do: the mover's
// after_step for a Pass, hooks on every seat's turn other than those that act after moves
// only, an out-of-turn decision, a standing win; and a may_end_turn or demand that judges the
// phase or the board (may_end_turn_branching, if_possible_by_builds).
inline bool pass_ends_turn(const State& s, const TurnHooks& h) {
    if (!shortcuts || s.interrupt >= 0) return false;
    if (s.phase == Phase::End) return true;
    return s.phase == Phase::AfterBuild && !(h.mover & hook::end_steps) &&
           !(h.mover_after_step_kinds & step_kind_bit(StepKind::Pass)) &&
           !(h.any & (hook::moves_after_any_step | hook::interrupt_steps | hook::wins_now |
                      hook::may_end_turn_branching | hook::if_possible_by_builds));
}

// The number of full turns that begin with `c` when that is certain without playing it, else
// -1. A move that is not up where only a move up meets the demands: none. A build after
// moving ends the turn when, besides the above, the mover has no further builds or
// end-of-turn steps: one turn (none if it fails a demand no build changes). The
// first move of a turn, when besides that nothing but the normal rules decides its win and its
// builds (no hook judges a win, adds steps after the move, or adds builds): one turn if it
// wins, else one per free neighbour of its square.
inline int turns_certain(const State& s, const Step& c, const TurnHooks& h) {
    if (c.kind == StepKind::Pass) return pass_ends_turn(s, h) ? 1 : -1;
    if (move_fails_demands(s, c, h)) return 0;
    if ((h.mover & hook::end_steps_branching) || !builds_over(s, c, h)) return -1;
    if (build_ends_unless_demands(s, c, h)) return may_end_after_build(s, h) ? 1 : 0;
    if ((h.mover & hook::end_steps) || !turn_ends_by_core_rules(s, c, h)) return -1;
    if (c.kind != StepKind::Move || s.phase != Phase::Begin || s.turn.moves != 0 || !normal_builds(h) ||
        (h.any & (hook::win_veto | hook::wins_now)) ||
        (h.mover & (hook::wins_by_move | hook::after_move_steps | hook::extra_builds)))
        return -1;
    if (s.board.height(c.from) < 3 && s.board.height(c.to) == 3) return 1;
    Bitboard workers = (s.worker_squares() & ~bit(c.from)) | bit(c.to);
    if (c.aux != no_square) workers |= bit(c.aux);  // the worker it displaced
    Bitboard blocked = workers | s.board.domes() | (s.ram != no_square ? bit(s.ram) : 0);
    return count(neighbors(c.to) & ~blocked);
}

}  // namespace santorini::detail
