#pragma once
// The static evaluation of a Santorini position: the standard heuristics (worker heights,
// squares one level up within reach, threats to climb onto a level 3, centrality, mobility),
// read from the board alone, so it holds for every power; the powers' own ways to win are
// found by the search, which plays them through the engine's generator.

#include "engine/santorini/state.hpp"

namespace santorini::bot {

/// A score larger than any evaluation: a won game (minus the plies it takes).
inline constexpr int win_score = 1'000'000;

/// How good `state` is for `side` (workers' owner, 0..side_count-1) against the best of the
/// other sides, in hundredths of a level or so; positive = better for `side`. Expects a game
/// that is not over; who decides next matters (a threat of the mover is nearly a win).
int evaluate(const State& state, int side);

/// What one side has on the board: the terms `evaluate` weighs (exposed for tests).
struct SideFeatures {
    int height = 0;      ///< sum of the heights of its workers on the board
    int climbs = 0;      ///< free neighbouring squares exactly one level up, over its workers
    int mobility = 0;    ///< free neighbouring squares it may move onto, over its workers
    int centrality = 0;  ///< 2 on the centre, 1 on the inner ring, per worker
    int threats = 0;     ///< distinct free level-3 squares next to its workers on level 2
    int workers = 0;     ///< workers on the board
};

/// The features of `side` in `state`.
SideFeatures side_features(const State& state, int side);

}  // namespace santorini::bot
