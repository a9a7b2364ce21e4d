#pragma once
// The search behind the Santorini computer player: alpha-beta over the engine's steps, with the
// depth counted in full turns (a turn is the steps until the seat changes, however many a power
// gives), iterative deepening within a node budget, and the evaluation at turn boundaries.
// Two sides play minimax; with three players every other seat plays against the searcher
// ("paranoid"), which is the safe assumption when any of them may take the win.

#include <chrono>
#include <cstdint>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::bot {

/// What bounds one search.
struct SearchLimits {
    long nodes = 10'000;                      ///< positions visited, at most (the level's budget)
    int max_depth = 6;                        ///< full turns, at most
    std::chrono::milliseconds time_limit{0};  ///< wall-clock cap; zero = none (reproducible)
};

/// What a search found.
struct SearchResult {
    Step step;          ///< the step to play
    int score = 0;      ///< its value for the searching side (evaluate's units; +-win_score near a win)
    int depth = 0;      ///< full turns searched to by the last completed iteration (0: none completed)
    long nodes = 0;     ///< positions visited
};

/// Searches `view` (the deciding seat's view of a game in play, not over) for the deciding
/// seat's best step. `seed` breaks ties between equal steps, so that games vary; with no
/// time limit the result depends only on (view, limits, seed).
SearchResult search_step(const State& view, const SearchLimits& limits, std::uint64_t seed);

}  // namespace santorini::bot
