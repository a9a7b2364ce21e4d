// End to end over real sockets: a person plays whole Santorini games against the computer
// (docs/bot.md, "In the server"). The lobby is created with bots (their seats taken at once,
// shown with `bot`), started by its host alone, and the computer's steps come as patches like
// anyone's until the game ends; the live list and /metrics show the computer. All traffic is
// validated against the schemas. (The store's side, casual and replayable: tests/api.)

#include <random>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

server::Config bot_config() {
    server::Config c = e2e::config();
    c.bot_delay = 0ms;
    c.bot_time_limit = 300ms;
    return c;
}

// Creates a public lobby with `settings` (which hold `bots`; a private one's match would not be
// in the live list), checks its seats, starts it and opens the match; returns the match id.
std::string start_against_computer(e2e::Player& host, json settings) {
    settings["public"] = true;
    host.send({{"type", "lobby.create"}, {"ref", "create"}, {"settings", settings}});
    auto lobby = host.until_type("lobby");
    REQUIRE(lobby);
    const json& l = (*lobby)["lobby"];
    INFO(l.dump());
    const int players = settings["players"].get<int>();
    const int bots = settings["bots"].get<int>();
    const int level = settings.value("bot_level", 3);
    CHECK(l["status"] == "full");  // the computer took its seats at once
    CHECK(l["settings"]["rated"] == false);
    REQUIRE(l["seats"].size() == static_cast<std::size_t>(players));
    CHECK(l["seats"][0]["player"]["id"] == host.player_id());
    CHECK_FALSE(l["seats"][0]["player"].contains("bot"));
    for (int s = players - bots; s < players; ++s) {
        const json& p = l["seats"][static_cast<std::size_t>(s)]["player"];
        // The first computer is c_<level>; more at that level are c_<level>_2, c_<level>_3.
        const int number = s - (players - bots) + 1;
        const std::string digit = std::to_string(level), nth = std::to_string(number);
        CHECK(p["id"] == (number == 1 ? "c_" + digit : "c_" + digit + "_" + nth));
        CHECK(p["name"] == (number == 1 ? "Computer" : "Computer " + nth) + " (level " + digit + ")");
        CHECK(p["bot"] == json{{"level", level}});
    }
    REQUIRE(host.until_reply("create"));
    host.send({{"type", "lobby.start"}, {"ref", "start"}, {"lobby", l["id"]}});
    auto closed = host.until_type("lobby.closed");
    REQUIRE(closed);
    CHECK((*closed)["reason"] == "started");
    const std::string match = (*closed)["match"].get<std::string>();
    auto ack = host.until_reply("start");
    REQUIRE(ack);
    REQUIRE((*ack)["type"] == "ack");
    e2e::open_match(host, match);
    return match;
}

struct Played {
    int mine = 0;        // steps the person played
    int computer = 0;    // patches that added a history line while the computer decided
    json live_entry;     // the match in GET /api/matches, seen while it was live
};

// The person plays random legal steps (never undo: the game must move on) whenever its seat
// decides; otherwise it waits for the computer's patch. Until the match is over.
Played play_to_end(e2e::Player& me, const std::string& match, std::uint16_t port, unsigned seed) {
    std::mt19937 rng(seed);
    Played out;
    int ref = 100;
    while (me.match(match).view["status"] != "finished" &&
           me.match(match).view["status"] != "aborted") {
        REQUIRE(out.mine + out.computer < 3000);
        const json& view = me.match(match).view;
        const int seat = e2e::decider(view);
        REQUIRE(seat >= 0);
        if (out.live_entry.is_null()) {
            const json list = json::parse(
                test::http_request(port, boost::beast::http::verb::get, "/api/matches").body());
            for (const json& entry : list)
                if (entry["id"] == match) out.live_entry = entry;
        }
        const std::uint64_t before = me.version_of(match);
        if (seat == view["you"].get<int>()) {
            std::vector<json> choices;
            for (const json& step : view["state"]["legal"])
                if (step.value("kind", "") != "undo") choices.push_back(step);
            REQUIRE_FALSE(choices.empty());
            const json step = choices[std::uniform_int_distribution<std::size_t>(
                0, choices.size() - 1)(rng)];
            me.send({{"type", "match.step"}, {"ref", ++ref}, {"match", match}, {"step", step}});
            auto reply = me.until_reply(ref);
            REQUIRE(reply);
            INFO(reply->dump());
            REQUIRE((*reply)["type"] == "ack");
            ++out.mine;
        } else {
            // The computer's step arrives by itself, as a patch.
            const std::size_t lines = view["history"].size();
            INFO("waiting for the computer in seat " << seat);
            REQUIRE(me.until_version(match, before + 1, 10s));
            if (me.match(match).view["history"].size() > lines) ++out.computer;
        }
    }
    return out;
}

}  // namespace

