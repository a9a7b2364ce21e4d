#include "server/tools/server_bench/report.hpp"

#include <cstdio>
#include <thread>

namespace server_bench {

void print_report(const Options& options, const Totals& totals, Samples& ack, Samples& broadcast,
                  std::size_t pairs, const Measured& measured) {
    const double seconds = options.seconds;
    std::printf("matches: %d   measured: %d s   powers: %s   bench threads: %d\n", options.matches,
                options.seconds, options.powers.c_str(), options.threads);
    if (options.acks != "none")
        std::printf("steps carry a ref, acknowledged %s\n",
                    options.acks == "patch" ? "in the patch (ack_in_patch)" : "by a separate ack");
    if (options.think_max_ms > 0)
        std::printf("human pace: each step after %d-%d ms of thought (open loop)\n",
                    options.think_min_ms, options.think_max_ms);
    std::printf("steps/s: %.0f   full turns/s: %.0f   games finished: %llu   errors: %llu\n",
                totals.steps / seconds, totals.turns / seconds,
                static_cast<unsigned long long>(totals.games.load()),
                static_cast<unsigned long long>(totals.errors.load()));
    std::printf("step -> own patch (ack):        %s\n", ack.summary().c_str());
    std::printf("step -> opponent's patch:       %s\n", broadcast.summary().c_str());
    std::printf("in the server, arrival -> broadcast (its /metrics buckets): %s\n",
                describe(measured.server_steps_end.since(measured.server_steps_start)).c_str());
    std::printf(
        "views checked against a snapshot: %llu, mismatches: %llu, version gaps: %llu, "
        "pairs done: %d of %zu\n",
        static_cast<unsigned long long>(totals.checks.load()),
        static_cast<unsigned long long>(totals.mismatches.load()),
        static_cast<unsigned long long>(totals.gaps.load()), totals.done.load(), pairs);
    const double own_user = measured.own_end.first - measured.own_start.first;
    const double own_sys = measured.own_end.second - measured.own_start.second;
    std::printf("bench CPU: %.2f s user + %.2f s sys = %.0f%% of one core\n", own_user, own_sys,
                100 * (own_user + own_sys) / seconds);
    const double machine_busy = measured.machine_end.first - measured.machine_start.first;
    const double machine_total = measured.machine_end.second - measured.machine_start.second;
    if (machine_total > 0)
        std::printf("machine: %.0f%% busy on %u cores (everything, other users included)\n",
                    100 * machine_busy / machine_total, std::thread::hardware_concurrency());
    if (options.server_pid > 0) {
        const double server_cpu = measured.server_end - measured.server_start;
        std::printf(
            "server CPU: %.2f s = %.0f%% of one core; %.1f us per full turn, %.1f us per "
            "step\n",
            server_cpu, 100 * server_cpu / seconds,
            totals.turns ? 1e6 * server_cpu / totals.turns : 0.0,
            totals.steps ? 1e6 * server_cpu / totals.steps : 0.0);
    }
    if (options.hold_after > 0)
        std::printf("pairs holding a live match after %d steps: %d of %d\n", options.hold_after,
                    totals.holding.load(), options.matches);
    if (options.idle_sockets > 0)
        std::printf("idle sockets open: %d at the peak, %d at the end\n", measured.idle_peak,
                    measured.idle_open);
    if (options.server_pid > 0 && options.matches > 0)
        std::printf("server RSS: %ld KiB before the matches, %ld KiB peak: %.1f KiB per %s\n",
                    measured.rss_before, measured.rss_peak,
                    static_cast<double>(measured.rss_peak - measured.rss_before) / options.matches,
                    options.hold_after > 0 ? "live match"
                                           : "pair (with the finished matches the server keeps)");
    std::fflush(stdout);
}

}  // namespace server_bench
