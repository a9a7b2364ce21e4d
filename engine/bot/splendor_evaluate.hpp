#pragma once
// The Splendor bot's knowledge of the game: what a position is worth to a seat, and how
// appealing each step looks without playing it (the greedy policy the search's playouts and
// level 1 follow). Both read only what every seat can see, plus the decider's own reserves.

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor::bot {

/// What the decider is saving for: the value of each colour's bonus to it, and how many more
/// tokens of each colour its two most desirable cards still need.
struct Plan {
    std::array<double, gem_colours> colour_worth{};  ///< a bonus of the colour, in points
    std::array<double, gem_colours> need{};          ///< tokens still short (weighted)
    std::array<double, gem_colours> spend{};         ///< tokens held they would spend (weighted)
};

/// The decider's plan in `state` (Phase::Action, Return or Noble).
Plan plan_for(const State& state);

/// How much `seat`'s position is worth, in points: its points, plus its bonuses, its tokens,
/// its progress toward the nobles left and toward the card it can soonest buy.
double position_worth(const State& state, int seat);

/// `state` for `seat` as a number in [0, 1]: once over, 1 for a sole win, 1/k for a victory
/// shared by k, 0 for a loss; before, a logistic of its worth against the best other seat in.
double outlook(const State& state, int seat);

/// How good `step` (legal in `state`) looks to the decider following `plan`, higher better:
/// buying beats taking, taking what the plan needs beats taking anything, a winning buy beats
/// all. Cheap: nothing is applied.
double step_appeal(const State& state, const Plan& plan, const Step& step);

}  // namespace splendor::bot
