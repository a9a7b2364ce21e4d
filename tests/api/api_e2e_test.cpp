// The stored-data HTTP API end to end (docs/api.md): a real server on a loopback port against a
// real PostgreSQL (SANTORINI_TEST_DATABASE_URL; scripts/with-postgres), games played over the
// WebSocket, then every endpoint fetched over real HTTP: match headers, replays, the view after
// every step against what the spectators were sent live, ratings before and after, player
// pages, rating histories, NDJSON pages of a player's matches, leaderboards, and the errors.

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>

#include "protocol/json/basic_json.hpp"
#include "server/store/token_hash.hpp"
#include "tests/api/invite_code.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/server/support/http_observer.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using e2e::json;

namespace {

struct Fetched {
    test::HttpResponse response;
    json body;
};

Fetched get(std::uint16_t port, const std::string& target) {
    Fetched f{test::http_request(port, http::verb::get, api_test::with_invite_code(target)), nullptr};
    f.body = json::parse(f.response.body(), nullptr, false);
    return f;
}

json get_ok(std::uint16_t port, const std::string& target) {
    Fetched f = get(port, target);
    INFO(target << " -> " << f.response.result_int() << " " << f.response.body());
    REQUIRE(f.response.result() == http::status::ok);
    REQUIRE(f.response[http::field::content_type] == "application/json");
    REQUIRE_FALSE(f.body.is_discarded());
    return f.body;
}

void check_error(std::uint16_t port, const std::string& target, http::status status, const std::string& code) {
    Fetched f = get(port, target);
    INFO(target << " -> " << f.response.result_int() << " " << f.response.body());
    CHECK(f.response.result() == status);
    CHECK(f.response[http::field::content_type] == "application/json");
    REQUIRE(f.body.is_object());
    CHECK(f.body["code"] == code);
    CHECK(f.body["error"].is_string());
}

/// A played match: its id, the steps sent, who sent them, and the spectators' view after each
/// step (views[0] is the view before the first step).
struct Played {
    std::string id;
    std::vector<json> steps;
    std::vector<int> seats;
    std::vector<json> views;
};

const json powers_settings = {{"game", "santorini"}, {"players", 2},        {"powers", "simple"},
                              {"draft", "full"},     {"clock", {{"kind", "none"}}}};

/// Starts a match between `host` and `guest`, `spectator` watching, and plays the first legal
/// step `steps` times (0: to the end). `midway` runs after each step with the match so far.
Played play(e2e::Player& host, e2e::Player& guest, e2e::Player& spectator, const json& settings, int steps,
            const std::function<void(const Played&)>& midway = {}) {
    const e2e::Started started = e2e::start_private_match(host, guest, settings);
    Played played{started.match, {}, {}, {}};
    e2e::open_match(spectator, played.id);
    e2e::open_match(host, played.id);
    e2e::open_match(guest, played.id);
    e2e::sync({&host, &guest, &spectator}, played.id);
    std::vector<e2e::Player*> by_seat(2, nullptr);
    by_seat[host.match(played.id).view["you"].get<std::size_t>()] = &host;
    by_seat[guest.match(played.id).view["you"].get<std::size_t>()] = &guest;
    played.views.push_back(spectator.match(played.id).view);
    int number = 0;
    while (spectator.match(played.id).view["status"] != "finished" && (steps == 0 || number < steps)) {
        REQUIRE(number < 1500);
        played.seats.push_back(e2e::decider(host.match(played.id).view));
        played.steps.push_back(e2e::play_first_legal(by_seat, {&host, &guest, &spectator}, played.id, ++number));
        played.views.push_back(spectator.match(played.id).view);
        if (midway) midway(played);
    }
    return played;
}

/// The view fetched after `n` steps agrees with what the spectators were sent live then.
void check_view(std::uint16_t port, const Played& played, std::size_t n, bool live) {
    INFO("view after " << n << " of " << played.id);
    const json answer = get_ok(port, "/api/matches/" + played.id + "/view?after=" + std::to_string(n));
    CHECK(answer["match"] == played.id);
    CHECK(answer["after"] == n);
    const json& view = answer["view"];
    const json& sent = played.views[n];
    CHECK(view["match"] == sent["match"]);
    CHECK(view["game"] == "santorini");
    CHECK(view["state"] == sent["state"]);
    CHECK(view["history"] == sent["history"]);
    CHECK(view["status"] == sent["status"]);
    if (n + 1 < played.views.size() || live) CHECK(view["result"].is_null());
    REQUIRE(view["seats"].size() == sent["seats"].size());
    for (std::size_t s = 0; s < sent["seats"].size(); ++s) {
        for (const char* field : {"seat", "player", "power", "side", "out"})
            CHECK(view["seats"][s][field] == sent["seats"][s][field]);
    }
}

void check_replay(std::uint16_t port, const Played& played, bool live) {
    const json replay = get_ok(port, "/api/matches/" + played.id + "/replay");
    CHECK(replay["match"]["id"] == played.id);
    CHECK(replay["match"]["live"] == live);
    REQUIRE(replay["steps"].size() == played.steps.size());
    for (std::size_t i = 0; i < played.steps.size(); ++i) {
        INFO("step " << i + 1);
        const json& step = replay["steps"][i];
        CHECK(step["number"] == i + 1);
        CHECK(step["seat"] == played.seats[i]);
        CHECK(step["player"].is_string());
        CHECK(step["step"] == played.steps[i]);
        CHECK(step["at"].is_string());
    }
}

/// HEAD `target`: the response has the GET's headers and no body (the parser is told so).
test::HttpResponse head_request(std::uint16_t port, const std::string& target) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    http::request<http::string_body> request{http::verb::head, api_test::with_invite_code(target), 11};
    request.set(http::field::host, "127.0.0.1");
    request.keep_alive(false);
    http::write(socket, request);
    boost::beast::flat_buffer buffer;
    http::response_parser<http::string_body> parser;
    parser.skip(true);
    http::read(socket, buffer, parser);
    test::HttpResponse response = parser.release();
    test::observe_http(http::verb::head, request.target(), response);
    return response;
}

