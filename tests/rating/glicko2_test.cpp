// The Glicko-2 algorithm on its own: Glickman's worked example, and what one rating period does.

#include "server/rating/glicko2.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <vector>

using namespace server::rating;
using Catch::Approx;

namespace {

// "Example of the Glicko-2 system", section "Example calculation": a 1500/200/0.06 player
// beats a 1400/30 player and loses to 1550/100 and 1700/300, with tau = 0.5.
const Estimate paper_player{1500.0, 200.0, 0.06};
const std::vector<Game> paper_games{
    {1400.0, 30.0, 1.0}, {1550.0, 100.0, 0.0}, {1700.0, 300.0, 0.0}};

}  // namespace

// The paper prints r' = 1464.06, RD' = 151.52, sigma' = 0.05999, computed from intermediate
// values rounded to 4 decimals (mu' = -0.2069 gives 1464.0578). Full precision gives
// 1464.0507 / 151.5165 / 0.0599960, the values independent implementations of the paper
// publish in their tests; both are checked, each at its own precision.
TEST_CASE("Glickman's worked example: 1464.06, 151.52, 0.05999") {
    PeriodOptions options;
    options.tau = 0.5;
    const Estimate after = rate_period(paper_player, paper_games, options);

    // The paper's printed results, to the precision its rounding allows.
    CHECK(after.rating == Approx(1464.06).margin(0.01).epsilon(0));
    CHECK(after.deviation == Approx(151.52).margin(0.01).epsilon(0));
    CHECK(after.volatility == Approx(0.05999).margin(0.00001).epsilon(0));
    // The paper's step 7 values on the Glicko-2 scale, to its 4 decimals.
    CHECK((after.rating - 1500.0) / glicko2_scale == Approx(-0.2069).margin(0.00005).epsilon(0));
    CHECK(after.deviation / glicko2_scale == Approx(0.8722).margin(0.00005).epsilon(0));
    // Full precision, as other implementations of the paper compute it.
    CHECK(after.rating == Approx(1464.0506705).margin(1e-6).epsilon(0));
    CHECK(after.deviation == Approx(151.5165241).margin(1e-6).epsilon(0));
    CHECK(after.volatility == Approx(0.0599959843).margin(1e-9).epsilon(0));
}

TEST_CASE("The worked example does not depend on the order of the games") {
    const std::vector<Game> reversed(paper_games.rbegin(), paper_games.rend());
    const Estimate a = rate_period(paper_player, paper_games);
    const Estimate b = rate_period(paper_player, reversed);
    CHECK(a.rating == Approx(b.rating).epsilon(1e-12));
    CHECK(a.deviation == Approx(b.deviation).epsilon(1e-12));
    CHECK(a.volatility == Approx(b.volatility).epsilon(1e-12));
}

TEST_CASE("A rating period is deterministic to the bit") {
    const Estimate a = rate_period(paper_player, paper_games);
    const Estimate b = rate_period(paper_player, paper_games);
    CHECK(a.rating == b.rating);
    CHECK(a.deviation == b.deviation);
    CHECK(a.volatility == b.volatility);
}

TEST_CASE("Without games only the deviation grows, by step 6") {
    const Estimate after = rate_period(paper_player, {});
    CHECK(after.rating == 1500.0);
    CHECK(after.volatility == 0.06);
    const double step = glicko2_scale * 0.06;
    CHECK(after.deviation == Approx(std::sqrt(200.0 * 200.0 + step * step)).epsilon(1e-12));

    PeriodOptions four;
    four.periods = 4.0;
    CHECK(rate_period(paper_player, {}, four).deviation ==
          Approx(std::sqrt(200.0 * 200.0 + 4.0 * step * step)).epsilon(1e-12));
}

TEST_CASE("A win raises, a loss lowers, a draw against an equal leaves the rating") {
    const Estimate player{1500.0, 100.0, 0.06};
    const std::vector<Game> win{{1500.0, 100.0, 1.0}};
    const std::vector<Game> loss{{1500.0, 100.0, 0.0}};
    const std::vector<Game> draw{{1500.0, 100.0, 0.5}};
    const Estimate after_win = rate_period(player, win);
    const Estimate after_loss = rate_period(player, loss);
    const Estimate after_draw = rate_period(player, draw);
    CHECK(after_win.rating > 1500.0);
    CHECK(after_loss.rating < 1500.0);
    CHECK(after_win.rating - 1500.0 == Approx(1500.0 - after_loss.rating).epsilon(1e-12));
    CHECK(after_draw.rating == 1500.0);
    // A game teaches something: the deviation shrinks below the grown pre-period value.
    CHECK(after_draw.deviation < 100.0);
}

TEST_CASE("An upset moves the rating more than the expected result") {
    const Estimate player{1500.0, 100.0, 0.06};
    const std::vector<Game> beat_stronger{{1800.0, 100.0, 1.0}};
    const std::vector<Game> beat_weaker{{1200.0, 100.0, 1.0}};
    CHECK(rate_period(player, beat_stronger).rating - 1500.0 >
          3.0 * (rate_period(player, beat_weaker).rating - 1500.0));
}

TEST_CASE("The cap on the pre-period deviation applies in step 6") {
    PeriodOptions options;
    options.periods = 10000.0;  // decades away
    options.max_deviation = 350.0;
    const Estimate capped = rate_period(paper_player, {}, options);
    CHECK(capped.deviation == Approx(350.0).epsilon(1e-12));

    // With a game, the cap bounds phi*: rating and deviation are those of a 350 player's
    // period with no time added (v and the sum of step 4 do not depend on phi).
    const Estimate with_game = rate_period(paper_player, paper_games, options);
    CHECK(with_game.deviation < 350.0);
    PeriodOptions none;
    none.periods = 0.0;
    const Estimate fresh = rate_period({1500.0, 350.0, 0.06}, paper_games, none);
    CHECK(with_game.deviation == Approx(fresh.deviation).epsilon(1e-9));
    CHECK(with_game.rating == Approx(fresh.rating).epsilon(1e-9));
}
