// The contract check itself (tests/api/openapi_contract.hpp): the server's route table against
// docs/openapi.yaml both ways, every method on every route with and without a database (405 and
// the table's Allow for the methods a route does not take), every route of a server without a
// database, and answers the docs do not list, which the check must refuse. Every answer here
// also goes through the check every API test's answers go through.

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <boost/beast/http.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/http/route_table.hpp"
#include "tests/api/bearer_request.hpp"
#include "tests/api/fetch_json.hpp"
#include "tests/api/openapi_contract.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using e2e::json;

namespace {

bool allows(std::string_view allow, http::verb method) {
    const std::string_view name = http::to_string(method);
    for (std::size_t start = 0; start < allow.size();) {
        std::size_t end = allow.find(',', start);
        if (end == std::string_view::npos) end = allow.size();
        std::string_view item = allow.substr(start, end - start);
        while (!item.empty() && item.front() == ' ') item.remove_prefix(1);
        if (item == name) return true;
        start = end + 1;
    }
    return false;
}

// The route's path with its {id} filled (an id nobody has).
std::string target_of(std::string_view path) {
    std::string out(path);
    if (const auto brace = out.find("{id}"); brace != std::string::npos)
        out.replace(brace, 4, out.starts_with("/api/players") ? "p_nobody" : "m_nobody");
    if (out.ends_with("/view")) out += "?after=0";
    if (out.ends_with("/rating-history") || out == "/api/leaderboard") out += "?pool=santorini";
    return out;
}

// Every method on every route of the table, and paths no route has.
void walk_routes(std::uint16_t port) {
    const http::verb methods[] = {http::verb::get, http::verb::head, http::verb::post,
                                  http::verb::put, http::verb::delete_, http::verb::patch};
    for (const server::HttpRoute& route : server::http_routes) {
        const std::string target = target_of(route.path);
        for (const http::verb method : methods) {
            const bool with_body = method == http::verb::post || method == http::verb::put || method == http::verb::patch;
            const test::HttpResponse response =
                api_test::bearer_request(port, method, target, "", with_body ? "{}" : "");
            INFO(http::to_string(method) << " " << target << " -> " << response.result_int() << " " << response.body());
            if (allows(route.allow, method)) {
                CHECK(response.result() != http::status::method_not_allowed);
            } else {
                CHECK(response.result() == http::status::method_not_allowed);
                CHECK(std::string(response[http::field::allow]) == std::string(route.allow));
            }
        }
    }
    for (const char* path : {"/api", "/api/", "/api/nope", "/api/matches/", "/api/matches/m_x/nope",
                             "/api/players/p_x/nope", "/api/leaderboard/x", "/api/me", "/api/me/nope",
                             "/api/sessions/nope", "/api/account/nope", "/api/accounts/nope"}) {
        const test::HttpResponse response = api_test::bearer_request(port, http::verb::get, path, "");
        INFO(path << " -> " << response.result_int() << " " << response.body());
        CHECK(response.result() == http::status::not_found);
    }
}

}  // namespace

