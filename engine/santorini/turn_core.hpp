#pragma once
// Internal to the core turn, which is three files: the candidate steps and the restriction
// filters (candidates.cpp), the completion rule and counting (completion.cpp), and applying a
// step up to the next decision (rules.cpp). These are the pieces they share.

#include <cstdint>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::detail {

/// Set in Turn::flags by a probe (see can_complete) when the turn would end: the probe stops
/// there instead of starting the next seat's turn.
constexpr std::uint16_t turn_done = 1 << 15;

/// True in the phases of a turn being played (not the setup, not the game's end).
inline bool turn_phase(Phase p) {
    return p == Phase::Begin || p == Phase::AfterMove || p == Phase::AfterBuild || p == Phase::End || p == Phase::Confirm;
}

/// True if every "if possible" demand on the mover is met (Persephone), or they are waived, or
/// the turn was declined (nothing of it is played).
bool if_possible_met(const State& s);
/// True if the game ended and the turn met the "if possible" demands (see candidates.cpp).
bool ended_meeting_demands(const State& s);
/// True if some power in play makes "if possible" demands.
bool if_possible_in_play(const State& s);
/// True if the mover's turn may end now (the demands are met and no power says it must go on).
bool turn_may_end(const State& s);
/// The candidate steps of the decider, before the completion rule: the generators, the
/// restriction filters, and the Pass where the rest of the turn may be declined.
void candidates(const State& s, StepList& out);
/// Applies a step of the turn (or an out-of-turn decision) and moves on to the next decision;
/// a `probe` (the completion rule, counting) stops where the turn ends (turn_done).
void apply_turn_step(State& s, const Step& st, bool probe);
/// True if the current turn can be brought to its end from `s` (the completion rule).
bool can_complete(const State& s);
/// True if some turn that is played (not declined) can meet every "if possible" demand; if
/// not, the demands are waived for the turn.
bool demands_can_be_met(const State& s);

}  // namespace santorini::detail
