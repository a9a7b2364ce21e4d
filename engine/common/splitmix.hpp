#pragma once
// The engines' only source of randomness: SplitMix64 over a state the game stores (Santorini
// keeps it in the state for Chaos' draws; Splendor uses it once, at setup), so a game replays
// bit for bit from its seed and steps. Header only, no dependencies: each engine stays a
// library of its own.

#include <cstdint>

namespace engine_common {

/// Advances `state` and returns the next 64 random bits (SplitMix64).
inline std::uint64_t next_random(std::uint64_t& state) {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/// A uniform integer in [0, n), n > 0 (Lemire's multiply-shift; bias below 2^-32 for our n).
inline int random_below(std::uint64_t& state, int n) {
    return static_cast<int>(((next_random(state) >> 32) * static_cast<std::uint64_t>(n)) >> 32);
}

}  // namespace engine_common
