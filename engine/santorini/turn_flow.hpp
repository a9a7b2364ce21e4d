#pragma once
// Internal: the pieces of the core shared by the turn rules (rules.cpp), the draft and
// placement (setup.cpp), and the position notation. Not for code outside the engine.

#include <optional>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::detail {

/// `eligible_powers`, `validate` and `new_game` (game.hpp), optionally as if every power were
/// implemented: the draft's tests enumerate banned pairs and Golden Fleece icons over all 55
/// powers before their rules exist. Games made so are for those tests only.
std::vector<PowerId> eligible_powers(int players, bool golden_fleece, bool as_if_all_implemented);
std::optional<std::string> validate(const Settings& settings, bool as_if_all_implemented);
Result<State> new_game(const Settings& settings, bool as_if_all_implemented);
/// Candidate steps of the setup phases (Offer .. Token), already legal.
void setup_steps(const State& state, StepList& out);
/// Applies a setup step; may start the first turn.
void apply_setup_step(State& state, const Step& step);
/// Starts the turn of `seat` (or of the next seat still in, if `seat` is out): resets the turn,
/// takes the Golden Fleece holders, and resolves a loss for a seat that has no legal turn.
void start_turn(State& state, int seat, std::uint16_t flags = 0);
/// Runs every card's `card_setup` hook once the powers are known (Chaos' first draw).
void set_up_cards(State& state);
/// The workers `side` is dealt by its power (Graeae and Moerae three, else two), numbered side
/// by side before any side's `card_workers`; the notation numbers them the same way (G22).
int regular_workers(const State& state, int side);
/// The workers `side` keeps on its power's card until the power places them (Gaea, Jason).
int card_workers(const State& state, int side);
/// The next seat after `seat` that is still in the game.
int next_seat_in(const State& state, int seat);
/// The legal steps of the decider on the true state, even with secrets in play (perft is
/// omniscient: docs/engine.md 8, G21): candidates, restrictions and the completion rule on the
/// truth.
void legal_steps_on_truth(const State& state, StepList& out);
/// Applies a step of that true list as it is (no view to map it from, nothing cancelled).
void apply_on_truth(State& state, const Step& step);
/// The step on the truth that `seen`, a step the decider chose on its view (secrets in play),
/// stands for: itself, the power's version of it (Apollo's swap with a hidden worker), or none
/// if the truth forbids it (the step is cancelled, docs/engine.md 3.7).
std::optional<Step> true_step(const State& state, const Step& seen);
/// An intermediate point of a turn as bytes: everything that decides how the turn can go on,
/// without the loop guard (Turn::visited) and the turn number (perft_distinct, and the dead
/// ends the completion search remembers).
std::string midturn_key(const State& state);
/// Turns the core's exact shortcuts on or off for this thread (on by default): the completion
/// rule's steps known to complete without a probe, and counting of steps known to end the
/// turn without playing them. Off, every candidate is played and probed (tests compare both).
void use_shortcuts(bool on);

}  // namespace santorini::detail
