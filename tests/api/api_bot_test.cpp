// Games against the computer, stored (docs/bot.md, "In the server"): a real server on a loopback
// port against a real PostgreSQL (SANTORINI_TEST_DATABASE_URL; scripts/with-postgres). A person
// plays a god game against the computer; the server is stopped while the computer is about to
// step, and the restored match goes on by itself; the game is stored with the computer's steps
// under its own player row (migrations/0003_bots.sql), casual (no rating anywhere), and the
// HTTP API's header and replay show the computer's seat with `bot`.

#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/api/fetch_json.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using e2e::json;
using namespace std::chrono_literals;

using api_test::fetch_json;

TEST_CASE("a game against the computer is stored casual, survives a restart, and is replayed",
          "[api][e2e][bots]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    config.bot_time_limit = 300ms;
    // First a long pause before the computer's steps: the server stops while one is pending.
    config.bot_delay = 5s;
    auto running = std::make_unique<test::RunningServer>(config);
    e2e::Traffic traffic;
    const e2e::Guest ann = e2e::http_guest(running->port(), "Ann");
    auto a = std::make_unique<e2e::Player>(running->port(), traffic, "ann");
    a->hello(ann.token);

    a->send({{"type", "lobby.create"},
             {"ref", "create"},
             {"settings",
              {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "random"},
               {"bots", 1}, {"bot_level", 1}, {"public", true}}}});  // its replay is anyone's
    auto lobby = a->until_type("lobby");
    REQUIRE(lobby);
    REQUIRE(a->until_reply("create"));
    a->send({{"type", "lobby.start"}, {"ref", "start"}, {"lobby", (*lobby)["lobby"]["id"]}});
    auto closed = a->until_type("lobby.closed");
    REQUIRE(closed);
    const std::string match = (*closed)["match"].get<std::string>();
    e2e::open_match(*a, match);

    // Ann plays until the computer decides; then the server stops before its step (5 s away).
    int ref = 10;
    while (e2e::decider(a->match(match).view) == a->match(match).view["you"]) {
        a->send({{"type", "match.step"},
                 {"ref", ++ref},
                 {"match", match},
                 {"step", a->match(match).view["state"]["legal"][0]}});
        REQUIRE(a->until_reply(ref));
    }
    const json before = a->match(match).view;
    REQUIRE(e2e::decider(before) == 1);
    a.reset();
    running.reset();

    // Restarted with no pause: the restored match's computer plays on by itself.
    config.bot_delay = 0ms;
    running = std::make_unique<test::RunningServer>(config);
    const std::uint16_t port = running->port();
    a = std::make_unique<e2e::Player>(port, traffic, "ann");
    a->hello(ann.token);
    e2e::open_match(*a, match);
    CHECK(a->match(match).view["state"]["board"] == before["state"]["board"]);
    const std::uint64_t restored = a->version_of(match);
    if (e2e::decider(a->match(match).view) == 1) REQUIRE(a->until_version(match, restored + 1, 10s));
    CHECK(a->match(match).view["history"].size() > before["history"].size());

    // Then to the end: Ann plays the first legal step, the computer answers.
    int guard = 0;
    while (a->match(match).view["status"] != "finished") {
        REQUIRE(++guard < 2000);
        const json& view = a->match(match).view;
        if (e2e::decider(view) == view["you"]) {
            a->send({{"type", "match.step"}, {"ref", ++ref}, {"match", match},
                     {"step", view["state"]["legal"][0]}});
            auto reply = a->until_reply(ref);
            REQUIRE(reply);
            REQUIRE((*reply)["type"] == "ack");
        } else {
            REQUIRE(a->until_version(match, a->version_of(match) + 1, 10s));
        }
    }

    // Stored: the computer's steps under c_1, the match finished, no rating anywhere.
    CHECK(std::stoi(schema.scalar("SELECT count(*) FROM steps WHERE match_id = '" + match +
                                  "' AND player_id = 'c_1'")) > 0);
    CHECK(schema.scalar("SELECT status FROM matches WHERE id = '" + match + "'") == "finished");
    CHECK(schema.scalar("SELECT count(*) FROM ratings") == "0");
    CHECK(schema.scalar("SELECT count(*) FROM rating_history") == "0");
    CHECK(schema.scalar("SELECT count(*) FROM seats WHERE match_id = '" + match +
                        "' AND rating_after IS NOT NULL") == "0");

    // The HTTP API: the header and the replay show the computer's seat.
    const json header = fetch_json(port, "/api/matches/" + match);
    CHECK(header["status"] == "finished");
    CHECK(header["settings"]["rated"] == false);
    CHECK(header["settings"]["bots"] == 1);
    REQUIRE(header["seats"].size() == 2);
    CHECK(header["seats"][1]["player"] ==
          json{{"id", "c_1"}, {"name", "Computer (level 1)"}, {"bot", {{"level", 1}}}});
    CHECK_FALSE(header["seats"][0]["player"].contains("bot"));
    CHECK(header["seats"][1]["rating_after"].is_null());
    const json replay = fetch_json(port, "/api/matches/" + match + "/replay");
    int computer_steps = 0;
    for (const json& step : replay["steps"]) computer_steps += step["player"] == "c_1";
    CHECK(computer_steps > 0);
    CHECK(replay["match"]["seats"][1]["player"]["bot"]["level"] == 1);
    // Never on the leaderboard, which lists nobody here.
    const json board = fetch_json(port, "/api/leaderboard?pool=santorini_powers");
    CHECK(board.dump().find("c_1") == std::string::npos);
    e2e::check_traffic(traffic);
}
