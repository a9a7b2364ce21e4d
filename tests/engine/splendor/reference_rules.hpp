#pragma once
// A deliberately naive Splendor rules implementation, for the tests only: the legal steps of
// the seat to decide and what each does, written from the rulebook (shared/seeds/001_*.txt),
// shared/RULES.md and our rulings (docs/rulings.md S1-S8), not from the engine. It uses the
// engine's public types (state.hpp, step.hpp, cards.hpp, gems.hpp) so that its results can be
// compared with the engine's field for field, and nothing else of the engine: no generator, no
// payment code, no turn flow. It is slow and obvious on purpose: takes are found by trying
// every vector of gems, payments by trying every vector of tokens the hand could give.
// reference_test.cpp compares it with the engine.

#include <cstdint>
#include <vector>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor_reference {

/// Every legal step of the seat to decide, in no particular order (each once). Empty when the
/// game is over.
std::vector<splendor::Step> legal_steps(const splendor::State& state);

/// The state after `step`, which must be one of legal_steps(state), and everything automatic
/// up to the next decision: the row refilled, the gold of a reserve, returns owed, a noble
/// received, the turn ended, the next seat, the final round, the end and the winners.
splendor::State apply(const splendor::State& state, const splendor::Step& step);

/// The number of step sequences of length `depth` (every leaf played, no bulk counting).
std::uint64_t perft(const splendor::State& state, int depth);

}  // namespace splendor_reference
