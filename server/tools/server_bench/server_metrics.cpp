#include "server/tools/server_bench/server_metrics.hpp"

#include <cstdio>
#include <limits>
#include <sstream>

namespace server_bench {

namespace {

constexpr std::string_view bucket_prefix = "santorini_step_latency_seconds_bucket{le=\"";

}  // namespace

StepHistogram StepHistogram::since(const StepHistogram& earlier) const {
    StepHistogram delta = *this;
    delta.ok = ok && earlier.ok && earlier.cumulative.size() == cumulative.size();
    if (!delta.ok) return delta;
    for (std::size_t i = 0; i < cumulative.size(); ++i)
        delta.cumulative[i] = cumulative[i] - earlier.cumulative[i];
    return delta;
}

double StepHistogram::quantile_bound(double q) const {
    const auto wanted = static_cast<double>(count()) * q;
    for (std::size_t i = 0; i < bounds.size(); ++i)
        if (static_cast<double>(cumulative[i]) >= wanted) return bounds[i];
    return std::numeric_limits<double>::infinity();
}

StepHistogram scrape_step_latency(asio::io_context& io, std::uint16_t port) {
    StepHistogram histogram;
    try {
        beast::tcp_stream stream(io);
        stream.connect(tcp::endpoint(asio::ip::make_address("127.0.0.1"), port));
        http::request<http::empty_body> request{http::verb::get, "/metrics", 11};
        request.set(http::field::host, "127.0.0.1");
        http::write(stream, request);
        beast::flat_buffer buffer;
        http::response<http::string_body> response;
        http::read(stream, buffer, response);
        if (response.result() != http::status::ok) return histogram;
        std::istringstream lines(response.body());
        for (std::string line; std::getline(lines, line);) {
            if (line.rfind(bucket_prefix, 0) != 0) continue;
            const auto quote = line.find('"', bucket_prefix.size());
            const std::string le = line.substr(bucket_prefix.size(), quote - bucket_prefix.size());
            const auto space = line.rfind(' ');
            histogram.cumulative.push_back(std::stoull(line.substr(space + 1)));
            if (le != "+Inf") histogram.bounds.push_back(std::stod(le));
        }
        histogram.ok = !histogram.cumulative.empty() &&
                       histogram.cumulative.size() == histogram.bounds.size() + 1;
    } catch (const std::exception&) {
        histogram.ok = false;
    }
    return histogram;
}

std::string describe(const StepHistogram& histogram) {
    if (!histogram.ok) return "not read (GET /metrics refused or elsewhere: --metrics-address)";
    if (histogram.count() == 0) return "no steps";
    auto bound = [&](double q) {
        const double seconds = histogram.quantile_bound(q);
        char text[32];
        if (seconds == std::numeric_limits<double>::infinity())
            std::snprintf(text, sizeof text, "> %.0f ms", 1000 * histogram.bounds.back());
        else
            std::snprintf(text, sizeof text, "<= %g ms", 1000 * seconds);
        return std::string(text);
    };
    return "p50 " + bound(0.5) + "  p99 " + bound(0.99) + "  max " + bound(1.0) + "  (" +
           std::to_string(histogram.count()) + " steps)";
}

}  // namespace server_bench
