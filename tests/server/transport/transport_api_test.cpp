// The stored-data HTTP API on a server without a database, over real sockets: 503 unavailable
// for what needs the database, the live match header from memory, and 400/404/405 answered
// before any database would be asked. (With PostgreSQL: tests/api/api_e2e_test.cpp.)

#include <string>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

namespace http = boost::beast::http;
using nlohmann::json;

namespace {

void check_error(const test::HttpResponse& response, http::status status, const std::string& code) {
    INFO(response.body());
    CHECK(response.result() == status);
    CHECK(response[http::field::content_type] == "application/json");
    const json body = json::parse(response.body(), nullptr, false);
    REQUIRE(body.is_object());
    CHECK(body["code"] == code);
    CHECK(body["error"].is_string());
}

}  // namespace

TEST_CASE("without a database the stored-data API is unavailable, and says so", "[transport][api]") {
    test::RunningServer running;
    const auto port = running.port();
    for (const char* target : {"/api/matches/m_abc/replay", "/api/matches/m_abc/view?after=0", "/api/players/p_abc",
                               "/api/players/p_abc/rating-history?pool=santorini", "/api/players/p_abc/matches",
                               "/api/leaderboard?pool=santorini"}) {
        INFO(target);
        const auto response = test::http_request(port, http::verb::get, target);
        check_error(response, http::status::service_unavailable, "unavailable");
        CHECK(response[http::field::cache_control] == "no-store");
    }
    // A match header still comes from memory (the live spectator view): unknown here.
    check_error(test::http_request(port, http::verb::get, "/api/matches/m_abc"), http::status::not_found, "not_found");
    // Bad requests are told so before anything would ask a database.
    check_error(test::http_request(port, http::verb::get, "/api/leaderboard?pool=chess"), http::status::bad_request,
                "bad_request");
    check_error(test::http_request(port, http::verb::get, "/api/matches/m_abc/view?after=x"),
                http::status::bad_request, "bad_request");
    check_error(test::http_request(port, http::verb::get, "/api/players/p_abc/nothing"), http::status::not_found,
                "not_found");
    const auto post = test::http_request(port, http::verb::post, "/api/players/p_abc");
    check_error(post, http::status::method_not_allowed, "method_not_allowed");
    CHECK(post[http::field::allow] == "GET, HEAD");
    // The other routes are as they were, now with codes on their errors.
    check_error(test::http_request(port, http::verb::get, "/api/nothing"), http::status::not_found, "not_found");
    CHECK(test::http_request(port, http::verb::get, "/healthz").result() == http::status::ok);
}
