// The stored-data API's request parsing (server/http/api_params.hpp): every route, its parameters,
// their bounds, and what is 400, 404 or 405.

#include <catch2/catch_test_macros.hpp>

#include "server/http/api_params.hpp"

namespace http = boost::beast::http;
using namespace server;

namespace {

ApiRequest ok(std::string_view target, http::verb method = http::verb::get) {
    auto parsed = parse_api_request(method, target);
    if (auto* refusal = std::get_if<ApiRefusal>(&parsed))
        FAIL(target << " refused: " << static_cast<int>(refusal->status) << " " << refusal->message);
    return std::get<ApiRequest>(std::move(parsed));
}

http::status refused(std::string_view target, http::verb method = http::verb::get) {
    auto parsed = parse_api_request(method, target);
    if (std::holds_alternative<ApiRequest>(parsed)) FAIL(target << " was accepted");
    CHECK_FALSE(std::get<ApiRefusal>(parsed).message.empty());
    return std::get<ApiRefusal>(parsed).status;
}

}  // namespace

TEST_CASE("the API's paths are told apart from the other routes", "[api_params]") {
    for (const char* ours : {"/api/matches/m_x", "/api/matches/m_x/replay", "/api/matches/m_x/view?after=1",
                             "/api/players/p_x", "/api/players", "/api/players/p_x/matches?limit=2",
                             "/api/leaderboard?pool=santorini", "/api/matches/"})
        CHECK(is_api_target(ours));
    for (const char* theirs : {"/api/matches", "/api/matches?x=1", "/api/lobbies", "/api/guests", "/api/queues",
                               "/api/playersx", "/api/leaderboards", "/", "/healthz", "/index.html"})
        CHECK_FALSE(is_api_target(theirs));
}

TEST_CASE("match routes: header, replay and the view after N steps", "[api_params]") {
    CHECK(std::get<MatchHeaderRequest>(ok("/api/matches/m_abc")).match == "m_abc");
    CHECK(std::get<MatchHeaderRequest>(ok("/api/matches/m_abc", http::verb::head)).match == "m_abc");
    CHECK(std::get<MatchReplayRequest>(ok("/api/matches/m_abc/replay?x=y")).match == "m_abc");
    const auto view = std::get<MatchViewRequest>(ok("/api/matches/m_abc/view?after=12"));
    CHECK(view.match == "m_abc");
    CHECK(view.after == 12);
    CHECK(std::get<MatchViewRequest>(ok("/api/matches/m_abc/view?after=0")).after == 0);

    for (const char* bad : {"/api/matches/m_abc/view", "/api/matches/m_abc/view?after=", "/api/matches/m_abc/view?after=-1",
                            "/api/matches/m_abc/view?after=1.5", "/api/matches/m_abc/view?after=abc",
                            "/api/matches/m_abc/view?after=+1", "/api/matches/m_abc/view?after=9999999999",
                            "/api/matches/m_abc/view?after=1&after=2", "/api/matches/m_abc/view?after=%zz"})
        CHECK(refused(bad) == http::status::bad_request);
    for (const char* missing : {"/api/matches/", "/api/matches/m_abc/", "/api/matches/m_abc/moves",
                                "/api/matches/m_abc/replay/x", "/api/matches/m.abc", "/api/matches/m%20abc"})
        CHECK(refused(missing) == http::status::not_found);
    CHECK(refused("/api/matches/m_" + std::string(100, 'a')) == http::status::not_found);
    CHECK(refused("/api/matches/m_abc", http::verb::post) == http::status::method_not_allowed);
    CHECK(refused("/api/matches/m_abc/replay", http::verb::delete_) == http::status::method_not_allowed);
}

TEST_CASE("player routes: page, rating history, matches with limit and cursor", "[api_params]") {
    CHECK(std::get<PlayerRequest>(ok("/api/players/p_1")).player == "p_1");
    const auto history = std::get<RatingHistoryRequest>(ok("/api/players/p_1/rating-history?pool=santorini_powers"));
    CHECK(history.pool == "santorini_powers");
    CHECK(refused("/api/players/p_1/rating-history") == http::status::bad_request);
    CHECK(refused("/api/players/p_1/rating-history?pool=chess") == http::status::bad_request);

    const auto first = std::get<PlayerMatchesRequest>(ok("/api/players/p_1/matches"));
    CHECK(first.limit == ApiLimits::default_page);
    CHECK_FALSE(first.after);
    const auto next = std::get<PlayerMatchesRequest>(ok("/api/players/p_1/matches?limit=100&after=1732380000123.m_z9"));
    CHECK(next.limit == 100);
    REQUIRE(next.after);
    CHECK(next.after->created_at_ms == 1732380000123);
    CHECK(next.after->match == "m_z9");
    for (const char* bad : {"/api/players/p_1/matches?limit=0", "/api/players/p_1/matches?limit=101",
                            "/api/players/p_1/matches?limit=x", "/api/players/p_1/matches?after=",
                            "/api/players/p_1/matches?after=abc", "/api/players/p_1/matches?after=12.",
                            "/api/players/p_1/matches?after=.m_1", "/api/players/p_1/matches?after=-5.m_1"})
        CHECK(refused(bad) == http::status::bad_request);
    CHECK(refused("/api/players") == http::status::not_found);
    CHECK(refused("/api/players/") == http::status::not_found);
    CHECK(refused("/api/players/p_1/friends") == http::status::not_found);
}

TEST_CASE("the leaderboard takes a pool, a limit and an offset, all bounded", "[api_params]") {
    const auto board = std::get<LeaderboardRequest>(ok("/api/leaderboard?pool=santorini&limit=5&offset=10"));
    CHECK(board.pool == "santorini");
    CHECK(board.limit == 5);
    CHECK(board.offset == 10);
    const auto defaults = std::get<LeaderboardRequest>(ok("/api/leaderboard?pool=santorini_powers"));
    CHECK(defaults.limit == ApiLimits::default_leaderboard);
    CHECK(defaults.offset == 0);
    for (const char* bad : {"/api/leaderboard", "/api/leaderboard?pool=", "/api/leaderboard?pool=x",
                            "/api/leaderboard?pool=santorini&limit=0", "/api/leaderboard?pool=santorini&limit=101",
                            "/api/leaderboard?pool=santorini&offset=-1", "/api/leaderboard?pool=santorini&offset=10001"})
        CHECK(refused(bad) == http::status::bad_request);
    CHECK(refused("/api/leaderboard/x") == http::status::not_found);
}

TEST_CASE("long targets and query strings are refused", "[api_params]") {
    CHECK(refused("/api/leaderboard?pool=santorini&x=" + std::string(ApiLimits::max_query, 'a')) ==
          http::status::bad_request);
    CHECK(refused("/api/matches/m_1?" + std::string(ApiLimits::max_target, 'a')) == http::status::bad_request);
}

TEST_CASE("cursors round-trip through their text", "[api_params]") {
    const PageCursor cursor{1732380000123, "m_abc"};
    const auto back = parse_cursor(cursor_text(cursor));
    REQUIRE(back);
    CHECK(back->created_at_ms == cursor.created_at_ms);
    CHECK(back->match == cursor.match);
}
