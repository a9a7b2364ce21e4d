#pragma once
// Perft: counting legal full turns to a depth, the engine's regression test and benchmark.
// perft(p, 0) = 1; perft(p, d) = sum over full turns t of perft(t(p), d - 1). A full turn is a
// distinct sequence of steps from the first step of a turn to its end; a finished game has no
// turns; a seat with no legal turn has lost (and the game goes on without it, with 3 players).

#include <cstdint>

#include "engine/santorini/state.hpp"

namespace santorini {

/// The number of full-turn sequences of length `depth` from a turn-start position.
std::uint64_t perft(const State& state, int depth);

/// The number of distinct positions after one full turn: heights and domes, each side's
/// worker squares (without worker identity), the seats' power state and who moves next.
/// Paths that reach the same position count once, so engines that count paths differently
/// can still be compared.
std::uint64_t perft_distinct(const State& state);

/// perft through the step generator alone, never the bitboard shortcut the powerless
/// two-player game takes; tests check the two agree.
std::uint64_t perft_by_steps(const State& state, int depth);

/// The number of full turns from a turn-start position, each counted without playing its
/// last step (used by perft at depth 1; exposed for tests).
std::uint64_t count_full_turns(const State& state);

}  // namespace santorini
