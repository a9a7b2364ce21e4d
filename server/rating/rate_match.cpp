#include "server/rating/rate_match.hpp"

#include <cmath>

namespace server::rating {

namespace {

std::string check_rating(const Rating& r) {
    if (!std::isfinite(r.rating) || !std::isfinite(r.deviation) || !std::isfinite(r.volatility))
        return "rating values must be finite";
    if (r.deviation <= 0.0 || r.volatility <= 0.0)
        return "deviation and volatility must be positive";
    if (r.games < 0) return "games must not be negative";
    return {};
}

std::string check_seats(std::span<const Seat> seats) {
    if (seats.size() < 2 || seats.size() > 4) return "a rated match has 2 to 4 seats";
    bool two_sides = false;
    for (std::size_t i = 0; i < seats.size(); ++i) {
        const Seat& seat = seats[i];
        if (seat.place < 1) return "seat " + std::to_string(i) + ": place must be 1 or more";
        if (std::string why = check_rating(seat.rating); !why.empty())
            return "seat " + std::to_string(i) + ": " + why;
        for (std::size_t j = 0; j < i; ++j) {
            const Seat& other = seats[j];
            if (other.player == seat.player)
                return "player " + seat.player + " sits twice in one match";
            if (other.side != seat.side)
                two_sides = true;
            else if (other.place != seat.place)
                return "seats " + std::to_string(j) + " and " + std::to_string(i) +
                       " are partners with different places";
        }
    }
    if (!two_sides) return "every seat plays for the same side";
    return {};
}

// The score of a seat that finished `place` against one that finished `other`.
double score(int place, int other) {
    if (place < other) return 1.0;
    if (place > other) return 0.0;
    return 0.5;
}

}  // namespace

std::variant<std::vector<Rating>, std::string> rate_match(std::span<const Seat> seats,
                                                          Ending ending, std::int64_t ended_at,
                                                          const Parameters& params) {
    if (std::string why = check_seats(seats); !why.empty()) return why;

    std::vector<Rating> ratings;
    ratings.reserve(seats.size());
    if (ending == Ending::Aborted) {
        for (const Seat& seat : seats) ratings.push_back(seat.rating);
        return ratings;
    }

    // Every player is rated against the opponents' ratings from before the match, as in one
    // rating period of the paper, so the result does not depend on the order of the seats.
    std::vector<Game> games;
    for (const Seat& seat : seats) {
        games.clear();
        for (const Seat& opponent : seats) {
            if (opponent.side == seat.side) continue;  // the seat itself and its partner
            const Rating now = at(opponent.rating, ended_at, params);
            games.push_back({now.rating, now.deviation, score(seat.place, opponent.place)});
        }
        ratings.push_back(update(seat.rating, games, ended_at, params));
    }
    return ratings;
}

}  // namespace server::rating
