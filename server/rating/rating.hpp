#pragma once
// A player's rating in one pool, as the store keeps it, and how it changes: Glicko-2
// (glicko2.hpp) with continuous time (a rating period is a day, counted in fractions) and
// deviation bounds. Every parameter and why it was chosen: docs/ratings.md.

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "server/rating/glicko2.hpp"

namespace server::rating {

/// A separate ladder: ratings in one pool say nothing about another.
enum class Pool {
    Santorini,        ///< Santorini without powers
    SantoriniPowers,  ///< Santorini with god or hero powers
    Splendor,
};

/// The pool's name as stored and sent: "santorini", "santorini_powers", "splendor".
std::string_view pool_name(Pool pool);
/// The pool named `name`, if any.
std::optional<Pool> pool_from_name(std::string_view name);

/// The rating system's parameters (one set for every pool; see docs/ratings.md).
struct Parameters {
    double tau = 0.5;                      ///< system constant (Glickman: 0.3 to 1.2)
    double initial_rating = 1500.0;        ///< a new player's rating
    double initial_deviation = 350.0;      ///< a new player's deviation; also the cap
    double initial_volatility = 0.06;      ///< a new player's volatility
    double min_deviation = 45.0;           ///< floor: ratings never freeze
    double max_deviation = 350.0;          ///< cap: nobody is less known than a new player
    double provisional_deviation = 110.0;  ///< above this the rating is shown with a "?"
    std::int64_t period_ms = 86'400'000;   ///< one rating period: a day
    double tolerance = 1e-6;               ///< volatility iteration tolerance (paper)
};

/// One player's rating in one pool: plain values that map to SQL columns.
struct Rating {
    double rating = 1500.0;
    double deviation = 350.0;  ///< as of `last_rated_at`; grows with time (`at`)
    double volatility = 0.06;
    std::int64_t last_rated_at = 0;  ///< ms since the Unix epoch of the last rated match
    std::int64_t games = 0;          ///< rated matches played in the pool

    bool operator==(const Rating&) const = default;
};

/// A new player's rating.
Rating initial_rating(const Parameters& params = {});

/// Rating periods (fractional) from `from` to `to`, both ms since the epoch; 0 if `to` is not
/// later (clocks of different nodes may disagree a little: time never runs backwards here).
double periods_between(std::int64_t from, std::int64_t to, const Parameters& params = {});

/// The rating as of `now`: only the deviation has grown for the time without games, as in
/// step 6 of the paper, sqrt(RD^2 + t * (173.7178 sigma)^2) for t periods, capped at
/// `max_deviation`. Everything else is unchanged.
Rating at(const Rating& rating, std::int64_t now, const Parameters& params = {});

/// True if the rating as of `now` is provisional (deviation above `provisional_deviation`).
bool provisional(const Rating& rating, std::int64_t now, const Parameters& params = {});

/// The rating after a match at `now` with `games` (each opponent's rating and deviation as of
/// `now`). The time since the last rated match is the rating period of step 6; the deviation
/// is then kept in [min_deviation, max_deviation]; `games` counts one more match and
/// `last_rated_at` becomes `now` (or stays, if later). Without games only the deviation grows.
Rating update(const Rating& rating, std::span<const Game> games, std::int64_t now,
              const Parameters& params = {});

}  // namespace server::rating
