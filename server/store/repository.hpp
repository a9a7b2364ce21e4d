#pragma once
// The store's synchronous reads and writes: players, matches and seats, recovery, replays,
// ratings and leaderboards. Steps are written only by PgStepStore (group commit).
//
// Threading: every function blocks its caller for a round trip or a few, on a connection from a
// small pool (size given at construction; callers beyond it wait for a free connection). The
// match strand and the network threads must never call these: the server runs them on its own
// blocking executor (a small thread pool) and posts the answer back. A connection that loses
// its server is dropped and replaced on the next call, so the repository heals by itself; in
// between, calls answer StoreError::Kind::Unavailable. All SQL is parameterized.
//
// Times are ms since the epoch (0 for "none"); JSON travels as text and is stored as jsonb (so
// it comes back with PostgreSQL's spacing and key order, the same value).

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "server/match/step_store.hpp"
#include "server/store/result.hpp"

namespace store {

using server::RatingValue;

/// A player as stored (never the token).
struct Player {
    std::string id;
    std::string display_name;
    std::int64_t created_at_ms = 0;
};

/// A guest to create: the token is hashed before it leaves the process.
struct NewPlayer {
    std::string id;            ///< "p_..."
    std::string display_name;  ///< 1-64 characters
    std::string token;         ///< the secret; only its SHA-256 is stored
    std::int64_t created_at_ms = 0;
};

/// One seat of a new match.
/// A seat of a match to create (the same as the step store's, which also creates matches).
using NewSeat = server::SeatCreation;

/// A match to create, live from the start.
using NewMatch = server::MatchCreation;

/// A seat as stored, with the player's name.
struct StoredSeat {
    int seat = 0;
    std::string player_id;
    std::string display_name;
    std::string power;  ///< "" without powers
    std::optional<int> team;
    std::optional<double> rating_before;  ///< none: unrated, or the seat's first rated game
    std::optional<double> rating_after;
    /// The deviations that go with them, from rating_history: after = this match's row, before
    /// = the player's previous row in the same pool (none for a first rated game).
    std::optional<double> deviation_before;
    std::optional<double> deviation_after;
};

/// A stored step.
struct StoredStep {
    std::uint32_t number = 0;
    std::string player_id;  ///< "" for the server's own steps
    std::string step_json;
    std::int64_t at_ms = 0;
    std::string state_hash;  ///< "" when none was stored
};

/// A match as stored: its header, its seats in seat order and (when asked for) its steps in
/// order of their numbers.
struct StoredMatch {
    std::string id;
    std::string game;
    std::string settings_json;
    std::uint64_t seed = 0;
    std::string status;  ///< "live", "finished" or "aborted"
    std::int64_t created_at_ms = 0;
    std::int64_t started_at_ms = 0;
    std::int64_t finished_at_ms = 0;
    std::string result_json;  ///< "" while live
    std::string owner_node;
    std::string state_hash;
    std::vector<StoredSeat> seats;
    std::vector<StoredStep> steps;
    std::uint32_t step_count = 0;  ///< how many steps are stored (also when `steps` is not read)
    /// Its chat lines, both channels, by number (read with the steps; docs/protocol.md "Chat").
    std::vector<server::ChatRecord> chat;
};

/// Where a page of a player's matches ends: the next page starts after it.
struct MatchCursor {
    std::int64_t created_at_ms = 0;
    std::string match_id;
};

/// One page of a player's matches, newest first (without steps).
struct MatchPage {
    std::vector<StoredMatch> matches;
    std::optional<MatchCursor> next;  ///< set exactly when another page follows
};

/// A player's rating in one pool.
struct PoolRating {
    std::string pool;
    RatingValue value;
};

/// One rating change.
struct RatingChange {
    std::int64_t id = 0;  ///< increasing; the cursor of the history's pages
    std::string pool;
    std::string match_id;
    double rating = 0;
    double deviation = 0;
    double volatility = 0;
    std::int64_t at_ms = 0;
};

/// One line of a leaderboard.
struct LeaderboardEntry {
    int rank = 0;  ///< 1-based, over the whole pool
    std::string player_id;
    std::string display_name;
    RatingValue value;
};

/// Synchronous store functions on a connection pool (see the header comment).
class Repository {
  public:
    /// Connects lazily, at most `connections` at a time, to `url`.
    explicit Repository(std::string url, std::size_t connections = 4);
    ~Repository();
    Repository(const Repository&) = delete;
    Repository& operator=(const Repository&) = delete;

    /// One round trip (SELECT 1): the database answers (health checks; Unavailable if not).
    Result<Done> ping();

    /// Creates a guest. Conflict when the id or the token's hash is taken; Invalid for a bad
    /// name (empty, or longer than 64 characters: code points, as PostgreSQL counts them).
    Result<Player> create_guest(const NewPlayer& player);
    /// The player whose token this is (the guest's own token or an account's session);
    /// NotFound for an unknown or revoked token.
    Result<Player> player_by_token(std::string_view token);
    /// The player with this id; NotFound if there is none.
    Result<Player> player(std::string_view id);

    /// Creates a live match and its seats in one transaction. Conflict for a taken id, NotFound
    /// for an unknown player, Invalid for bad JSON or seats.
    Result<Done> create_match(const NewMatch& match);
    /// Ends a live match without a final step (one that stopped before any step, say).
    /// NotFound when there is no live match with this id.
    Result<Done> end_match(std::string_view match_id, std::string_view status,
                           std::string_view result_json, std::int64_t at_ms);

    /// Every live match, with seats and every step in order, oldest match first: what the
    /// server replays at start. With `owner_node`, only that node's matches (and ones with no
    /// owner).
    Result<std::vector<StoredMatch>> live_matches(std::string_view owner_node = {});
    /// The same matches from one snapshot, handed to `each` at most `page` (> 0) at a time,
    /// oldest first, so that a caller replays one page while the next is read. Returns how
    /// many matches were handed over; `each` must not throw.
    Result<std::size_t> live_matches_paged(
        std::size_t page, const std::function<void(std::vector<StoredMatch>&&)>& each,
        std::string_view owner_node = {});
    /// Who sits in every live match, as (match id, player id), without the steps: what the
    /// server needs at once at start, before the replays (a player in a live match may not
    /// queue).
    Result<std::vector<std::pair<std::string, std::string>>> live_seats();
    /// One match with seats and steps (a replay); NotFound for an unknown id.
    Result<StoredMatch> match(std::string_view match_id);
    /// A player's matches, newest first, `limit` (1-100) per page, starting after `after`.
    Result<MatchPage> player_matches(std::string_view player_id, std::optional<MatchCursor> after,
                                     int limit);

    /// A player's ratings, one per pool they have played in.
    Result<std::vector<PoolRating>> ratings(std::string_view player_id);
    /// A player's rating changes in `pool`, newest first: `limit` (1-500) of them with an id
    /// below `before_id` (0: from the newest).
    Result<std::vector<RatingChange>> rating_history(std::string_view player_id,
                                                     std::string_view pool, int limit,
                                                     std::int64_t before_id = 0);
    /// The best `limit` (1-500) ratings of `pool` after skipping `offset`, among accounts (never
    /// guests: docs/ratings.md) with
    /// at least `min_games` rated games and a stored deviation of at most `max_deviation` (0:
    /// any); ties by player id.
    Result<std::vector<LeaderboardEntry>> leaderboard(std::string_view pool, int limit,
                                                      int offset = 0, int min_games = 0,
                                                      double max_deviation = 0);

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace store
