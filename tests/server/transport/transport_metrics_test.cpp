// Metrics::render: the Prometheus text exposition.

#include <sstream>
#include <string>

#include <catch2/catch_test_macros.hpp>

#include "protocol/messages.hpp"
#include "server/app/metrics.hpp"

namespace {

bool has_line(const std::string& text, const std::string& line) {
    std::istringstream in(text);
    for (std::string current; std::getline(in, current);) {
        if (current == line) return true;
    }
    return false;
}

}  // namespace

TEST_CASE("metrics render every gauge and counter", "[metrics]") {
    server::Metrics metrics;
    metrics.open_sockets = 3;
    metrics.live_matches = 2;
    metrics.open_lobbies = 5;
    metrics.messages_in = 11;
    metrics.messages_out = 13;
    metrics.http_requests = 17;
    const std::string text = metrics.render();
    CHECK(has_line(text, "# TYPE santorini_open_sockets gauge"));
    CHECK(has_line(text, "santorini_open_sockets 3"));
    CHECK(has_line(text, "santorini_live_matches 2"));
    CHECK(has_line(text, "santorini_lobbies 5"));
    CHECK(has_line(text, "# TYPE santorini_messages_in_total counter"));
    CHECK(has_line(text, "santorini_messages_in_total 11"));
    CHECK(has_line(text, "santorini_messages_out_total 13"));
    CHECK(has_line(text, "santorini_http_requests_total 17"));
    CHECK(text.back() == '\n');
}

TEST_CASE("rejected messages are counted per error code name", "[metrics]") {
    server::Metrics metrics;
    metrics.rejected(protocol::ErrorCode::RateLimited);
    metrics.rejected(protocol::ErrorCode::RateLimited);
    metrics.rejected(protocol::ErrorCode::MalformedJson);
    metrics.rejected(protocol::ErrorCode::AlreadyInGame);
    const std::string text = metrics.render();
    CHECK(has_line(text, "# TYPE santorini_rejected_messages_total counter"));
    CHECK(has_line(text, "santorini_rejected_messages_total{reason=\"rate_limited\"} 2"));
    CHECK(has_line(text, "santorini_rejected_messages_total{reason=\"malformed_json\"} 1"));
    CHECK(has_line(text, "santorini_rejected_messages_total{reason=\"already_in_game\"} 1"));
    CHECK(has_line(text, "santorini_rejected_messages_total{reason=\"frame_too_large\"} 0"));
}

TEST_CASE("step latency is a cumulative histogram", "[metrics]") {
    server::Metrics metrics;
    metrics.step_latency(0.00005);  // <= 0.0001
    metrics.step_latency(0.0001);   // <= 0.0001 (le is inclusive)
    metrics.step_latency(0.003);    // <= 0.005
    metrics.step_latency(0.5);      // <= 1
    metrics.step_latency(7.0);      // +Inf only
    const std::string text = metrics.render();
    CHECK(has_line(text, "# TYPE santorini_step_latency_seconds histogram"));
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"0.0001\"} 2"));
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"0.0025\"} 2"));
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"0.005\"} 3"));
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"0.25\"} 3"));
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"1\"} 4"));
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"+Inf\"} 5"));
    CHECK(has_line(text, "santorini_step_latency_seconds_count 5"));
    CHECK(has_line(text, "santorini_step_latency_seconds_sum 7.50315"));
}

TEST_CASE("an empty histogram still has all its series", "[metrics]") {
    const std::string text = server::Metrics{}.render();
    CHECK(has_line(text, "santorini_step_latency_seconds_bucket{le=\"+Inf\"} 0"));
    CHECK(has_line(text, "santorini_step_latency_seconds_sum 0"));
    CHECK(has_line(text, "santorini_step_latency_seconds_count 0"));
}