/// A player with an established rating in `pool`, written straight into the database.
void add_established_player(const store_test::TestSchema& schema, const std::string& id, const std::string& name,
                            const std::string& pool, double rating) {
    pqxx::connection c = schema.connect();
    pqxx::work w(c);
    w.exec_params0("INSERT INTO players (id, display_name, token_sha256) VALUES ($1, $2, $3)", id, name,
                   store::token_sha256("token-of-" + id));
    // The leaderboard lists accounts only (docs/ratings.md).
    w.exec_params0(
        "INSERT INTO accounts (player_id, username, username_key, password_hash) "
        "VALUES ($1, $2, lower($2), '$argon2id$not-a-real-hash')",
        id, name);
    w.exec_params0(
        "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, last_rated_at) "
        "VALUES ($1, $2, $3, 50, 0.06, 40, now())",
        id, pool, rating);
    w.commit();
}

}  // namespace

TEST_CASE("the HTTP API serves stored matches, players and leaderboards from PostgreSQL", "[api][e2e]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    e2e::Player a(port, traffic, "alice");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "spectator");
    const e2e::Guest alice = e2e::sign_in(a, port, "Alice");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    const e2e::Guest carol = e2e::sign_in(s, port, "Carol");

    // ---- a game with the god draft, checked live halfway and then finished ----
    bool checked_live = false;
    const Played first = play(a, b, s, powers_settings, 0, [&](const Played& so_far) {
        if (checked_live || so_far.steps.size() < 12) return;
        checked_live = true;
        // Live: the header says so, nothing is cached, and the replay shows what spectators saw.
        const Fetched live = get(port, "/api/matches/" + so_far.id);
        REQUIRE(live.response.result() == http::status::ok);
        CHECK(live.response[http::field::cache_control] == "no-store");
        CHECK(live.body["live"] == true);
        CHECK(live.body["status"] == "live");
        CHECK(live.body["result"].is_null());
        CHECK(live.body["finished_at"].is_null());
        CHECK(live.body["steps"] == so_far.steps.size());
        check_replay(port, so_far, true);
        for (std::size_t n = 0; n < so_far.views.size(); ++n) check_view(port, so_far, n, true);
        check_error(port, "/api/matches/" + so_far.id + "/view?after=" + std::to_string(so_far.steps.size() + 1),
                    http::status::bad_request, "bad_request");
    });
    REQUIRE(checked_live);
    REQUIRE(first.views.back()["status"] == "finished");

    const Fetched header = get(port, "/api/matches/" + first.id);
    REQUIRE(header.response.result() == http::status::ok);
    CHECK(std::string(header.response[http::field::cache_control]).starts_with("public"));
    const json& h = header.body;
    CHECK(h["id"] == first.id);
    CHECK(h["game"] == "santorini");
    CHECK(h["status"] == "finished");
    CHECK(h["live"] == false);
    CHECK(h["settings"]["powers"] == "simple");
    CHECK(h["created_at"].is_string());
    CHECK(h["finished_at"].is_string());
    CHECK(h["pool"] == "santorini_powers");
    CHECK(h["steps"] == first.steps.size());
    CHECK(h["result"] == first.views.back()["result"]);
    REQUIRE(h["seats"].size() == 2);
    std::map<std::string, json> seat_of;
    for (const json& seat : h["seats"]) {
        seat_of[seat["player"]["id"].get<std::string>()] = seat;
        CHECK(seat["power"] == first.views.back()["seats"][seat["seat"].get<std::size_t>()]["power"]);
        CHECK(seat["power"].is_string());  // drafted during the game, not known when it was stored
        REQUIRE(seat["rating_before"].is_object());
        REQUIRE(seat["rating_after"].is_object());
        CHECK(seat["rating_before"] == json{{"rating", 1500.0}, {"deviation", 350.0}});
        CHECK(seat["rating_after"]["rating"] != 1500.0);
        CHECK(seat["rating_after"]["deviation"].get<double>() < 350.0);
    }
    REQUIRE(seat_of.count(alice.id));
    REQUIRE(seat_of.count(bob.id));
    check_replay(port, first, false);
    for (std::size_t n = 0; n < first.views.size(); ++n) check_view(port, first, n, false);
    const Fetched last_view = get(port, "/api/matches/" + first.id + "/view?after=" + std::to_string(first.steps.size()));
    CHECK(last_view.body["view"]["result"] == first.views.back()["result"]);
    // A private lobby's match: a browser may keep its views, a shared cache may not.
    CHECK(std::string(last_view.response[http::field::cache_control]) == "private, max-age=86400");

    // ---- the second rated game, three aborted ones and one left live: six matches ----
    const Played second = play(b, a, s, powers_settings, 0);
    std::vector<std::string> aborted;
    for (int i = 0; i < 3; ++i) {
        const e2e::Started started = e2e::start_private_match(a, b, powers_settings);
        a.send({{"type", "match.abort"}, {"ref", "abort"}, {"match", started.match}});
        auto reply = a.until_reply("abort");
        REQUIRE(reply);
        REQUIRE((*reply)["type"] == "ack");
        aborted.push_back(started.match);
    }
    const Played live = play(a, b, s, json{{"game", "santorini"}, {"players", 2}, {"clock", {{"kind", "none"}}}}, 5);
    // Newest first: by creation time, ties (the same millisecond) by id, as the pages order them.
    std::vector<std::pair<std::string, std::string>> created;
    for (const std::string& id : {first.id, second.id, aborted[0], aborted[1], aborted[2], live.id})
        created.emplace_back(get_ok(port, "/api/matches/" + id)["created_at"].get<std::string>(), id);
    std::sort(created.rbegin(), created.rend());
    std::vector<std::string> newest_first;
    for (const auto& [at, id] : created) newest_first.push_back(id);
    CHECK(newest_first.front() == live.id);
    CHECK(newest_first.back() == first.id);

    const json aborted_header = get_ok(port, "/api/matches/" + aborted[0]);
    CHECK(aborted_header["status"] == "aborted");
    CHECK(aborted_header["live"] == false);
    CHECK(aborted_header["seats"][0]["rating_after"].is_null());
    CHECK(aborted_header["steps"] == 1);  // the abort is a record
    const json aborted_replay = get_ok(port, "/api/matches/" + aborted[0] + "/replay");
    REQUIRE(aborted_replay["steps"].size() == 1);
    CHECK(aborted_replay["steps"][0]["step"] == json{{"kind", "abort"}, {"seat", aborted_replay["steps"][0]["seat"]}});
    CHECK(get_ok(port, "/api/matches/" + aborted[0] + "/view?after=1")["view"]["status"] == "aborted");

    // ---- the player page, rating history and the NDJSON pages ----
    const json page = get_ok(port, "/api/players/" + alice.id);
    CHECK(page["id"] == alice.id);
    CHECK(page["name"] == "Alice");
    CHECK(page["created_at"].is_string());
    REQUIRE(page["ratings"].size() == 1);
    const json& rating = page["ratings"][0];
    CHECK(rating["pool"] == "santorini_powers");
    CHECK(rating["games"] == 2);
    CHECK(rating["provisional"] == true);
    CHECK(rating["volatility"].is_number());
    REQUIRE(page["recent_matches"].size() == 6);
    for (std::size_t i = 0; i < newest_first.size(); ++i) CHECK(page["recent_matches"][i]["id"] == newest_first[i]);
    CHECK(page["recent_matches"][0]["live"] == true);

    const json history = get_ok(port, "/api/players/" + alice.id + "/rating-history?pool=santorini_powers");
    CHECK(history["player"] == alice.id);
    CHECK(history["pool"] == "santorini_powers");
    REQUIRE(history["history"].size() == 2);
    CHECK(history["history"][0]["match"] == first.id);  // oldest first
    CHECK(history["history"][1]["match"] == second.id);
    CHECK(history["history"][0]["rating"] == seat_of[alice.id]["rating_after"]["rating"]);
    CHECK(history["history"][1]["rating"] == rating["rating"]);
    CHECK(get_ok(port, "/api/players/" + alice.id + "/rating-history?pool=santorini")["history"].empty());

    std::vector<std::string> walked;
    std::string cursor;
    int pages = 0;
    int cursors = 0;
    do {
        const std::string target =
            "/api/players/" + alice.id + "/matches?limit=4" + (cursor.empty() ? "" : "&after=" + cursor);
        const test::HttpResponse response = test::http_request(port, http::verb::get, target);
        INFO(target << " -> " << response.body());
        REQUIRE(response.result() == http::status::ok);
        CHECK(response[http::field::content_type] == "application/x-ndjson");
        std::string body = response.body();
        std::size_t start = 0;
        while (start < body.size()) {
            const std::size_t end = body.find('\n', start);
            REQUIRE(end != std::string::npos);  // every line ends with a newline
            const json line = json::parse(body.substr(start, end - start));
            walked.push_back(line["id"].get<std::string>());
            CHECK(line.contains("seats"));
            start = end + 1;
        }
        cursor = std::string(response["X-Next-Cursor"]);
        cursors += !cursor.empty();
        REQUIRE(++pages <= 3);
    } while (!cursor.empty());
    CHECK(pages == 2);
    CHECK(cursors == 1);
    CHECK(walked == newest_first);
    // Pages of one walk exactly once through each match, whatever the page size.
    for (int limit : {1, 5, 6, 100}) {
        std::vector<std::string> all;
        std::string next;
        do {
            const auto response = test::http_request(
                port, http::verb::get,
                "/api/players/" + alice.id + "/matches?limit=" + std::to_string(limit) + (next.empty() ? "" : "&after=" + next));
            REQUIRE(response.result() == http::status::ok);
            std::string body = response.body();
            for (std::size_t at = 0, end; (end = body.find('\n', at)) != std::string::npos; at = end + 1)
                all.push_back(json::parse(body.substr(at, end - at))["id"].get<std::string>());
            next = std::string(response["X-Next-Cursor"]);
        } while (!next.empty());
        CHECK(all == newest_first);
    }

    // ---- the leaderboard ranks established players only ----
    add_established_player(schema, "p_star", "Star", "santorini_powers", 2100);
    add_established_player(schema, "p_steady", "Steady", "santorini_powers", 1800);
    add_established_player(schema, "p_other", "Other", "santorini", 1900);
    const json board = get_ok(port, "/api/leaderboard?pool=santorini_powers");
    CHECK(board["pool"] == "santorini_powers");
    REQUIRE(board["entries"].size() == 2);  // Alice and Bob are provisional
    CHECK(board["entries"][0]["rank"] == 1);
    CHECK(board["entries"][0]["player"] == json{{"id", "p_star"}, {"name", "Star"}});
    CHECK(board["entries"][0]["rating"] == 2100.0);
    CHECK(board["entries"][0]["games"] == 40);
    CHECK(board["entries"][0]["deviation"].get<double>() >= 50.0);
    CHECK(board["entries"][1]["rank"] == 2);
    const json second_line = get_ok(port, "/api/leaderboard?pool=santorini_powers&limit=1&offset=1");
    REQUIRE(second_line["entries"].size() == 1);
    CHECK(second_line["entries"][0]["rank"] == 2);
    CHECK(second_line["entries"][0]["player"]["id"] == "p_steady");
    CHECK(get_ok(port, "/api/leaderboard?pool=santorini")["entries"].size() == 1);
    CHECK(get_ok(port, "/api/leaderboard?pool=splendor")["entries"].empty());

    // ---- unknown ids, bad parameters, methods ----
    for (const std::string& target : std::vector<std::string>{"/api/matches/m_doesnotexist", "/api/matches/m_doesnotexist/replay",
                                     "/api/matches/m_doesnotexist/view?after=0", "/api/players/p_nobody",
                                     "/api/players/p_nobody/matches", "/api/players/p_nobody/rating-history?pool=santorini",
                                     "/api/matches/" + first.id + "/moves", "/api/matches/bad!id"})
        check_error(port, target, http::status::not_found, "not_found");
    for (const std::string& target : std::vector<std::string>{
             "/api/matches/" + first.id + "/view", "/api/matches/" + first.id + "/view?after=-1",
          "/api/matches/" + first.id + "/view?after=1e3", "/api/matches/" + first.id + "/view?after=99999",
          "/api/players/" + alice.id + "/matches?limit=0", "/api/players/" + alice.id + "/matches?limit=101",
          "/api/players/" + alice.id + "/matches?after=nonsense", "/api/players/" + alice.id + "/rating-history?pool=chess",
          "/api/leaderboard?pool=chess", "/api/leaderboard?pool=santorini&offset=-3"})
        check_error(port, target, http::status::bad_request, "bad_request");
    const auto post = test::http_request(port, http::verb::post, "/api/matches/" + first.id + "/replay");
    CHECK(post.result() == http::status::method_not_allowed);
    CHECK(json::parse(post.body())["code"] == "method_not_allowed");
    const auto head = head_request(port, "/api/matches/" + first.id + "/replay");
    CHECK(head.result() == http::status::ok);
    CHECK(head.body().empty());
    CHECK(std::string(head[http::field::content_length]) ==
          std::to_string(test::http_request(port, http::verb::get, api_test::with_invite_code("/api/matches/" + first.id + "/replay")).body().size()));
    e2e::check_traffic(traffic);
}

