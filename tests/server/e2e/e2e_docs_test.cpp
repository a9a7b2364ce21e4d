// The docs are the contract: what docs/protocol.md's worked session and its tables promise, a
// real server on a loopback port does (versions, `connected`, the lobby event, aborted
// results, squares in lower case, no clock in the draft, the guest limit, security headers,
// the metrics address).

#include <cctype>
#include <chrono>
#include <functional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "tests/server/support/e2e_support.hpp"

using e2e::json;
namespace http = boost::beast::http;

namespace {

// True once `holds()` is true, reading `who`'s messages for up to 5 s meanwhile (it may hold
// already: what it waits for may have come with an earlier reply).
bool soon(e2e::Player& who, const std::function<bool()>& holds) {
    return holds() || who.until([&](const json&) { return holds(); }).has_value();
}

// Opens `match` for `who` and returns the snapshot it got.
json snapshot_of(e2e::Player& who, const std::string& match, const std::string& ref) {
    who.send({{"type", "match.open"}, {"ref", ref}, {"match", match}});
    auto snapshot = who.until_type("match.snapshot");
    REQUIRE(snapshot);
    REQUIRE(who.until_reply(ref));
    return *snapshot;
}

}  // namespace

TEST_CASE("docs: the worked session's versions, connected and lobby event are what the server sends", "[e2e][docs]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    const e2e::Guest ann = e2e::sign_in(a, port, "Ann");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");

    // 2. The lobby event: complete settings, as in the session.
    a.send({{"type", "lobby.create"},
            {"ref", 1},
            {"settings", {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "full"}, {"public", false}}}});
    auto lobby = a.until_type("lobby");
    REQUIRE(lobby);
    const json shown = (*lobby)["lobby"]["settings"];
    INFO(shown.dump());
    for (const char* field : {"game", "players", "powers", "draft", "golden_fleece", "clock", "public"})
        CHECK(shown.contains(field));
    CHECK(shown["clock"] == json{{"kind", "none"}});
    const std::string code = (*lobby)["lobby"]["code"];
    REQUIRE(code.size() == 8);

    // 3. Bob joins with the code in lower case; Ann starts.
    std::string lower = code;
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    b.send({{"type", "lobby.join"}, {"code", lower}, {"ref", "j"}});
    auto joined = b.until_reply("j");
    REQUIRE(joined);
    REQUIRE((*joined)["type"] == "ack");
    REQUIRE(a.until([](const json& m) { return m.value("type", "") == "lobby" && m["lobby"]["status"] == "full"; }));
    a.send({{"type", "lobby.start"}, {"lobby", (*lobby)["lobby"]["id"]}, {"ref", 2}});
    auto closed = a.until_type("lobby.closed");
    REQUIRE(closed);
    const std::string match = (*closed)["match"];

    // 4. Ann opens first: version 2, Bob not connected; Bob then: version 3, Ann is patched.
    const json first = snapshot_of(a, match, "open-a");
    CHECK(first["version"] == 2);
    CHECK(first["view"]["seats"][0]["connected"] == true);
    CHECK(first["view"]["seats"][1]["connected"] == false);  // online, but has not opened it
    CHECK(first["view"]["status"] == "draft");
    // Away since the match was made: the abandonment rule's instants (docs/protocol.md,
    // "Abandonment"); the default abandonment time is 300 s, the claim time a fifth of it.
    CHECK(first["view"]["seats"][0]["away"].is_null());
    const json away = first["view"]["seats"][1]["away"];
    INFO(away.dump());
    REQUIRE(away.is_object());
    CHECK(away["deadline_ms"].get<std::int64_t>() - away["since_ms"].get<std::int64_t>() == 300000);
    CHECK(away["claim_ms"].get<std::int64_t>() - away["since_ms"].get<std::int64_t>() == 60000);
    CHECK(away["claim"] == "abort");
    const json second = snapshot_of(b, match, "open-b");
    CHECK(second["version"] == 3);
    CHECK(second["view"]["seats"][0]["connected"] == true);
    CHECK(second["view"]["seats"][1]["connected"] == true);
    CHECK(second["view"]["seats"][1]["away"].is_null());
    auto patch = a.until_type("match.patch");
    REQUIRE(patch);
    CHECK((*patch)["version"] == 3);
    CHECK((*patch)["patch"] == json::parse(R"([{"op":"replace","path":"/seats/1/connected","value":true},)"
                                           R"({"op":"replace","path":"/seats/1/away","value":null}])"));

    // 5. The first offer is version 4.
    e2e::Player* challenger = first["view"]["state"]["draft"]["challenger"] == 0 ? &a : &b;
    const json offer = challenger->match(match).view["state"]["legal"][0];
    REQUIRE(offer["kind"] == "offer");
    challenger->send({{"type", "match.step"}, {"match", match}, {"ref", 3}, {"step", offer}});
    REQUIRE(challenger->until_reply(3));
    REQUIRE(a.until_version(match, 4));
    CHECK(a.version_of(match) == 4);

    // Closing the match makes the seat "not connected", though the connection stays.
    b.send({{"type", "match.close"}, {"match", match}, {"ref", "close"}});
    REQUIRE(b.until_reply("close"));
    REQUIRE(soon(a, [&] { return a.match(match).view["seats"][1]["connected"] == false; }));
    CHECK(a.match(match).view["seats"][1]["away"]["claim"] == "abort");
    e2e::check_traffic(traffic);
}

