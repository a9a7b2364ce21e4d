// Preferences end to end (docs/api.md, "Preferences"): a real server on a loopback port, over
// real HTTP, against a real PostgreSQL (and once without a database): the round trip, the
// token required, the closed validation (nothing changes on a refusal), each player's own
// preferences only, an account's preferences on its second device, and a restart; and the
// bound on the players remembered in memory.

#include <optional>
#include <string>
#include <variant>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/accounts/preference_book.hpp"
#include "tests/api/bearer_request.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

// Everything of this file in a namespace of its own: api_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace api_preferences_test {

namespace http = boost::beast::http;
using e2e::json;

namespace {

const std::string route = "/api/me/preferences";

struct Call {
    test::HttpResponse response;
    json body;
};

// One request with an optional bearer token and a body sent as it is.
Call call(std::uint16_t port, http::verb method, const std::string& token = {},
          const std::string& body = {}, const std::string& target = route) {
    Call out{api_test::bearer_request(port, method, target, token, body), nullptr};
    out.body = json::parse(out.response.body(), nullptr, false);
    return out;
}

json get(std::uint16_t port, const std::string& token) {
    const Call got = call(port, http::verb::get, token);
    INFO(got.response.body());
    REQUIRE(got.response.result() == http::status::ok);
    CHECK(got.response[http::field::cache_control] == "no-store");
    return got.body;
}

Call put(std::uint16_t port, const std::string& token, const json& body) {
    return call(port, http::verb::put, token, body.dump());
}

void check_refused(const Call& c, http::status status, const std::string& code) {
    INFO(c.response.result_int() << " " << c.response.body());
    CHECK(c.response.result() == status);
    CHECK(c.body.value("code", "") == code);
    CHECK(c.body["error"].is_string());
}

const json defaults = {{"language", nullptr}, {"chat_off", false}, {"muted", json::array()}};

// A valid muted list of `n` distinct ids.
json muted_ids(int n) {
    json ids = json::array();
    for (int i = 0; i < n; ++i) ids.push_back("p_" + std::to_string(100000 + i));
    return ids;
}

// What every server holds, with or without a database: the round trip and the refusals.
void round_trip_and_refusals(std::uint16_t port) {
    const e2e::Guest ann = e2e::http_guest(port, "Ann");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");

    // A player who never chose anything has the defaults.
    CHECK(get(port, ann.token) == defaults);

    // The whole object in, the same object back; duplicates kept once.
    const json chosen = {{"language", "it"}, {"chat_off", true}, {"muted", {bob.id, "c_3", bob.id}}};
    const Call saved = put(port, ann.token, chosen);
    INFO(saved.response.body());
    REQUIRE(saved.response.result() == http::status::ok);
    const json kept = {{"language", "it"}, {"chat_off", true}, {"muted", {bob.id, "c_3"}}};
    CHECK(saved.body == kept);
    CHECK(get(port, ann.token) == kept);

    // A token is required, and it must be someone's.
    check_refused(call(port, http::verb::get), http::status::unauthorized, "unauthorized");
    check_refused(call(port, http::verb::get, "not-a-token"), http::status::unauthorized,
                  "unauthorized");
    check_refused(put(port, "", defaults), http::status::unauthorized, "unauthorized");
    check_refused(put(port, "not-a-token", defaults), http::status::unauthorized, "unauthorized");
    CHECK(call(port, http::verb::get).response[http::field::www_authenticate] == "Bearer");
    check_refused(call(port, http::verb::post, ann.token, defaults.dump()),
                  http::status::method_not_allowed, "method_not_allowed");
    CHECK(call(port, http::verb::delete_, ann.token).response[http::field::allow] == "GET, HEAD, PUT");

    // The validation is closed; every refusal leaves the preferences as they were.
    json too_many = defaults;
    too_many["muted"] = muted_ids(201);
    for (const json& bad :
         {json("not an object"), json::array(), json{{"chat_off", false}, {"muted", json::array()}},
          json{{"language", "fr"}, {"chat_off", false}, {"muted", json::array()}},
          json{{"language", 7}, {"chat_off", false}, {"muted", json::array()}},
          json{{"language", nullptr}, {"chat_off", "yes"}, {"muted", json::array()}},
          json{{"language", nullptr}, {"chat_off", false}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", "p_x"}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", {"x_123"}}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", {"p_a,b"}}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", {"p_"}}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", {"p_" + std::string(63, 'a')}}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", {42}}},
          json{{"language", nullptr}, {"chat_off", false}, {"muted", json::array()}, {"theme", "dark"}},
          too_many})
        check_refused(put(port, ann.token, bad), http::status::bad_request, "bad_request");
    check_refused(call(port, http::verb::put, ann.token, "{\"language\":"), http::status::bad_request,
                  "bad_request");
    // Over 16 KiB (but under the server's 64 KiB for any body): refused before it is parsed.
    check_refused(call(port, http::verb::put, ann.token, std::string(20 * 1024, ' ')),
                  http::status::payload_too_large, "payload_too_large");
    CHECK(get(port, ann.token) == kept);

    // 200 muted players is the most.
    json most = defaults;
    most["muted"] = muted_ids(200);
    REQUIRE(put(port, bob.token, most).response.result() == http::status::ok);
    CHECK(get(port, bob.token)["muted"].size() == 200);

    // A player has only its own: Bob's writes never reach Ann's.
    REQUIRE(put(port, bob.token, defaults).response.result() == http::status::ok);
    CHECK(get(port, bob.token) == defaults);
    CHECK(get(port, ann.token) == kept);
}

