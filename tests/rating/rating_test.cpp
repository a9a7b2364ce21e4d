// A rating over time: deviation growth without games, bounds, the provisional mark, pools.

#include "server/rating/rating.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <vector>

using namespace server::rating;
using Catch::Approx;

namespace {

constexpr std::int64_t day = 86'400'000;
constexpr std::int64_t t0 = 1'700'000'000'000;  // ms since the epoch (November 2023)
const double step = glicko2_scale * 0.06;       // deviation growth per period at sigma 0.06

Rating established(double deviation) {
    return {1600.0, deviation, 0.06, t0, 40};
}

}  // namespace

TEST_CASE("A new player starts at 1500 / 350 / 0.06 and is provisional") {
    const Rating r = initial_rating();
    CHECK(r.rating == 1500.0);
    CHECK(r.deviation == 350.0);
    CHECK(r.volatility == 0.06);
    CHECK(r.games == 0);
    CHECK(provisional(r, t0));
}

TEST_CASE("Pools have stored names") {
    for (Pool pool : {Pool::Santorini, Pool::SantoriniPowers, Pool::Splendor})
        CHECK(pool_from_name(pool_name(pool)) == pool);
    CHECK(pool_name(Pool::SantoriniPowers) == "santorini_powers");
    CHECK_FALSE(pool_from_name("chess").has_value());
}

TEST_CASE("A player who does not play: only the deviation grows, a period a day") {
    const Rating r = established(60.0);
    CHECK(at(r, t0) == r);

    const Rating later = at(r, t0 + 10 * day);
    CHECK(later.deviation == Approx(std::sqrt(60.0 * 60.0 + 10.0 * step * step)).epsilon(1e-12));
    CHECK(later.rating == r.rating);
    CHECK(later.volatility == r.volatility);
    CHECK(later.games == r.games);
    CHECK(later.last_rated_at == r.last_rated_at);

    // Half a day counts as half a period.
    CHECK(at(r, t0 + day / 2).deviation ==
          Approx(std::sqrt(60.0 * 60.0 + 0.5 * step * step)).epsilon(1e-12));
    // A clock behind the last rating is no time at all.
    CHECK(at(r, t0 - day) == r);

    // An update without games is the same thing.
    CHECK(update(r, {}, t0 + 10 * day) == later);
}

TEST_CASE("The deviation grows at most to the initial deviation") {
    const Rating r = established(60.0);
    CHECK(at(r, t0 + 20 * 365 * day).deviation == 350.0);
}

TEST_CASE("A rating is provisional above 110, about three months after settling at 50") {
    const Rating r = established(50.0);
    // (110^2 - 50^2) / step^2 = 88.4 periods.
    CHECK_FALSE(provisional(r, t0 + 88 * day));
    CHECK(provisional(r, t0 + 89 * day));
}

TEST_CASE("A match one day after the last is the paper's rating period") {
    const Rating r{1500.0, 200.0, 0.06, t0, 10};
    const std::vector<Game> games{{1400.0, 30.0, 1.0}, {1550.0, 100.0, 0.0}, {1700.0, 300.0, 0.0}};
    const Rating after = update(r, games, t0 + day);
    CHECK(after.rating == Approx(1464.0506705).margin(1e-6).epsilon(0));
    CHECK(after.deviation == Approx(151.5165241).margin(1e-6).epsilon(0));
    CHECK(after.volatility == Approx(0.0599959843).margin(1e-9).epsilon(0));
    CHECK(after.games == 11);
    CHECK(after.last_rated_at == t0 + day);
}

TEST_CASE("The deviation never falls below the floor, however many games") {
    Rating r = established(46.0);
    const std::vector<Game> draw{{1600.0, 45.0, 0.5}};
    for (int i = 0; i < 50; ++i) {
        r = update(r, draw, t0 + i);  // a millisecond apart: no time to grow
        REQUIRE(r.deviation >= 45.0);
    }
    CHECK(r.deviation == 45.0);
    CHECK(r.games == 90);
}

TEST_CASE("After years away the deviation is that of a new player before the match") {
    const Rating away{1800.0, 50.0, 0.06, t0, 200};
    const Rating fresh{1800.0, 350.0, 0.06, t0 + 3650 * day, 200};
    const std::vector<Game> win{{1700.0, 80.0, 1.0}};
    const Rating a = update(away, win, t0 + 3650 * day);
    const Rating b = update(fresh, win, t0 + 3650 * day);
    CHECK(a.deviation <= 350.0);
    CHECK(a.deviation == Approx(b.deviation).epsilon(1e-9));
    CHECK(a.rating == Approx(b.rating).epsilon(1e-9));
}

TEST_CASE("A match timed before the last rating keeps last_rated_at") {
    const Rating r = established(80.0);
    const std::vector<Game> win{{1600.0, 80.0, 1.0}};
    const Rating after = update(r, win, t0 - 5000);
    CHECK(after.last_rated_at == t0);
    CHECK(after.rating > r.rating);
}
