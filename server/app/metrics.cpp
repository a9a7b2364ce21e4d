#include "server/app/metrics.hpp"

#include "server/fleet/broker.hpp"
#include "server/store/stall_watch.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <string_view>
#include <tuple>

namespace server {
namespace {

constexpr auto relaxed = std::memory_order_relaxed;

// Every ErrorCode, in declaration order (the enum is dense from 0).
constexpr std::size_t error_code_count = static_cast<std::size_t>(protocol::last_error_code) + 1;

void append_header(std::string& out, std::string_view name, std::string_view help, std::string_view type) {
    out += "# HELP ";
    out += name;
    out += ' ';
    out += help;
    out += "\n# TYPE ";
    out += name;
    out += ' ';
    out += type;
    out += '\n';
}

template <class T>
void append_sample(std::string& out, std::string_view name, T value) {
    out += name;
    out += ' ';
    out += std::to_string(value);
    out += '\n';
}

// Prometheus floats: shortest round-trip text is not needed, but it must be a valid Go float.
std::string format_double(double value) {
    char buffer[64];
    const int n = std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return std::string(buffer, static_cast<std::size_t>(n));
}

}  // namespace

void Metrics::rejected(protocol::ErrorCode code) {
    const auto index = static_cast<std::size_t>(code);
    if (index < rejected_.size()) rejected_[index].fetch_add(1, relaxed);
}

void Metrics::step_latency(double seconds) {
    if (!(seconds >= 0.0)) seconds = 0.0;  // also catches NaN
    std::size_t bucket = 0;
    while (bucket < bounds_.size() && seconds > bounds_[bucket]) ++bucket;
    step_buckets_[bucket].fetch_add(1, relaxed);  // the last bucket is +Inf
    step_count_.fetch_add(1, relaxed);
    step_sum_us_.fetch_add(static_cast<std::uint64_t>(std::llround(seconds * 1e6)), relaxed);
}

void Metrics::bot_decision(double seconds, bool fallback) {
    if (!(seconds >= 0.0)) seconds = 0.0;
    (fallback ? bot_fallback_ : bot_decided_).fetch_add(1, relaxed);
    bot_think_us_.fetch_add(static_cast<std::uint64_t>(std::llround(seconds * 1e6)), relaxed);
}

std::string Metrics::render() const {
    static_assert(error_code_count <= std::tuple_size_v<decltype(rejected_)>,
                  "Metrics::rejected_ has a slot per protocol::ErrorCode");
    std::string out;
    out.reserve(4096);

    append_header(out, "santorini_open_sockets", "Open WebSocket connections.", "gauge");
    append_sample(out, "santorini_open_sockets", open_sockets.load(relaxed));
    append_header(out, "santorini_live_matches", "Matches being played.", "gauge");
    append_sample(out, "santorini_live_matches", live_matches.load(relaxed));
    append_header(out, "santorini_lobbies", "Open lobbies.", "gauge");
    append_sample(out, "santorini_lobbies", open_lobbies.load(relaxed));
    append_header(out, "santorini_messages_in_total", "WebSocket messages received.", "counter");
    append_sample(out, "santorini_messages_in_total", messages_in.load(relaxed));
    append_header(out, "santorini_messages_out_total", "WebSocket messages sent.", "counter");
    append_sample(out, "santorini_messages_out_total", messages_out.load(relaxed));
    append_header(out, "santorini_http_requests_total", "HTTP requests answered.", "counter");
    append_sample(out, "santorini_http_requests_total", http_requests.load(relaxed));
    append_header(out, "santorini_http_half_open_shed_total",
                  "HTTP connections closed while sending a request because more waited than --max-half-open-requests.",
                  "counter");
    append_sample(out, "santorini_http_half_open_shed_total", http_half_open_shed.load(relaxed));

    append_header(out, "santorini_rejected_messages_total",
                  "Client messages (and refused connections: reason=\"unavailable\") refused, by error code.",
                  "counter");
    for (std::size_t i = 0; i < error_code_count; ++i) {
        out += "santorini_rejected_messages_total{reason=\"";
        out += protocol::code_name(static_cast<protocol::ErrorCode>(i));
        out += "\"} ";
        out += std::to_string(rejected_[i].load(relaxed));
        out += '\n';
    }

    append_header(out, "santorini_step_latency_seconds", "Time from a step's arrival to its broadcast.",
                  "histogram");
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < step_buckets_.size(); ++i) {
        cumulative += step_buckets_[i].load(relaxed);
        out += "santorini_step_latency_seconds_bucket{le=\"";
        out += i < bounds_.size() ? format_double(bounds_[i]) : std::string("+Inf");
        out += "\"} ";
        out += std::to_string(cumulative);
        out += '\n';
    }
    out += "santorini_step_latency_seconds_sum ";
    out += format_double(static_cast<double>(step_sum_us_.load(relaxed)) / 1e6);
    out += '\n';
    // _count equals the +Inf bucket; read from the buckets so a concurrent update cannot make
    // the two disagree within one scrape.
    append_sample(out, "santorini_step_latency_seconds_count", cumulative);

    append_header(out, "santorini_bot_decisions_total",
                  "Computer players' decisions: searched, replaced by the first legal step "
                  "(the search failed), or dropped (the match had moved on).",
                  "counter");
    out += "santorini_bot_decisions_total{outcome=\"searched\"} " +
           std::to_string(bot_decided_.load(relaxed)) + "\n";
    out += "santorini_bot_decisions_total{outcome=\"fallback\"} " +
           std::to_string(bot_fallback_.load(relaxed)) + "\n";
    out += "santorini_bot_decisions_total{outcome=\"dropped\"} " +
           std::to_string(bot_dropped_.load(relaxed)) + "\n";
    append_header(out, "santorini_bot_think_seconds_total",
                  "Time the computer players spent searching.", "counter");
    out += "santorini_bot_think_seconds_total " +
           format_double(static_cast<double>(bot_think_us_.load(relaxed)) / 1e6) + "\n";

    append_header(out, "santorini_database_calls_cut_total",
                  "Database calls that had no answer within --database-stall-ms and had their "
                  "connection cut (a frozen or partitioned database host).",
                  "counter");
    append_sample(out, "santorini_database_calls_cut_total", store::pg::StallWatch::instance().cuts());

    if (const Broker* broker = broker_.load(std::memory_order_acquire)) {
        const BrokerStats s = broker->stats();
        append_header(out, "santorini_broker_messages_total",
                      "Node-to-node messages: sent, received, dropped (queue full, broker "
                      "unreachable, incomplete), rejected (not signed with the fleet's secret, or "
                      "replayed).",
                      "counter");
        for (const auto& [outcome, n] : {std::pair{"sent", s.sent}, {"received", s.received},
                                         {"dropped", s.dropped}, {"rejected", s.rejected}})
            out += std::string("santorini_broker_messages_total{outcome=\"") + outcome + "\"} " +
                   std::to_string(n) + "\n";
        append_header(out, "santorini_broker_gaps_total",
                      "Times the broker's listener reconnected (messages may be lost).", "counter");
        append_sample(out, "santorini_broker_gaps_total", s.gaps);
    }
    return out;
}

}  // namespace server
