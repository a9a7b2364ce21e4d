#pragma once
// How a turn hands on and how the game ends; shared by rules.cpp (steps) and ending.cpp
// (concessions, scoring). Internal to the engine.

#include "engine/splendor/state.hpp"

namespace splendor::detail {

/// Gem tokens of each colour at setup: 4 with 2 players, 5 with 3, 7 with 4 (gold is always 5).
int gems_per_colour(int players);

/// The bank at setup for `players`; with every hand it always adds up to this.
Tokens starting_supply(int players);

/// Seats not out.
int seats_in(const State& state);

/// The turn of `current` is over (or `current` has just gone out): the next seat still in
/// plays, unless the round ends here in the final round, which ends the game.
void hand_on(State& state);

/// Ends the game by points: among the seats still in, most points, then fewest development
/// cards; several seats equal on both share the victory.
void score_game(State& state);

}  // namespace splendor::detail