server::Config database_config(const store_test::TestSchema& schema) {
    server::Config config = e2e::config();
    config.database_url = schema.url();
    return config;
}

}  // namespace

TEST_CASE("preferences: round trip, token, closed validation, own only (database)",
          "[api][preferences]") {
    store_test::TestSchema schema;
    test::RunningServer running(database_config(schema));
    round_trip_and_refusals(running.port());
    // Stored: two players' rows, Ann's as she left them.
    CHECK(schema.scalar("SELECT count(*) FROM preferences") == "2");
    CHECK(schema.scalar("SELECT language || ' ' || chat_off || ' ' || cardinality(muted) FROM "
                        "preferences JOIN players p ON p.id = player_id WHERE p.display_name = "
                        "'Ann'") == "it true 2");
}

TEST_CASE("preferences: round trip, token, closed validation, own only (no database)",
          "[api][preferences]") {
    test::RunningServer running(e2e::config());
    round_trip_and_refusals(running.port());
}

TEST_CASE("preferences: an account's follow it to another device and survive a restart",
          "[api][preferences]") {
    store_test::TestSchema schema;
    const json chosen = {{"language", "it"}, {"chat_off", false}, {"muted", {"p_someone"}}};
    const json account = {{"username", "Ann_prefs"}, {"password", "correct horse battery"}};
    std::string laptop;
    {
        test::RunningServer running(database_config(schema));
        const std::uint16_t port = running.port();
        const e2e::Guest ann = e2e::http_guest(port, "Ann");
        REQUIRE(call(port, http::verb::post, ann.token, account.dump(), "/api/accounts")
                    .response.result() == http::status::created);
        REQUIRE(put(port, ann.token, chosen).response.result() == http::status::ok);
        // A second device signs in to the account: the preferences are there.
        const Call signed_in = call(port, http::verb::post, {}, account.dump(), "/api/sessions");
        REQUIRE(signed_in.response.result() == http::status::created);
        laptop = signed_in.body["token"].get<std::string>();
        CHECK(get(port, laptop) == chosen);
    }
    // The same database, a new server process: the token is looked up again, the preferences
    // read from the table.
    test::RunningServer again(database_config(schema));
    CHECK(get(again.port(), laptop) == chosen);
}

TEST_CASE("preferences: without a database at most memory_players are remembered, the least "
          "recently written forgotten first",
          "[api][preferences]") {
    test::RunningServer running(e2e::config());
    server::Hub& hub = running.server().hub();
    server::PreferenceBook::Limits limits;
    limits.memory_players = 2;
    server::PreferenceBook book("", hub, limits);
    // Without a database the reply comes inline.
    auto put = [&](const std::string& token, bool chat_off) {
        std::optional<server::PreferenceResult> out;
        book.put(token, server::Preferences{std::nullopt, chat_off, {}},
                 [&](server::PreferenceResult r) { out = std::move(r); });
        REQUIRE(out);
        REQUIRE(std::holds_alternative<server::Preferences>(*out));
    };
    auto chat_off = [&](const std::string& token) {
        std::optional<server::PreferenceResult> out;
        book.get(token, [&](server::PreferenceResult r) { out = std::move(r); });
        REQUIRE(out);
        REQUIRE(std::holds_alternative<server::Preferences>(*out));
        return std::get<server::Preferences>(*out).chat_off;
    };
    const std::string ann = running.guest_token("Ann"), bob = running.guest_token("Bob"),
                      cy = running.guest_token("Cy");
    put(ann, true);
    put(bob, true);
    put(ann, true);  // written again: Bob's are now the oldest
    put(cy, true);
    CHECK(chat_off(ann));
    CHECK_FALSE(chat_off(bob));  // forgotten: the defaults
    CHECK(chat_off(cy));
}

}  // namespace api_preferences_test