TEST_CASE("docs: an aborted match has result null; a resignation before play gives reason aborted", "[e2e][docs]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    const e2e::Guest ann = e2e::sign_in(a, port, "Ann");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"},
                           {"clock", {{"kind", "realtime"}, {"base_seconds", 300}, {"increment_seconds", 5}}}};

    // No clock runs in the draft (the challenger naming the start player).
    const std::string aborted = e2e::start_private_match(a, b, settings).match;
    e2e::open_match(a, aborted);
    const json view = a.match(aborted).view;
    CHECK(view["status"] == "draft");
    CHECK(view["clock"]["running"].is_null());
    a.send({{"type", "match.abort"}, {"match", aborted}, {"ref", "abort"}});
    REQUIRE(a.until_reply("abort"));
    REQUIRE(soon(a, [&] { return a.match(aborted).view["status"] == "aborted"; }));
    CHECK(a.match(aborted).view["result"].is_null());

    const std::string resigned = e2e::start_private_match(a, b, settings).match;
    e2e::open_match(a, resigned);
    a.send({{"type", "match.resign"}, {"match", resigned}, {"ref", "resign"}});
    REQUIRE(a.until_reply("resign"));
    REQUIRE(soon(a, [&] { return a.match(resigned).view["status"] == "aborted"; }));
    CHECK(a.match(resigned).view["result"] == json::parse(R"({"winners":[],"reason":"aborted"})"));
    e2e::check_traffic(traffic);
}

TEST_CASE("docs: squares may be sent in lower case", "[e2e][docs]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    const e2e::Guest ann = e2e::sign_in(a, port, "Ann");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    const std::string match =
        e2e::start_private_match(a, b, {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"clock", {{"kind", "none"}}}})
            .match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::sync({&a, &b}, match);
    std::vector<e2e::Player*> by_seat(2, nullptr);
    by_seat[a.match(match).view["you"].get<std::size_t>()] = &a;
    by_seat[b.match(match).view["you"].get<std::size_t>()] = &b;
    int number = 0;
    while (a.match(match).view["state"]["phase"] != "place") {
        REQUIRE(number < 5);
        e2e::play_first_legal(by_seat, {&a, &b}, match, ++number);
    }
    e2e::Player* placer = by_seat[static_cast<std::size_t>(e2e::decider(a.match(match).view))];
    json step = placer->match(match).view["state"]["legal"][0];
    std::string square = step["to"];
    square[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(square[0])));
    step["to"] = square;
    placer->send({{"type", "match.step"}, {"match", match}, {"ref", "lower"}, {"step", step}});
    auto reply = placer->until_reply("lower");
    REQUIRE(reply);
    INFO(reply->dump());
    CHECK((*reply)["type"] == "ack");
    e2e::check_traffic(traffic);  // the schema takes the lower-case square too
}

