// Rating a finished match: 2 players, 3 players by finishing place, 4-player teams, aborts and
// refused input.

#include "server/rating/rate_match.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace server::rating;
using Catch::Approx;

namespace {

constexpr std::int64_t day = 86'400'000;
constexpr std::int64_t t0 = 1'700'000'000'000;
constexpr std::int64_t ended = t0 + day;

Rating rating(double r, double rd = 120.0) {
    return {r, rd, 0.06, t0, 30};
}

std::vector<Rating> rated(const std::vector<Seat>& seats, Ending ending = Ending::Finished) {
    auto result = rate_match(seats, ending, ended);
    if (auto* why = std::get_if<std::string>(&result)) FAIL("refused: " << *why);
    return std::get<std::vector<Rating>>(result);
}

std::string refused(const std::vector<Seat>& seats) {
    auto result = rate_match(seats, Ending::Finished, ended);
    REQUIRE(std::holds_alternative<std::string>(result));
    return std::get<std::string>(result);
}

}  // namespace

TEST_CASE("2 players of equal rating: the winner gains what the loser loses") {
    const auto after = rated({{"p_a", rating(1500), 0, 1}, {"p_b", rating(1500), 1, 2}});
    REQUIRE(after.size() == 2);
    CHECK(after[0].rating > 1500.0);
    CHECK(after[0].rating - 1500.0 == Approx(1500.0 - after[1].rating).epsilon(1e-12));
    CHECK(after[0].deviation == Approx(after[1].deviation).epsilon(1e-12));
    CHECK(after[0].games == 31);
    CHECK(after[1].games == 31);
    CHECK(after[0].last_rated_at == ended);
}

TEST_CASE("2 players: the result is symmetric in the seats") {
    const Seat a{"p_a", rating(1620, 80), 0, 2};
    const Seat b{"p_b", rating(1480, 200), 1, 1};
    const auto ab = rated({a, b});
    const auto ba = rated({b, a});
    CHECK(ab[0] == ba[1]);
    CHECK(ab[1] == ba[0]);
    // The upset winner with the larger deviation moves further than the loser.
    CHECK(ab[1].rating - b.rating.rating > a.rating.rating - ab[0].rating);
}

TEST_CASE("2 players: a draw between equals leaves both ratings") {
    const auto after = rated({{"p_a", rating(1500), 0, 1}, {"p_b", rating(1500), 1, 1}});
    CHECK(after[0].rating == 1500.0);
    CHECK(after[1].rating == 1500.0);
    CHECK(after[0].deviation < 120.0);
}

TEST_CASE("3 players rate pairwise by place: the winner gains, the middle holds, last loses") {
    const auto after = rated(
        {{"p_a", rating(1500), 0, 2}, {"p_b", rating(1500), 1, 1}, {"p_c", rating(1500), 2, 3}});
    CHECK(after[1].rating > 1500.0);
    CHECK(after[0].rating ==
          Approx(1500.0).margin(1e-9).epsilon(0));  // one win, one loss, equal foes
    CHECK(after[2].rating < 1500.0);
    CHECK(after[1].rating - 1500.0 == Approx(1500.0 - after[2].rating).epsilon(1e-12));
}

TEST_CASE("3 players: the winner's update is two won games, one against each opponent") {
    const Seat a{"p_a", rating(1550, 90), 0, 1};
    const Seat b{"p_b", rating(1450, 150), 1, 3};
    const Seat c{"p_c", rating(1700, 60), 2, 2};
    const auto after = rated({a, b, c});
    const Rating b_now = at(b.rating, ended);
    const Rating c_now = at(c.rating, ended);
    const std::vector<Game> games{{b_now.rating, b_now.deviation, 1.0},
                                  {c_now.rating, c_now.deviation, 1.0}};
    CHECK(after[0] == update(a.rating, games, ended));
}

TEST_CASE("3 players: a shared second place is a draw between those two") {
    const auto after = rated(
        {{"p_a", rating(1500), 0, 1}, {"p_b", rating(1500), 1, 2}, {"p_c", rating(1500), 2, 2}});
    CHECK(after[0].rating > 1500.0);
    CHECK(after[1].rating < 1500.0);
    CHECK(after[1] == after[2]);
}

TEST_CASE("4-player team game: each player plays both opponents, never the partner") {
    // Seats A-D sit A1, B1, A2, B2: team 0 wins.
    const Seat a1{"p_a1", rating(1500, 100), 0, 1};
    const Seat b1{"p_b1", rating(1600, 100), 1, 2};
    const Seat a2{"p_a2", rating(1400, 200), 0, 1};
    const Seat b2{"p_b2", rating(1550, 300), 1, 2};
    const auto after = rated({a1, b1, a2, b2});
    REQUIRE(after.size() == 4);
    CHECK(after[0].rating > a1.rating.rating);
    CHECK(after[2].rating > a2.rating.rating);
    CHECK(after[1].rating < b1.rating.rating);
    CHECK(after[3].rating < b2.rating.rating);

    const Rating b1_now = at(b1.rating, ended);
    const Rating b2_now = at(b2.rating, ended);
    const std::vector<Game> a1_games{{b1_now.rating, b1_now.deviation, 1.0},
                                     {b2_now.rating, b2_now.deviation, 1.0}};
    CHECK(after[0] == update(a1.rating, a1_games, ended));
}

TEST_CASE("An aborted match is not rated") {
    const std::vector<Seat> seats{{"p_a", rating(1500), 0, 1}, {"p_b", rating(1700), 1, 2}};
    const auto after = rated(seats, Ending::Aborted);
    REQUIRE(after.size() == 2);
    CHECK(after[0] == seats[0].rating);
    CHECK(after[1] == seats[1].rating);
}

TEST_CASE("Rating a match is deterministic") {
    const std::vector<Seat> seats{{"p_a", rating(1512.5, 77), 0, 3},
                                  {"p_b", rating(1733.25, 140), 1, 1},
                                  {"p_c", rating(1288, 310), 2, 2}};
    CHECK(rated(seats) == rated(seats));
}

TEST_CASE("Seats that cannot be rated are refused with a reason") {
    const Seat a{"p_a", rating(1500), 0, 1};
    const Seat b{"p_b", rating(1500), 1, 2};
    CHECK(refused({a}).find("2 to 4") != std::string::npos);
    CHECK(refused({a,
                   b,
                   {"p_c", rating(1500), 2, 3},
                   {"p_d", rating(1500), 3, 4},
                   {"p_e", rating(1500), 4, 5}})
              .find("2 to 4") != std::string::npos);
    CHECK(refused({a, {"p_b", rating(1500), 0, 1}}).find("same side") != std::string::npos);
    CHECK(refused({a, {"p_a", rating(1500), 1, 2}}).find("twice") != std::string::npos);
    CHECK(refused({a, b, {"p_c", rating(1500), 0, 2}, {"p_d", rating(1500), 1, 2}})
              .find("partners") != std::string::npos);
    CHECK(refused({a, {"p_b", rating(1500), 1, 0}}).find("place") != std::string::npos);

    Seat bad = b;
    bad.rating.rating = std::nan("");
    CHECK(refused({a, bad}).find("finite") != std::string::npos);
    bad = b;
    bad.rating.deviation = 0.0;
    CHECK(refused({a, bad}).find("positive") != std::string::npos);
    bad = b;
    bad.rating.volatility = -0.06;
    CHECK(refused({a, bad}).find("positive") != std::string::npos);
}
