#pragma once
// Stored rows -> the JSON of the HTTP API (docs/api.md): match headers, replays, the view after
// a step, player pages, rating histories, leaderboards. Pure functions of their arguments (the
// time "now" included), so every shape is tested without a database.
//
// The hidden-information rule lives here: a live match is shown as spectators see it (the
// game's `protocol::spectators` view, spectators' history lines, secret steps reduced to their
// kind); a finished or aborted one is revealed (the `protocol::revealed` view, every step as
// its player read it). The game is reached only through protocol::Game.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "protocol/game.hpp"
#include "protocol/json/basic_json.hpp"
#include "server/match/replay.hpp"
#include "server/store/repository.hpp"

namespace server {

/// `ms` since the epoch as ISO-8601 UTC with milliseconds ("2026-11-23T18:27:10.123Z"); JSON
/// null for 0 (no time).
nlohmann::json iso8601(std::int64_t ms);

/// True while the match is live: only what spectators may see is shown.
bool is_live(const store::StoredMatch& match);

/// The rating pool of a stored match ("santorini", "santorini_powers" or "splendor"), or null
/// when the match is casual or its settings cannot be read.
nlohmann::json match_pool(const store::StoredMatch& match);

/// The game's view as the API shows it: the spectators' view while live, the revealed one
/// once over; never with legal steps.
std::unique_ptr<protocol::GameView> shown_view(const store::StoredMatch& match,
                                               const protocol::Game& game);

/// A match header: {id, game, status, live, settings, created_at, finished_at, seats: [{seat,
/// team, player: {id, name}, power, rating_before, rating_after}], result, pool, steps}.
/// `final_game`, when the match could be replayed, is its current game: a seat's power is the
/// `power` member the game writes for it (Game::write_seat) in shown_view (a drafted god is not
/// in the seats' stored column); without it, or for a game without powers, the stored column
/// is used.
nlohmann::json match_header(const store::StoredMatch& match,
                            const protocol::Game* final_game = nullptr);

/// A replay: {match: header, steps: [{number, seat, player, step, at}]}. `replayed` is the
/// replay of every record (for seats, powers and which steps are secret while live); without it
/// (a match that cannot be replayed) seats come from the players and events, and a live
/// match's steps show only their kind.
nlohmann::json replay_json(const store::StoredMatch& match, const ReplayPosition* replayed);

/// The view after `at.records` records, shaped like a live match view: {match, game, status,
/// seats: [{seat, player, <the game's seat members: power, side, out>}], result, history,
/// state}, written from shown_view. The result is the
/// stored one only at the last record of a match that is over.
nlohmann::json view_after_json(const store::StoredMatch& match, const ReplayPosition& at);

/// A rating in one pool as of `now_ms`: {pool, rating, deviation, volatility, games,
/// provisional}; the deviation has grown for the time without games (rating::at).
nlohmann::json pool_rating_json(const store::PoolRating& rating, std::int64_t now_ms);

/// True when the rating is established (not provisional) as of `now_ms`.
bool established(const RatingValue& value, std::int64_t now_ms);

/// A player page: {id, name, created_at, ratings: [...], recent_matches: [headers]}.
nlohmann::json player_json(const store::Player& player, const std::vector<store::PoolRating>& ratings,
                           const std::vector<store::StoredMatch>& recent, std::int64_t now_ms);

/// {player, pool, history: [{rating, deviation, volatility, match, at}]}, oldest first, from
/// changes given newest first (as the repository reads them).
nlohmann::json rating_history_json(const std::string& player_id, const std::string& pool,
                                   const std::vector<store::RatingChange>& newest_first);

/// {pool, entries: [{rank, player: {id, name}, rating, deviation, games}]}.
nlohmann::json leaderboard_json(const std::string& pool,
                                const std::vector<store::LeaderboardEntry>& entries,
                                std::int64_t now_ms);

}  // namespace server
