// server-bench's report: what a run printed at its end (docs/benchmarks.md reads it).
#pragma once

#include <cstddef>
#include <utility>

#include "server/tools/server_bench/options.hpp"
#include "server/tools/server_bench/server_metrics.hpp"
#include "server/tools/server_bench/totals.hpp"

namespace server_bench {

/// What the run loop read off the machine and the server around the measured window.
struct Measured {
    std::pair<double, double> own_start{}, own_end{};          ///< own_cpu_seconds()
    std::pair<double, double> machine_start{}, machine_end{};  ///< machine_ticks()
    double server_start = 0, server_end = 0;                   ///< process_cpu_seconds(server)
    long rss_before = 0;                                 ///< the server's RSS before the matches
    long rss_peak = 0;                                   ///< its peak while running
    int idle_peak = 0;                                   ///< idle sockets open at the peak
    int idle_open = 0;                                   ///< ... and at the end
    StepHistogram server_steps_start, server_steps_end;  ///< the server's /metrics histogram
};

/// Prints the run's figures to stdout: rates, latencies (ack and broadcast merged over every
/// pair), checks, CPU and memory.
void print_report(const Options& options, const Totals& totals, Samples& ack, Samples& broadcast,
                  std::size_t pairs, const Measured& measured);

}  // namespace server_bench
