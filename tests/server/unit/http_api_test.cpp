// answer_api (server/http/api.hpp) without a reachable database: every stored-data request is
// 503 unavailable with a code and Retry-After, never a crash or a hang; HEAD keeps the headers.
// (Answers from a real PostgreSQL: tests/api/api_e2e_test.cpp.)

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/http/api.hpp"
#include "server/store/repository.hpp"

namespace http = boost::beast::http;
using namespace server;

TEST_CASE("a database that cannot be reached makes every API answer 503 unavailable", "[http_api]") {
    // Nothing listens on port 1: the connection is refused at once.
    store::Repository repository("postgresql://postgres@127.0.0.1:1/nothing?connect_timeout=2", 1);
    const ApiRequestInfo info{11, true, false};
    const std::vector<ApiRequest> requests = {
        MatchHeaderRequest{"m_x"},
        MatchReplayRequest{"m_x"},
        MatchViewRequest{"m_x", 3},
        PlayerRequest{"p_x"},
        RatingHistoryRequest{"p_x", "santorini"},
        PlayerMatchesRequest{"p_x", 20, PageCursor{5, "m_y"}},
        LeaderboardRequest{"santorini", 10, 0},
    };
    for (const ApiRequest& request : requests) {
        const auto response = answer_api(request, info, repository, 1732380000000);
        INFO(response.body());
        CHECK(response.result() == http::status::service_unavailable);
        CHECK(response[http::field::content_type] == "application/json");
        CHECK(response[http::field::cache_control] == "no-store");
        CHECK(response[http::field::retry_after] == "5");
        CHECK(response.keep_alive());
        const auto body = nlohmann::json::parse(response.body());
        CHECK(body["code"] == "unavailable");
        CHECK(body["error"].is_string());
    }
}

TEST_CASE("API errors keep HEAD bodiless and say which methods are allowed", "[http_api]") {
    const auto head = api_error(ApiRequestInfo{11, false, true}, http::status::method_not_allowed, "no");
    CHECK(head.body().empty());
    CHECK(head[http::field::content_length] != "0");
    CHECK(head[http::field::allow] == "GET, HEAD");
    CHECK_FALSE(head.keep_alive());
    const auto get = api_error(ApiRequestInfo{10, true, false}, http::status::not_found, "unknown match");
    CHECK(get.version() == 10);
    CHECK(nlohmann::json::parse(get.body()) == nlohmann::json{{"error", "unknown match"}, {"code", "not_found"}});
}
