// What server-bench reads of the server's own GET /metrics: the step latency histogram, from a
// step's arrival to its broadcast (docs/operations.md), measured inside the server, so that a
// run's latency can be told apart from the bench's own delays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "server/tools/server_bench/common.hpp"

namespace server_bench {

/// A scrape of santorini_step_latency_seconds: cumulative counts per upper bound (seconds).
struct StepHistogram {
    std::vector<double> bounds;             ///< the finite `le` bounds, ascending
    std::vector<std::uint64_t> cumulative;  ///< one per bound, then +Inf (the count)
    bool ok = false;                        ///< the scrape worked

    /// The steps between `earlier` and this scrape.
    StepHistogram since(const StepHistogram& earlier) const;
    /// The upper bound (seconds) of the bucket holding quantile q, or +Inf beyond the last.
    double quantile_bound(double q) const;
    std::uint64_t count() const { return cumulative.empty() ? 0 : cumulative.back(); }
};

/// GET /metrics from 127.0.0.1:port, synchronously; ok is false if it failed or was refused.
StepHistogram scrape_step_latency(asio::io_context& io, std::uint16_t port);

/// "p50 <= 0.5 ms  p99 <= 2.5 ms  (N steps)", or why there is no figure.
std::string describe(const StepHistogram& histogram);

}  // namespace server_bench