TEST_CASE("a person plays a whole god game against the computer over real sockets", "[e2e][bots]") {
    test::RunningServer running(bot_config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest ann = e2e::http_guest(port, "Ann");
    e2e::Player a(port, traffic, "ann");
    a.hello(ann.token);

    const std::string match = start_against_computer(
        a, {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "full"},
            {"bots", 1}, {"bot_level", 2}, {"clock", {{"kind", "none"}}}});
    const json& view = a.match(match).view;
    REQUIRE(view["seats"].size() == 2);
    CHECK(view["seats"][1]["player"]["bot"]["level"] == 2);
    CHECK(view["seats"][1]["connected"] == true);
    CHECK_FALSE(view["seats"][0]["player"].contains("bot"));

    const Played played = play_to_end(a, match, port, 11);
    CHECK(a.match(match).view["status"] == "finished");
    CHECK(a.match(match).view["result"]["winners"].size() == 1);
    CHECK(played.mine > 0);
    CHECK(played.computer > 0);
    CHECK(a.match(match).patches >= played.mine + played.computer);
    // Both powers were drafted (the computer drafted too when it was its turn).
    for (const json& seat : a.match(match).view["seats"]) CHECK(seat["power"].is_string());
    // The live list showed the computer's seat.
    REQUIRE(played.live_entry.is_object());
    CHECK(played.live_entry["bots"] == json::array({{{"seat", 1}, {"level", 2}}}));
    CHECK(played.live_entry["players"][1] == "Computer (level 2)");

    const std::string metrics =
        test::http_request(port, boost::beast::http::verb::get, "/metrics").body();
    CHECK(metrics.find("santorini_bot_decisions_total{outcome=\"searched\"}") != std::string::npos);
    CHECK(metrics.find("santorini_bot_think_seconds_total") != std::string::npos);
    e2e::check_traffic(traffic);
}

TEST_CASE("a person plays a 3-player game against two computers", "[e2e][bots]") {
    // Level 4's budget (15,000 nodes a decision) under the server's own wall-clock cap, here
    // 40 ms: the cap ends most of the computers' searches, as it does on a slow machine. What
    // this test checks is the seats, the names and a game played to its end, not strength (the
    // levels' play: tests/bot); at 300 ms the two computers' thinking was most of its 40 s
    // under the sanitizers.
    server::Config config = bot_config();
    config.bot_time_limit = 40ms;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest bea = e2e::http_guest(port, "Bea");
    e2e::Player b(port, traffic, "bea");
    b.hello(bea.token);

    const std::string match = start_against_computer(
        b, {{"game", "santorini"}, {"players", 3}, {"powers", "simple"}, {"bots", 2},
            {"bot_level", 4}});
    CHECK(b.match(match).view["seats"][1]["player"]["id"] == "c_4");
    CHECK(b.match(match).view["seats"][2]["player"]["id"] == "c_4_2");
    const Played played = play_to_end(b, match, port, 23);
    CHECK(b.match(match).view["status"] == "finished");
    CHECK(played.computer > played.mine / 2);  // two computers play most of the steps
    e2e::check_traffic(traffic);
}

TEST_CASE("a lobby with computers refuses rated play and a seat too many", "[e2e][bots]") {
    test::RunningServer running(bot_config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player c(port, traffic, "cid");
    c.hello(e2e::http_guest(port, "Cid").token);
    c.send({{"type", "lobby.create"},
            {"ref", 1},
            {"settings", {{"game", "santorini"}, {"players", 2}, {"bots", 1}, {"rated", true}}}});
    auto e = c.until_reply(1);
    REQUIRE(e);
    CHECK((*e)["code"] == "invalid_field");
    CHECK((*e)["message"].get<std::string>().find("settings.rated") != std::string::npos);
    c.send({{"type", "lobby.create"},
            {"ref", 2},
            {"settings", {{"game", "santorini"}, {"players", 2}, {"bots", 2}}}});
    e = c.until_reply(2);
    REQUIRE(e);
    CHECK((*e)["code"] == "invalid_field");
    CHECK((*e)["message"].get<std::string>().find("settings.bots") != std::string::npos);
    // Nothing was made.
    CHECK(json::parse(test::http_request(port, boost::beast::http::verb::get, "/api/lobbies").body())
              .empty());
}
