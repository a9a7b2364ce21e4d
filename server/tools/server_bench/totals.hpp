// What a server-bench run counts: the latencies each pair samples and the totals every pair adds
// to, with the run's phase.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "server/tools/server_bench/common.hpp"

namespace server_bench {

/// Latencies in microseconds, summarised at the end.
struct Samples {
    std::vector<double> values;
    void add(Clock::duration d) {
        values.push_back(std::chrono::duration<double, std::micro>(d).count());
    }
    void merge(const Samples& other) {
        values.insert(values.end(), other.values.begin(), other.values.end());
    }
    std::string summary() {
        if (values.empty()) return "no samples";
        std::sort(values.begin(), values.end());
        auto at = [&](double q) {
            return values[std::min(values.size() - 1,
                                   static_cast<std::size_t>(q * values.size()))] /
                   1000.0;
        };
        char text[160];
        std::snprintf(text, sizeof text, "p50 %.2f ms  p90 %.2f ms  p99 %.2f ms  max %.2f ms (%zu)",
                      at(0.5), at(0.9), at(0.99), values.back() / 1000.0, values.size());
        return text;
    }
};

/// Shared by every pair (any bench thread): counters and the run's phase.
struct Totals {
    std::atomic<std::uint64_t> steps{0};
    std::atomic<std::uint64_t> turns{0};
    std::atomic<std::uint64_t> games{0};       ///< finished while measuring
    std::atomic<std::uint64_t> all_games{0};   ///< finished at any time
    std::atomic<std::uint64_t> errors{0};      ///< error messages from the server
    std::atomic<std::uint64_t> gaps{0};        ///< a patch whose version is not the next one
    std::atomic<std::uint64_t> checks{0};      ///< views compared with a snapshot
    std::atomic<std::uint64_t> mismatches{0};  ///< ... that differed (or a patch did not apply)
    std::atomic<bool> measuring{false};        ///< false while the matches are being set up
    std::atomic<bool> stopping{false};         ///< the time is up: no new steps or games
    std::atomic<int> holding{0};               ///< pairs that reached hold_after
    std::atomic<int> done{0};                  ///< pairs that made their last check
    std::atomic<int> started{0};               ///< pairs whose first match both seats opened
    int hold_after = 0;                        ///< Options::hold_after
    std::string powers;                        ///< Options::powers
    bool step_refs = false;                    ///< Options::acks is not "none"
    int think_min_ms = 0;                      ///< Options::think_min_ms
    int think_max_ms = 0;                      ///< Options::think_max_ms
};

}  // namespace server_bench