TEST_CASE("the server's route table and docs/openapi.yaml list the same paths and methods", "[api][openapi]") {
    json table = json::array();
    for (const server::HttpRoute& route : server::http_routes)
        table.push_back({{"path", route.path}, {"allow", route.allow}});
    const auto stamp = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
    const auto input = std::filesystem::temp_directory_path() / ("route_table_" + stamp + ".json");
    const auto output = std::filesystem::temp_directory_path() / ("route_table_" + stamp + ".txt");
    std::ofstream(input) << table.dump();
    std::filesystem::path script = std::filesystem::path(__FILE__).parent_path() / "validate_openapi.py";
    if (!std::filesystem::exists(script)) script = "tests/api/validate_openapi.py";
    const std::string command =
        "python3 '" + script.string() + "' --routes '" + input.string() + "' > '" + output.string() + "' 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(output);
    const std::string report((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    std::filesystem::remove(input);
    std::filesystem::remove(output);
    INFO(report);
    CHECK(status == 0);
}

TEST_CASE("every route takes the methods of the route table and refuses the others (no database)",
          "[api][openapi]") {
    test::RunningServer running(e2e::config());
    walk_routes(running.port());
}

TEST_CASE("every route takes the methods of the route table and refuses the others (database)",
          "[api][openapi]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    walk_routes(running.port());
}

TEST_CASE("without a database every route answers as docs/openapi.yaml says", "[api][openapi]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest ann = e2e::http_guest(port, "Ann");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const e2e::Guest sue = e2e::http_guest(port, "Sue");
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "sue");
    a.hello(ann.token);
    b.hello(bob.token);
    s.hello(sue.token);

    // A public lobby waiting, and a public match with powers played into its turns.
    s.send({{"type", "lobby.create"}, {"ref", "c"}, {"settings", {{"game", "splendor"}, {"players", 3}}}});
    REQUIRE(s.until_reply("c"));
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "random"},
                           {"public", true}, {"confirm_turns", true},
                           {"clock", {{"kind", "realtime"}, {"base_seconds", 600}, {"increment_seconds", 5}}}};
    const e2e::Started started = e2e::start_lobby_match(a, {&b}, settings);
    e2e::open_match(a, started.match);
    e2e::open_match(b, started.match);
    e2e::sync({&a, &b}, started.match);

    // Lists, and the live view a server without a database answers for a match header.
    json lobbies = api_test::fetch_json(port, "/api/lobbies");
    for (int i = 0; i < 50 && lobbies.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        lobbies = api_test::fetch_json(port, "/api/lobbies");
    }
    CHECK(lobbies.size() == 1);
    json matches = api_test::fetch_json(port, "/api/matches");
    for (int i = 0; i < 50 && matches.empty(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        matches = api_test::fetch_json(port, "/api/matches");
    }
    CHECK(matches.size() == 1);
    const json view = api_test::fetch_json(port, "/api/matches/" + started.match);
    CHECK(view["match"] == started.match);
    api_test::fetch_json(port, "/api/matches/m_nobody", http::status::not_found);
    api_test::fetch_json(port, "/api/queues");
    api_test::fetch_json(port, "/api/powers");
    const json health = api_test::fetch_json(port, "/healthz");
    CHECK_FALSE(health.contains("database"));
    api_test::fetch_json(port, "/readyz");
    CHECK(test::http_request(port, http::verb::get, "/metrics").result() == http::status::ok);
    CHECK(test::http_request(port, http::verb::get, "/ws").result() == http::status::upgrade_required);

    // What needs the database answers 503.
    for (const std::string& target : std::vector<std::string>{"/api/players/" + ann.id, "/api/players/" + ann.id + "/matches",
                                     "/api/players/" + ann.id + "/rating-history?pool=santorini",
                                     "/api/leaderboard?pool=santorini",
                                     "/api/matches/" + started.match + "/replay",
                                     "/api/matches/" + started.match + "/view?after=1"})
        api_test::fetch_json(port, target, http::status::service_unavailable);
    const json credentials = {{"username", "ann_account"}, {"password", "a long enough password"}};
    CHECK(api_test::bearer_request(port, http::verb::post, "/api/accounts", ann.token, credentials.dump()).result() ==
          http::status::service_unavailable);
    CHECK(api_test::bearer_request(port, http::verb::get, "/api/account", ann.token).result() ==
          http::status::service_unavailable);
    CHECK(api_test::bearer_request(port, http::verb::post, "/api/sessions", "", credentials.dump()).result() ==
          http::status::service_unavailable);
    CHECK(api_test::bearer_request(port, http::verb::delete_, "/api/sessions/current", ann.token).result() ==
          http::status::service_unavailable);
    // Preferences are kept in memory without a database.
    CHECK(api_test::bearer_request(port, http::verb::get, "/api/me/preferences", ann.token).result() ==
          http::status::ok);
    CHECK(api_test::bearer_request(port, http::verb::head, "/api/me/preferences", ann.token).result() ==
          http::status::ok);
    CHECK(api_test::bearer_request(port, http::verb::get, "/api/me/preferences", "").result() ==
          http::status::unauthorized);
    e2e::check_traffic(traffic);
}

