#pragma once
// Process-wide counters for GET /metrics (Prometheus text format). Lock-free: updated from
// every strand.

#include <array>
#include <atomic>
#include <cstdint>
#include <string>

#include "protocol/messages.hpp"

namespace server {

class Broker;

class Metrics {
public:
    std::atomic<std::int64_t> open_sockets{0};
    std::atomic<std::int64_t> live_matches{0};
    std::atomic<std::int64_t> open_lobbies{0};
    std::atomic<std::uint64_t> messages_in{0};
    std::atomic<std::uint64_t> messages_out{0};
    std::atomic<std::uint64_t> http_requests{0};
    /// HTTP connections closed because more were waiting for a request than the cap allows.
    std::atomic<std::uint64_t> http_half_open_shed{0};

    /// Counts a refused client message by its error code.
    void rejected(protocol::ErrorCode code);
    /// Records how long one step took from arrival to broadcast.
    void step_latency(double seconds);
    /// Counts one computer decision and the time its search took (`fallback`: the search failed
    /// or named an illegal step, and the first legal step was played instead).
    void bot_decision(double seconds, bool fallback);
    /// Counts a computer decision dropped because the match had moved on.
    void bot_dropped() { bot_dropped_.fetch_add(1, std::memory_order_relaxed); }
    /// Adds the fleet broker's counters to render() (a fleet node calls it once, before it
    /// serves; `broker` outlives the metrics' last render).
    void set_broker(const Broker* broker) { broker_.store(broker, std::memory_order_release); }
    /// The Prometheus text exposition of everything above.
    std::string render() const;

private:
    static constexpr std::array<double, 12> bounds_{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005,
                                                    0.01,   0.025,   0.05,   0.1,   0.25,   1.0};
    std::array<std::atomic<std::uint64_t>, 32> rejected_{};
    std::array<std::atomic<std::uint64_t>, bounds_.size() + 1> step_buckets_{};
    std::atomic<std::uint64_t> step_count_{0};
    std::atomic<std::uint64_t> step_sum_us_{0};
    std::atomic<std::uint64_t> bot_decided_{0};
    std::atomic<std::uint64_t> bot_fallback_{0};
    std::atomic<std::uint64_t> bot_dropped_{0};
    std::atomic<std::uint64_t> bot_think_us_{0};
    std::atomic<const Broker*> broker_{nullptr};
};

}  // namespace server
