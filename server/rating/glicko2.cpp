#include "server/rating/glicko2.hpp"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <numbers>

namespace server::rating {

namespace {

// g(phi) of step 3: how much a result against an uncertain opponent counts.
double g(double phi) {
    return 1.0 / std::sqrt(1.0 + 3.0 * phi * phi / (std::numbers::pi * std::numbers::pi));
}

// E(mu, mu_j, phi_j) of step 3: the expected score against opponent j.
double expected_score(double mu, double mu_j, double phi_j) {
    return 1.0 / (1.0 + std::exp(-g(phi_j) * (mu - mu_j)));
}

// Step 5: the new volatility sigma', the root of f by the Illinois algorithm (a regula falsi
// that halves the stale end's value, so it cannot stall on one side).
double new_volatility(double phi, double sigma, double v, double delta, double tau,
                      double tolerance) {
    const double a = std::log(sigma * sigma);
    const double phi2 = phi * phi;
    const double delta2 = delta * delta;
    auto f = [&](double x) {
        const double ex = std::exp(x);
        const double d = phi2 + v + ex;
        return ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
    };

    double big_a = a;
    double big_b;
    if (delta2 > phi2 + v) {
        big_b = std::log(delta2 - phi2 - v);
    } else {
        // f(x) -> +inf as x -> -inf, so this bracket search ends.
        int k = 1;
        while (f(a - k * tau) < 0.0) ++k;
        big_b = a - k * tau;
    }

    double f_a = f(big_a);
    double f_b = f(big_b);
    // The Illinois method converges superlinearly; the bound only guards against a NaN input
    // that slipped past the asserts turning into an endless loop.
    for (int i = 0; i < 200 && std::abs(big_b - big_a) > tolerance; ++i) {
        const double big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
        const double f_c = f(big_c);
        if (f_c * f_b <= 0.0) {
            big_a = big_b;
            f_a = f_b;
        } else {
            f_a /= 2.0;
        }
        big_b = big_c;
        f_b = f_c;
    }
    return std::exp(big_a / 2.0);
}

}  // namespace

Estimate rate_period(const Estimate& player, std::span<const Game> games,
                     const PeriodOptions& options) {
    assert(player.deviation > 0.0 && player.volatility > 0.0);
    assert(options.tau > 0.0 && options.tolerance > 0.0 && options.periods >= 0.0);

    // Step 2: to the Glicko-2 scale.
    const double mu = (player.rating - 1500.0) / glicko2_scale;
    const double phi = player.deviation / glicko2_scale;
    const double sigma = player.volatility;
    const double max_phi = options.max_deviation / glicko2_scale;

    if (games.empty()) {
        // Step 6 for a player who did not compete: only the deviation grows.
        const double phi_new =
            std::min(std::sqrt(phi * phi + options.periods * sigma * sigma), max_phi);
        return {player.rating, phi_new * glicko2_scale, sigma};
    }

    // Steps 3 and 4: the estimated variance v from the games alone, and the sum that gives the
    // estimated improvement delta = v * sum.
    double inverse_v = 0.0;
    double sum = 0.0;
    for (const Game& game : games) {
        assert(game.opponent_deviation > 0.0 && game.score >= 0.0 && game.score <= 1.0);
        const double mu_j = (game.opponent_rating - 1500.0) / glicko2_scale;
        const double phi_j = game.opponent_deviation / glicko2_scale;
        const double g_j = g(phi_j);
        const double e_j = expected_score(mu, mu_j, phi_j);
        inverse_v += g_j * g_j * e_j * (1.0 - e_j);
        sum += g_j * (game.score - e_j);
    }
    const double v = 1.0 / inverse_v;
    const double delta = v * sum;

    // Step 5.
    const double sigma_new = new_volatility(phi, sigma, v, delta, options.tau, options.tolerance);

    // Step 6: the pre-rating-period deviation, grown by the new volatility.
    const double phi_star =
        std::min(std::sqrt(phi * phi + options.periods * sigma_new * sigma_new), max_phi);

    // Step 7: the new deviation and rating.
    const double phi_new = 1.0 / std::sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    const double mu_new = mu + phi_new * phi_new * sum;

    // Step 8: back to the Glicko scale.
    return {glicko2_scale * mu_new + 1500.0, glicko2_scale * phi_new, sigma_new};
}

}  // namespace server::rating
