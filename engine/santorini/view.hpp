#pragma once
// What a viewer may see. The engine alone decides it: the server sends each viewer only the
// projection of the state made here.

#include <string>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini {

/// A seat of the game (0..3), or `spectator` for anyone else (replays of live games too).
inline constexpr int spectator = -1;

/// The state as `viewer` may see it. Hidden today: the random state (it would tell future
/// draws). Later powers add theirs here: Hecate's workers, Moerae's Fate square, Tartarus'
/// Abyss are kept only in their owner's view until revealed.
State view_for(const State& state, int viewer);

/// How `viewer` may read `step`, played by `actor` from `before`: its text form, or only its
/// kind ("move", "place", ...) when a power in play keeps secrets and the step belongs to
/// another side. Conservative on purpose: until powers redact their own steps (Hecate's moves,
/// Moerae's and Tartarus' setup tokens; docs/engine.md G4.5), a step that might betray a secret
/// is never shown to someone who may not know it. A finished game's replay shows every step.
std::string step_text_for(const State& before, const Step& step, int actor, int viewer);

/// The state with nothing hidden except the future: for a finished game's replay.
State revealed_view(const State& state);

}  // namespace santorini
