#pragma once
// A finished match's seats in, each player's new rating out. Every pair of seats on different
// sides is one game of the match's rating period, scored by finishing place: 2 players play
// one game; with 3 players each plays the other two; in a 4-player team game each player plays
// both opponents and never a partner. Aborted matches are not rated. docs/ratings.md says why.

#include <cstdint>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "server/rating/rating.hpp"

namespace server::rating {

/// One seat of a finished match, for rating.
struct Seat {
    std::string player;  ///< the player's id: a player may sit only once in a rated match
    Rating rating;       ///< the player's rating in the match's pool, as stored
    /// Who the seat plays for: the seat itself (any number unique to it), or its team in a
    /// 4-player team game (partners share the side and the place).
    int side = 0;
    /// Finishing place, 1 for the winner. Equal places are a draw between those seats; 3p
    /// Santorini: the winner 1, the last eliminated 2, the first eliminated 3.
    int place = 1;
};

/// How the match ended.
enum class Ending {
    Finished,  ///< played to the end (a win, a resignation, a timeout or a draw): rated
    Aborted,   ///< aborted before it counted: not rated, every rating is returned unchanged
};

/// The new ratings, in the order of `seats`, of a match that ended at `ended_at` (ms since
/// the epoch); or why the seats cannot be rated (fewer than 2 or more than 4 seats, one side
/// only, a player twice, partners with different places, a place below 1, a rating that is
/// not finite or a deviation or volatility that is not positive). An error changes nothing.
std::variant<std::vector<Rating>, std::string> rate_match(std::span<const Seat> seats,
                                                          Ending ending, std::int64_t ended_at,
                                                          const Parameters& params = {});

}  // namespace server::rating