TEST_CASE("the contract check refuses answers docs/openapi.yaml does not list", "[api][openapi]") {
    const auto answer = [](http::status status, std::string content_type, std::string body) {
        test::HttpResponse response{status, 11};
        if (!content_type.empty()) response.set(http::field::content_type, content_type);
        response.body() = std::move(body);
        return response;
    };
    const std::string error = json{{"error", "x"}, {"code", "not_found"}}.dump();
    // A conforming answer passes ...
    CHECK(api_test::openapi_verdict(http::verb::get, "/api/lobbies", answer(http::status::ok, "application/json", "[]")) == "");
    CHECK(api_test::openapi_verdict(http::verb::get, "/api/nope", answer(http::status::not_found, "application/json", error)) == "");
    // ... and each of these is refused: a route, a method, a status, a content type, a field,
    // an Allow header the docs do not list.
    CHECK_FALSE(api_test::openapi_verdict(http::verb::get, "/api/secret", answer(http::status::ok, "application/json", "[]")).empty());
    CHECK_FALSE(api_test::openapi_verdict(http::verb::post, "/api/lobbies", answer(http::status::ok, "application/json", "[]")).empty());
    CHECK_FALSE(api_test::openapi_verdict(http::verb::get, "/api/lobbies", answer(http::status::accepted, "application/json", "[]")).empty());
    CHECK_FALSE(api_test::openapi_verdict(http::verb::get, "/api/lobbies", answer(http::status::ok, "text/html", "[]")).empty());
    CHECK_FALSE(api_test::openapi_verdict(
                    http::verb::post, "/api/guests",
                    answer(http::status::created, "application/json",
                           json{{"id", "p_1"}, {"name", "Ann"}, {"token", std::string(32, 'a')}, {"admin", true}}.dump()))
                    .empty());
    test::HttpResponse wrong_allow = answer(http::status::method_not_allowed, "application/json",
                                            json{{"error", "x"}, {"code", "method_not_allowed"}}.dump());
    wrong_allow.set(http::field::allow, "GET");
    CHECK_FALSE(api_test::openapi_verdict(http::verb::post, "/api/lobbies", wrong_allow).empty());
    CHECK_FALSE(api_test::openapi_verdict(http::verb::delete_, "/api/sessions/current",
                                          answer(http::status::no_content, "application/json", "{}")).empty());
}

TEST_CASE("the contract check refuses accepted requests docs/openapi.yaml does not allow", "[api][openapi]") {
    test::HttpResponse created{http::status::created, 11};
    created.set(http::field::content_type, "application/json");
    created.body() = json{{"id", "p_1"}, {"name", "Ann"}, {"token", std::string(32, 'a')}}.dump();
    const std::string good = json{{"name", "Ann"}}.dump();
    // A documented body the server took passes ...
    CHECK(api_test::openapi_verdict(http::verb::post, "/api/guests", created, good) == "");
    // ... and each of these, taken by the server (a 2xx), is refused: a body without a required
    // field, a value of the wrong type, a body that is not JSON, a body on a route that documents
    // none.
    CHECK_FALSE(api_test::openapi_verdict(http::verb::post, "/api/guests", created, "{}").empty());
    CHECK_FALSE(api_test::openapi_verdict(http::verb::post, "/api/guests", created, json{{"name", 7}}.dump()).empty());
    CHECK_FALSE(api_test::openapi_verdict(http::verb::post, "/api/guests", created, "name=Ann").empty());
    test::HttpResponse no_content{http::status::no_content, 11};
    CHECK_FALSE(api_test::openapi_verdict(http::verb::delete_, "/api/sessions/current", no_content, good).empty());
    // A refused request is the tests' own malformed body: its answer is checked, not its body.
    test::HttpResponse refused{http::status::bad_request, 11};
    refused.set(http::field::content_type, "application/json");
    refused.body() = json{{"error", "x"}, {"code", "bad_request"}}.dump();
    CHECK(api_test::openapi_verdict(http::verb::post, "/api/guests", refused, "name=Ann") == "");
}