TEST_CASE("one keep-alive connection carries several API requests in order", "[api][e2e]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const e2e::Guest alice = e2e::http_guest(running.port(), "Alice");

    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), running.port()});
    boost::beast::flat_buffer buffer;
    const std::vector<std::pair<std::string, http::status>> requests = {
        {"/api/players/" + alice.id, http::status::ok},
        {"/api/players/p_nobody", http::status::not_found},
        {"/api/leaderboard?pool=santorini", http::status::ok},
        {"/api/leaderboard?pool=x", http::status::bad_request},
        {"/healthz", http::status::ok},
        {"/api/players/" + alice.id + "/matches", http::status::ok},
    };
    // Pipelined: all requests are written first; the answers come back in order.
    for (const auto& [target, status] : requests) {
        http::request<http::string_body> request{http::verb::get, target, 11};
        request.set(http::field::host, "127.0.0.1");
        request.keep_alive(true);
        http::write(socket, request);
    }
    for (const auto& [target, status] : requests) {
        http::response<http::string_body> response;
        http::read(socket, buffer, response);
        test::observe_http(http::verb::get, target, response);
        INFO(target << " -> " << response.body());
        CHECK(response.result() == status);
        CHECK(response.keep_alive());
    }
    const json page = json::parse(test::http_request(running.port(), http::verb::get, "/api/players/" + alice.id).body());
    CHECK(page["ratings"].empty());
    CHECK(page["recent_matches"].empty());
}

