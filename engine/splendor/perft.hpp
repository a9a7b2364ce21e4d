#pragma once
// Perft: counting step sequences to a depth, the regression test of the step generator and
// its benchmark. perft(s, 0) = 1; perft(s, d) = the sum over the legal steps t of s of
// perft(t(s), d - 1). A step is one decision (an action, a return, a noble choice, a pass),
// so a turn with returns is several plies deep; a finished game has no steps.

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor {

/// The number of step sequences of length `depth` from `state`.
std::uint64_t perft(const State& state, int depth);

/// perft split by first step, in the generator's order (the first thing to compare when two
/// counts disagree).
std::vector<std::pair<Step, std::uint64_t>> perft_divide(const State& state, int depth);

}  // namespace splendor