TEST_CASE("docs: the guest creation limit is 20 at once from one address, then 429", "[e2e][docs]") {
    server::Config config = e2e::config();
    config.guest_burst = 20;
    config.guests_per_minute = 10;
    test::RunningServer running(config);
    int created = 0;
    test::HttpResponse last;
    for (int i = 0; i < 21; ++i) {
        last = test::http_request(running.port(), http::verb::post, "/api/guests", json{{"name", "G" + std::to_string(i)}}.dump());
        if (last.result() == http::status::created) ++created;
    }
    CHECK(created == 20);
    CHECK(last.result() == http::status::too_many_requests);
    CHECK(last[http::field::retry_after] == "60");
    CHECK(json::parse(last.body())["code"] == "rate_limited");
}

TEST_CASE("docs: security headers on the client and the API; /metrics on its own address", "[e2e][docs]") {
    server::Config config = e2e::config();
    config.metrics_address = "127.0.0.1:0";
    test::RunningServer running(config);
    // Every route, answered or refused (the account routes without a database too).
    const std::vector<std::pair<http::verb, std::string>> requests = {
        {http::verb::get, "/"},
        {http::verb::get, "/js/app.js"},
        {http::verb::get, "/nothing-here"},
        {http::verb::get, "/api/matches"},
        {http::verb::get, "/api/lobbies"},
        {http::verb::get, "/api/queues"},
        {http::verb::get, "/api/powers"},
        {http::verb::get, "/api/leaderboard?pool=santorini"},
        {http::verb::get, "/api/players/p_nobody"},
        {http::verb::get, "/api/matches/m_nothing"},
        {http::verb::get, "/api/matches/m_nothing/replay"},
        {http::verb::get, "/api/nothing"},
        {http::verb::delete_, "/api/matches"},
        {http::verb::post, "/api/guests"},
        {http::verb::post, "/api/accounts"},
        {http::verb::post, "/api/sessions"},
        {http::verb::get, "/api/account"},
        {http::verb::delete_, "/api/sessions/current"},
        {http::verb::post, "/api/accounts/password"},
        {http::verb::get, "/healthz"},
        {http::verb::get, "/readyz"},
    };
    for (const auto& [verb, target] : requests) {
        const test::HttpResponse r = test::http_request(running.port(), verb, target);
        INFO(http::to_string(verb) << " " << target << " -> " << r.result_int());
        CHECK(std::string(r["Content-Security-Policy"]).find("frame-ancestors 'none'") != std::string::npos);
        CHECK(r["X-Frame-Options"] == "DENY");
        CHECK(r["X-Content-Type-Options"] == "nosniff");
        CHECK(r["Referrer-Policy"] == "no-referrer");
    }
    CHECK(test::http_request(running.port(), http::verb::get, "/metrics").result() == http::status::not_found);
    const std::uint16_t metrics_port = running.server().metrics_port();
    REQUIRE(metrics_port != 0);
    REQUIRE(metrics_port != running.port());
    const test::HttpResponse metrics = test::http_request(metrics_port, http::verb::get, "/metrics");
    CHECK(metrics.result() == http::status::ok);
    CHECK(metrics.body().find("santorini_") != std::string::npos);
    CHECK(test::http_request(metrics_port, http::verb::get, "/api/matches").result() == http::status::not_found);
    CHECK(test::http_request(metrics_port, http::verb::get, "/").result() == http::status::not_found);
}
