#pragma once
// What a viewer may see. The engine alone decides it: the server sends each viewer only the
// projection of the state made here.

#include <string>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini {

/// A seat of the game (0..3), or `spectator` for anyone else (replays of live games too).
inline constexpr int spectator = -1;

/// The state as `viewer` may see it: without the random state (it would tell future draws)
/// and without every power's secrets that `viewer` may not know (each power's `hide`:
/// Hecate's workers, Moerae's Fate, Tartarus' Abyss are kept only in their side's view).
State view_for(const State& state, int viewer);

/// How much of a step a viewer may read.
enum class Reading {
    Whole,          ///< everything: the actor's side, or a step with nothing secret in it
    Kind,           ///< only its kind: a secret token's placing, a hidden worker's place or move
    KindAndTarget,  ///< its kind and the space it built on: a hidden worker's build or dome
};

/// How much of `step`, played by `actor` from `before`, `viewer` may read. Only the kind of a
/// setup Token step of a seat whose power keeps secrets (Moerae's Fate, Tartarus' Abyss); only
/// the kind of a hidden worker's step (Hecate's place and move), and of its build only the space
/// built on, which everyone sees on the board. The actor's own side reads everything; a
/// finished game's replay shows every step.
Reading reading_for(const State& before, const Step& step, int actor, int viewer);

/// `step`'s text form as `reading` lets it be read: whole, or with what the reader may not know
/// left out ("token", "move", "build D4").
std::string step_text_as(const Step& step, Reading reading);

/// How `viewer` may read `step`: step_text_as(step, reading_for(before, step, actor, viewer)).
std::string step_text_for(const State& before, const Step& step, int actor, int viewer);

/// The state with nothing hidden except the future: for a finished game's replay.
State revealed_view(const State& state);

}  // namespace santorini
