#pragma once
// The Glicko-2 rating algorithm exactly as in Mark Glickman, "Example of the Glicko-2 system"
// (Boston University, 2013; http://www.glicko.net/glicko/glicko2.pdf), steps 1 to 8, with the
// Illinois algorithm for the new volatility. Pure arithmetic: no clock, no bounds, no storage;
// server/rating/rating.hpp adds time, bounds and the rating state the store keeps.

#include <limits>
#include <span>

namespace server::rating {

/// A player's strength on the Glicko (display) scale: rating r, deviation RD, volatility sigma.
struct Estimate {
    double rating = 1500.0;
    double deviation = 350.0;
    double volatility = 0.06;
};

/// One game of a rating period, seen from the player being rated.
struct Game {
    double opponent_rating = 1500.0;    ///< the opponent's rating before the period
    double opponent_deviation = 350.0;  ///< the opponent's deviation before the period
    double score = 0.5;                 ///< 1 win, 0.5 draw, 0 loss
};

/// How one rating period is computed.
struct PeriodOptions {
    double tau = 0.5;         ///< system constant: how much volatility may change
    double tolerance = 1e-6;  ///< convergence tolerance of the volatility iteration (paper)
    double periods = 1.0;     ///< rating periods the update covers (step 6; the paper uses 1)
    /// Cap on the pre-rating deviation phi* of step 6, on the Glicko scale (none by default).
    double max_deviation = std::numeric_limits<double>::infinity();
};

/// 173.7178 = 400 / ln(10): the factor between the Glicko and the Glicko-2 scales (step 2).
inline constexpr double glicko2_scale = 173.7178;

/// The player's estimate after a rating period with `games` (any number, opponents' values
/// taken from before the period). Without games only the deviation grows, as step 6 says:
/// phi' = sqrt(phi^2 + periods * sigma^2). Expects positive deviations and volatility,
/// scores in [0, 1] and a positive tau (checked by assert; callers validate outside input).
Estimate rate_period(const Estimate& player, std::span<const Game> games,
                     const PeriodOptions& options = {});

}  // namespace server::rating
