#include "server/http/api_params.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <vector>

#include "server/rating/rating.hpp"
#include "server/http/url_decode.hpp"

namespace server {
namespace {

namespace http = boost::beast::http;
using Query = std::map<std::string, std::string, std::less<>>;

ApiRefusal bad(std::string message) {
    return {http::status::bad_request, std::move(message)};
}
ApiRefusal not_found(std::string message) {
    return {http::status::not_found, std::move(message)};
}

std::variant<Query, ApiRefusal> parse_query(std::string_view query) {
    if (query.size() > ApiLimits::max_query) return bad("the query string is too long");
    Query out;
    std::size_t start = 0;
    while (start <= query.size()) {
        std::size_t end = query.find('&', start);
        if (end == std::string_view::npos) end = query.size();
        const std::string_view pair = query.substr(start, end - start);
        start = end + 1;
        if (pair.empty()) continue;
        const std::size_t eq = pair.find('=');
        auto key = url_decode(pair.substr(0, eq), true);
        auto value = url_decode(eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1), true);
        if (!key || !value) return bad("the query string has a bad %-escape");
        if (!out.emplace(std::move(*key), std::move(*value)).second)
            return bad("a parameter is given twice");
    }
    return out;
}

bool valid_id(std::string_view id) {
    if (id.empty() || id.size() > ApiLimits::max_id) return false;
    for (char c : id)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-'))
            return false;
    return true;
}

// A non-negative decimal integer of at most 9 digits (no sign, no spaces).
std::optional<std::int64_t> natural(std::string_view text, std::size_t max_digits = 9) {
    if (text.empty() || text.size() > max_digits) return std::nullopt;
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
    for (char c : text)
        if (c < '0' || c > '9') return std::nullopt;
    return value;
}

// `name` from the query as an integer in [low, high], `fallback` when absent.
std::variant<int, ApiRefusal> ranged(const Query& query, std::string_view name, int fallback, int low,
                                     int high) {
    auto it = query.find(name);
    if (it == query.end()) return fallback;
    auto value = natural(it->second);
    if (!value || *value < low || *value > high)
        return bad(std::string(name) + " must be an integer from " + std::to_string(low) + " to " +
                   std::to_string(high));
    return static_cast<int>(*value);
}

std::variant<std::string, ApiRefusal> pool_of(const Query& query) {
    auto it = query.find("pool");
    if (it == query.end()) return bad("pool is required (santorini, santorini_powers or splendor)");
    if (!rating::pool_from_name(it->second))
        return bad("unknown pool: expected santorini, santorini_powers or splendor");
    return it->second;
}

// The path split into its segments after "/api/".
std::vector<std::string_view> segments(std::string_view path) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= path.size()) {
        std::size_t end = path.find('/', start);
        if (end == std::string_view::npos) end = path.size();
        out.push_back(path.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

}  // namespace

bool is_api_target(std::string_view target) {
    const std::string_view path = target.substr(0, target.find_first_of("?#"));
    if (path == "/api/leaderboard") return true;
    if (path.starts_with("/api/players")) return path.size() == 12 || path[12] == '/';
    return path.starts_with("/api/matches/");
}

std::variant<ApiRequest, ApiRefusal> parse_api_request(http::verb method, std::string_view target) {
    if (target.size() > ApiLimits::max_target) return bad("the request target is too long");
    const std::size_t question = target.find('?');
    const std::string_view path = target.substr(0, std::min(question, target.find('#')));
    std::string_view query_text;
    if (question != std::string_view::npos) {
        query_text = target.substr(question + 1);
        query_text = query_text.substr(0, query_text.find('#'));
    }
    if (!path.starts_with("/api/")) return not_found("not found");
    const auto parts = segments(path.substr(5));
    const std::string_view collection = parts[0];
    if (collection != "matches" && collection != "players" && collection != "leaderboard")
        return not_found("not found");
    if ((collection == "leaderboard" && parts.size() != 1) ||
        (collection != "leaderboard" && (parts.size() < 2 || parts.size() > 3)))
        return not_found("not found");
    const std::string_view sub = parts.size() == 3 ? parts[2] : std::string_view();
    if (collection == "matches" && parts.size() == 3 && sub != "replay" && sub != "view")
        return not_found("not found");
    if (collection == "players" && parts.size() == 3 && sub != "rating-history" && sub != "matches")
        return not_found("not found");
    if (method != http::verb::get && method != http::verb::head)
        return ApiRefusal{http::status::method_not_allowed, "method not allowed"};

    auto parsed = parse_query(query_text);
    if (auto* refusal = std::get_if<ApiRefusal>(&parsed)) return std::move(*refusal);
    const Query& query = std::get<Query>(parsed);

    if (collection == "leaderboard") {
        LeaderboardRequest request;
        auto pool = pool_of(query);
        if (auto* r = std::get_if<ApiRefusal>(&pool)) return std::move(*r);
        request.pool = std::get<std::string>(pool);
        auto limit = ranged(query, "limit", ApiLimits::default_leaderboard, 1, ApiLimits::max_leaderboard);
        if (auto* r = std::get_if<ApiRefusal>(&limit)) return std::move(*r);
        request.limit = std::get<int>(limit);
        auto offset = ranged(query, "offset", 0, 0, ApiLimits::max_leaderboard_offset);
        if (auto* r = std::get_if<ApiRefusal>(&offset)) return std::move(*r);
        request.offset = std::get<int>(offset);
        return request;
    }

    const std::string id(parts[1]);
    if (collection == "matches") {
        if (!valid_id(id)) return not_found("unknown match");
        // A private match's invite code (checked against the stored match by the API).
        std::string code;
        if (auto it = query.find("code"); it != query.end()) {
            if (it->second.size() > ApiLimits::max_id) return bad("code is too long");
            code = it->second;
        }
        if (sub.empty()) return MatchHeaderRequest{id, code};
        if (sub == "replay") return MatchReplayRequest{id, code};
        auto it = query.find("after");
        if (it == query.end()) return bad("after is required: the number of steps to replay");
        auto after = natural(it->second);
        if (!after || *after > ApiLimits::max_after)
            return bad("after must be a non-negative integer (a step number)");
        return MatchViewRequest{id, static_cast<std::uint32_t>(*after), code};
    }

    if (!valid_id(id)) return not_found("unknown player");
    if (sub.empty()) return PlayerRequest{id};
    if (sub == "rating-history") {
        auto pool = pool_of(query);
        if (auto* r = std::get_if<ApiRefusal>(&pool)) return std::move(*r);
        return RatingHistoryRequest{id, std::get<std::string>(pool)};
    }
    PlayerMatchesRequest request{id, ApiLimits::default_page, std::nullopt};
    auto limit = ranged(query, "limit", ApiLimits::default_page, 1, ApiLimits::max_page);
    if (auto* r = std::get_if<ApiRefusal>(&limit)) return std::move(*r);
    request.limit = std::get<int>(limit);
    if (auto it = query.find("after"); it != query.end()) {
        request.after = parse_cursor(it->second);
        if (!request.after) return bad("after is not a cursor from X-Next-Cursor");
    }
    return request;
}

std::string cursor_text(const PageCursor& cursor) {
    return std::to_string(cursor.created_at_ms) + "." + cursor.match;
}

std::optional<PageCursor> parse_cursor(std::string_view text) {
    const std::size_t dot = text.find('.');
    if (dot == std::string_view::npos) return std::nullopt;
    auto ms = natural(text.substr(0, dot), 15);
    const std::string_view match = text.substr(dot + 1);
    if (!ms || !valid_id(match)) return std::nullopt;
    return PageCursor{*ms, std::string(match)};
}

}  // namespace server
