#pragma once
// What every computer player takes: its level (the search budget), its seed (the same seed,
// level and position give the same step), and an optional wall-clock cap for the server.
// docs/bot.md: the search, the budgets by level, and the measured strength.

#include <chrono>
#include <cstdint>

namespace bot {

inline constexpr int min_level = 1;
inline constexpr int max_level = 5;

/// How a computer player searches.
struct Options {
    /// 1 (weakest, fastest) .. 5 (strongest): the search budget (docs/bot.md lists each
    /// level's budget). Values outside the range are clamped.
    int level = 3;
    /// All the bot's randomness comes from here: with no time limit, the same seed, level and
    /// position always give the same step.
    std::uint64_t seed = 0;
    /// Stops the search early when this much wall-clock time has gone (the server's cap, so a
    /// slow machine never stalls a match); zero = no cap, the level's budget alone decides
    /// (reproducible: self-play, tests).
    std::chrono::milliseconds time_limit{0};
};

}  // namespace bot
