// The ratings beside the players' names in the public lists (docs/protocol.md, "Ratings in the
// lists"), end to end against a real PostgreSQL (scripts/with-postgres): an established_rating player
// and a new one in a public lobby, then in its live match, over GET /api/lobbies and
// /api/matches and over the WebSocket list subscriptions; every message checked against the
// schemas.

#include <chrono>
#include <functional>
#include <string>
#include <thread>

#include <boost/beast/http/status.hpp>
#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using e2e::json;

namespace {

/// GET `target` until `found` picks an element out of the answer (a JSON array), or 5 s.
json poll_list(std::uint16_t port, const std::string& target, const std::function<bool(const json&)>& found) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    json last;
    while (std::chrono::steady_clock::now() < deadline) {
        const test::HttpResponse response = test::http_request(port, http::verb::get, target);
        REQUIRE(response.result() == http::status::ok);
        last = json::parse(response.body());
        for (const json& entry : last)
            if (found(entry)) return entry;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    INFO(target << " last answered " << last.dump());
    FAIL("the list never showed what was expected");
    return nullptr;
}

const json established_rating = {{"rating", 1834}, {"provisional", false}};
const json newcomer_rating = {{"rating", 1500}, {"provisional", true}};

}  // namespace

TEST_CASE("the public lists show each seated person's rating in the game's pool", "[api][e2e][ratings]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    e2e::Player a(port, traffic, "alice");
    e2e::Player b(port, traffic, "bob");
    e2e::Player w(port, traffic, "watcher");
    const e2e::Guest alice = e2e::sign_in(a, port, "Alice");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    e2e::sign_in(w, port, "Wes");
    {
        // Alice is established_rating with gods (a deviation of 60 is below the provisional 110),
        // unrated without; Bob has never played a rated game.
        pqxx::connection c = schema.connect();
        pqxx::work tx(c);
        tx.exec_params0(
            "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, last_rated_at) "
            "VALUES ($1, 'santorini_powers', 1834.4, 60, 0.06, 30, now())",
            alice.id);
        tx.commit();
    }
    w.send({{"type", "lobbies.subscribe"}, {"ref", "lobbies"}});
    w.send({{"type", "matches.subscribe"}, {"ref", "matches"}});

    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "full"},
                           {"public", true},      {"rated", true}, {"clock", {{"kind", "none"}}}};
    a.send({{"type", "lobby.create"}, {"ref", "create"}, {"settings", settings}});
    auto lobby = a.until_type("lobby");
    REQUIRE(lobby);
    const std::string lobby_id = (*lobby)["lobby"]["id"].get<std::string>();
    // Members are told their lobby without ratings (only the public list carries them).
    CHECK_FALSE((*lobby)["lobby"]["seats"][0]["player"].contains("rating"));

    // The host's rating, read once from the store, comes with the list soon after.
    json listed = poll_list(port, "/api/lobbies", [&](const json& l) {
        return l["id"] == lobby_id && l["seats"][0]["player"].contains("rating");
    });
    CHECK(listed["seats"][0]["player"]["id"] == alice.id);
    CHECK(listed["seats"][0]["player"]["rating"] == established_rating);

    // A subscriber hears of it too (in the snapshot or in a change).
    auto told = w.until([&](const json& m) {
        const std::string type = m.value("type", "");
        const json* entries = type == "lobbies" ? &m["lobbies"] : type == "lobbies.changed" ? &m["changed"] : nullptr;
        if (!entries) return false;
        for (const json& l : *entries)
            if (l["id"] == lobby_id && l["seats"][0]["player"].value("rating", json()) == established_rating) return true;
        return false;
    });
    CHECK(told);

    // A newcomer_rating reads as provisional 1500.
    b.send({{"type", "lobby.join"}, {"ref", "join"}, {"lobby", lobby_id}});
    REQUIRE(b.until_reply("join"));
    listed = poll_list(port, "/api/lobbies", [&](const json& l) {
        return l["id"] == lobby_id && l["seats"][1].is_object() && l["seats"][1]["player"].contains("rating");
    });
    CHECK(listed["seats"][1]["player"]["id"] == bob.id);
    CHECK(listed["seats"][1]["player"]["rating"] == newcomer_rating);
    CHECK(listed["seats"][0]["player"]["rating"] == established_rating);

    // The live match lists both, one per seat beside the names.
    a.send({{"type", "lobby.start"}, {"ref", "start"}, {"lobby", lobby_id}});
    auto closed = a.until_type("lobby.closed");
    REQUIRE(closed);
    const std::string match = (*closed)["match"].get<std::string>();
    const json live = poll_list(port, "/api/matches", [&](const json& m) { return m["id"] == match && m.contains("ratings"); });
    CHECK(live["players"] == json{"Alice", "Bob"});
    CHECK(live["ratings"] == json{established_rating, newcomer_rating});
    told = w.until([&](const json& m) {
        const std::string type = m.value("type", "");
        const json* entries = type == "matches" ? &m["matches"] : type == "matches.changed" ? &m["changed"] : nullptr;
        if (!entries) return false;
        for (const json& e : *entries)
            if (e["id"] == match && e.value("ratings", json()) == json{established_rating, newcomer_rating}) return true;
        return false;
    });
    CHECK(told);

    e2e::check_traffic(traffic);
}

TEST_CASE("without a database the public lists carry no ratings", "[api][e2e][ratings]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "alice");
    e2e::sign_in(a, port, "Alice");
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"},
                           {"public", true},      {"clock", {{"kind", "none"}}}};
    a.send({{"type", "lobby.create"}, {"ref", "create"}, {"settings", settings}});
    auto lobby = a.until_type("lobby");
    REQUIRE(lobby);
    const std::string lobby_id = (*lobby)["lobby"]["id"].get<std::string>();
    const json listed = poll_list(port, "/api/lobbies", [&](const json& l) { return l["id"] == lobby_id; });
    CHECK_FALSE(listed["seats"][0]["player"].contains("rating"));
    // Nor does a live match: against the computer, started at once.
    a.send({{"type", "lobby.leave"}, {"ref", "leave"}, {"lobby", lobby_id}});
    REQUIRE(a.until_reply("leave"));
    json against_bot = settings;
    against_bot["bots"] = 1;
    a.send({{"type", "lobby.create"}, {"ref", "bot"}, {"settings", against_bot}});
    lobby = a.until([](const json& m) { return m.value("type", "") == "lobby" && m["lobby"]["status"] == "full"; });
    REQUIRE(lobby);
    a.send({{"type", "lobby.start"}, {"ref", "start"}, {"lobby", (*lobby)["lobby"]["id"]}});
    auto closed = a.until_type("lobby.closed");
    REQUIRE(closed);
    const std::string match = (*closed)["match"].get<std::string>();
    const json live = poll_list(port, "/api/matches", [&](const json& m) { return m["id"] == match; });
    CHECK_FALSE(live.contains("ratings"));
    e2e::check_traffic(traffic);
}