TEST_CASE("the HTTP API shows nothing of Hecate's hidden workers while her match is live", "[api][e2e][hidden]") {
    // docs/rulings.md H11: while live, /api/matches/{id}/view is the spectators' view (her
    // workers off the board), the replay shows her steps by kind only, and the live list
    // names powers only; once finished, the view after the last step is the revealed one.
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "alice");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "spectator");
    const e2e::Guest alice = e2e::sign_in(a, port, "Alice");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    const e2e::Guest carol = e2e::sign_in(s, port, "Carol");
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "custom"}, {"pool", {"Hecate", "Pan"}},
                           {"draft", "random"}, {"clock", {{"kind", "none"}}}};
    int live_checks = 0, public_builds = 0;
    const Played played = play(a, b, s, settings, 0, [&](const Played& so_far) {
        const json& sent = so_far.views.back();
        if (sent["status"] == "finished") return;
        int side = -1;
        for (const auto& seat : sent["seats"])
            if (seat["power"] == "Hecate") side = seat["side"].get<int>();
        if (side < 0) return;
        const std::size_t n = so_far.steps.size();
        check_view(port, so_far, n, true);
        const json view = get_ok(port, "/api/matches/" + so_far.id + "/view?after=" + std::to_string(n))["view"];
        for (const auto& w : view["state"]["workers"])
            if (w["side"] == side) {
                ++live_checks;
                CHECK(w["square"].is_null());
            }
        // In the live replay her place and move steps show only their kind, and her builds
        // their kind and the space built on (everyone sees it on the board), never her worker.
        const json replay = get_ok(port, "/api/matches/" + so_far.id + "/replay");
        const json& last = replay["steps"].back();
        const json& step = so_far.steps.back();
        if (so_far.seats.back() >= 0 && sent["seats"][static_cast<std::size_t>(so_far.seats.back())]["side"] == side) {
            INFO(last.dump() << " for " << step.dump());
            CHECK(last["step"]["kind"] == step["kind"]);
            CHECK_FALSE(last["step"].contains("from"));
            if (step["kind"] == "build" || step["kind"] == "dome") {
                ++public_builds;
                CHECK(last["step"] == json{{"kind", step["kind"]}, {"to", step["to"]}});
            } else if (step["kind"] == "place" || step["kind"] == "move") {
                CHECK(last["step"] == json{{"kind", step["kind"]}});
            }
        }
        const json list = get_ok(port, "/api/matches");
        CHECK(list.dump().find("\"square\"") == std::string::npos);
    });
    CHECK(live_checks > 0);
    CHECK(public_builds > 0);
    REQUIRE(s.match(played.id).view["status"] == "finished");
    // Finished: the view after the last step is revealed, her workers included.
    const json last = get_ok(port, "/api/matches/" + played.id + "/view?after=" + std::to_string(played.steps.size()))["view"];
    int side = -1;
    bool out = false;
    for (const auto& seat : last["seats"])
        if (seat["power"] == "Hecate") {
            side = seat["side"].get<int>();
            out = seat["out"].get<bool>();
        }
    REQUIRE(side >= 0);
    for (const auto& w : last["state"]["workers"])
        if (w["side"] == side) CHECK(w["square"].is_string() != out);  // on the board unless she lost
    e2e::check_traffic(traffic);
}
