#pragma once
// The stored-data HTTP API's requests as typed values (docs/api.md): a request target in, the
// request it names or the 4xx it deserves out. Pure: no I/O, no database, testable alone.
//
//   GET /api/matches/{id}[?code=C]                 MatchHeaderRequest
//   GET /api/matches/{id}/replay[?code=C]          MatchReplayRequest
//   GET /api/matches/{id}/view?after=N[&code=C]    MatchViewRequest
//   GET /api/players/{id}                          PlayerRequest
//   GET /api/players/{id}/rating-history?pool=P    RatingHistoryRequest
//   GET /api/players/{id}/matches?limit=L&after=C  PlayerMatchesRequest
//   GET /api/leaderboard?pool=P&limit=L&offset=O   LeaderboardRequest

#include <cstddef>
#include <cstdint>
#include <optional>
// Boost 1.81's core/string_view (under beast/http) uses std::ostream without including it.
#include <ostream>
#include <string>
#include <string_view>
#include <variant>

#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>

namespace server {

/// Bounds on what a request may carry (docs/api.md, "Limits").
struct ApiLimits {
    static constexpr std::size_t max_target = 2048;  ///< the whole request target
    static constexpr std::size_t max_query = 512;    ///< the query string
    static constexpr std::size_t max_id = 64;        ///< a match or player id
    static constexpr int default_page = 20;          ///< a player's matches per page
    static constexpr int max_page = 100;
    static constexpr int default_leaderboard = 50;
    static constexpr int max_leaderboard = 100;
    static constexpr int max_leaderboard_offset = 10000;
    static constexpr std::uint32_t max_after = 100000;  ///< view?after=N
};

struct MatchHeaderRequest {
    std::string match;
    std::string code = {};  ///< ?code=: a private match's invite code ("" if not given)
};
struct MatchReplayRequest {
    std::string match;
    std::string code = {};  ///< ?code=, as above
};
struct MatchViewRequest {
    std::string match;
    std::uint32_t after = 0;  ///< records applied: 0 is the setup position
    std::string code = {};    ///< ?code=, as above
};
struct PlayerRequest {
    std::string player;
};
struct RatingHistoryRequest {
    std::string player;
    std::string pool;  ///< a known pool name ("santorini", "santorini_powers", "splendor")
};
/// Where a page of a player's matches starts: after this match (newest first).
struct PageCursor {
    std::int64_t created_at_ms = 0;
    std::string match;
};
struct PlayerMatchesRequest {
    std::string player;
    int limit = ApiLimits::default_page;
    std::optional<PageCursor> after;
};
struct LeaderboardRequest {
    std::string pool;
    int limit = ApiLimits::default_leaderboard;
    int offset = 0;
};

/// One request of the stored-data API.
using ApiRequest = std::variant<MatchHeaderRequest, MatchReplayRequest, MatchViewRequest,
                                PlayerRequest, RatingHistoryRequest, PlayerMatchesRequest,
                                LeaderboardRequest>;

/// A request the API refuses: 400 bad_request, 404 not_found or 405 method_not_allowed.
struct ApiRefusal {
    boost::beast::http::status status = boost::beast::http::status::bad_request;
    std::string message;
};

/// True when `target`'s path belongs to the stored-data API (then parse_api_request answers
/// for it); everything else stays with handle_http. "/api/matches" (the live list) is not ours.
bool is_api_target(std::string_view target);

/// The request that `method` and `target` name, or why it is refused. Only GET and HEAD are
/// accepted (405 otherwise). An id that cannot be one (empty, longer than ApiLimits::max_id,
/// characters other than [A-Za-z0-9_-]) is 404 like an unknown id; a bad parameter is 400.
/// Unknown parameters are ignored.
std::variant<ApiRequest, ApiRefusal> parse_api_request(boost::beast::http::verb method,
                                                       std::string_view target);

/// The opaque text of a page cursor ("<ms>.<match id>"), as sent in X-Next-Cursor.
std::string cursor_text(const PageCursor& cursor);
/// A cursor from its text, or nullopt if it is not one.
std::optional<PageCursor> parse_cursor(std::string_view text);

}  // namespace server
