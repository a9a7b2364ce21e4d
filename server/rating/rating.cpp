#include "server/rating/rating.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>

namespace server::rating {

namespace {

constexpr std::array<std::pair<Pool, std::string_view>, 3> pool_names{{
    {Pool::Santorini, "santorini"},
    {Pool::SantoriniPowers, "santorini_powers"},
    {Pool::Splendor, "splendor"},
}};

}  // namespace

std::string_view pool_name(Pool pool) {
    for (const auto& [p, name] : pool_names)
        if (p == pool) return name;
    return "";
}

std::optional<Pool> pool_from_name(std::string_view name) {
    for (const auto& [p, n] : pool_names)
        if (n == name) return p;
    return std::nullopt;
}

Rating initial_rating(const Parameters& params) {
    return {params.initial_rating, params.initial_deviation, params.initial_volatility, 0, 0};
}

double periods_between(std::int64_t from, std::int64_t to, const Parameters& params) {
    if (to <= from) return 0.0;
    return static_cast<double>(to - from) / static_cast<double>(params.period_ms);
}

Rating at(const Rating& rating, std::int64_t now, const Parameters& params) {
    Rating grown = rating;
    const double t = periods_between(rating.last_rated_at, now, params);
    const double step = glicko2_scale * rating.volatility;
    grown.deviation = std::min(std::sqrt(rating.deviation * rating.deviation + t * step * step),
                               params.max_deviation);
    return grown;
}

bool provisional(const Rating& rating, std::int64_t now, const Parameters& params) {
    return at(rating, now, params).deviation > params.provisional_deviation;
}

Rating update(const Rating& rating, std::span<const Game> games, std::int64_t now,
              const Parameters& params) {
    if (games.empty()) return at(rating, now, params);

    PeriodOptions options;
    options.tau = params.tau;
    options.tolerance = params.tolerance;
    options.periods = periods_between(rating.last_rated_at, now, params);
    options.max_deviation = params.max_deviation;

    const Estimate after =
        rate_period({rating.rating, rating.deviation, rating.volatility}, games, options);

    Rating next;
    next.rating = after.rating;
    next.deviation = std::clamp(after.deviation, params.min_deviation, params.max_deviation);
    next.volatility = after.volatility;
    next.last_rated_at = std::max(rating.last_rated_at, now);
    next.games = rating.games + 1;
    return next;
}

}  // namespace server::rating
