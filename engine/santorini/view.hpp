#pragma once
// What a viewer may see. The engine alone decides it: the server sends each viewer only the
// projection of the state made here.

#include "engine/santorini/state.hpp"

namespace santorini {

/// A seat of the game (0..3), or `spectator` for anyone else (replays of live games too).
inline constexpr int spectator = -1;

/// The state as `viewer` may see it. Hidden today: the random state (it would tell future
/// draws). Later powers add theirs here: Hecate's workers, Moerae's Fate square, Tartarus'
/// Abyss are kept only in their owner's view until revealed.
State view_for(const State& state, int viewer);

/// The state with nothing hidden except the future: for a finished game's replay.
State revealed_view(const State& state);

}  // namespace santorini
