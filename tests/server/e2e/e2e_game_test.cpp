// End to end over real sockets: guests from HTTP, a private lobby joined by code, a full draft
// with simple powers, and a whole game played to its end by always taking the first legal step;
// a spectator watches every version. All traffic is validated against the schemas.

#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

TEST_CASE("a whole game with a full draft is played over real sockets and watched", "[e2e]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    const e2e::Guest alice = e2e::http_guest(port, "Alice");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const e2e::Guest carol = e2e::http_guest(port, "Carol");
    CHECK(alice.token.size() >= 22);  // 128 bits in any sane encoding
    CHECK(alice.id != bob.id);

    e2e::Player a(port, traffic, "alice");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "spectator");
    CHECK(a.hello(alice.token)["player"]["id"] == alice.id);
    CHECK(b.hello(bob.token)["player"]["id"] == bob.id);
    CHECK(s.hello(carol.token)["player"]["name"] == "Carol");

    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "full"},
                           {"clock", {{"kind", "none"}}}};
    const e2e::Started started = e2e::start_private_match(a, b, settings);
    const std::string& match = started.match;

    // The spectator opens first and must see every version from then on.
    e2e::open_match(s, match);
    REQUIRE(s.has_match(match));
    CHECK(s.match(match).snapshots == 1);
    CHECK(s.match(match).view["you"].is_null());
    CHECK(s.match(match).view["spectators"] == 1);
    const std::uint64_t spectator_start = s.version_of(match);

    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::sync({&a, &b, &s}, match);
    CHECK(a.match(match).view["status"] == "draft");
    const json& seats = a.match(match).view["seats"];
    REQUIRE(seats.size() == 2);
    CHECK(seats[0]["connected"] == true);
    CHECK(seats[1]["connected"] == true);

    // Seats by player id.
    std::vector<e2e::Player*> by_seat(2, nullptr);
    by_seat[a.match(match).view["you"].get<std::size_t>()] = &a;
    by_seat[b.match(match).view["you"].get<std::size_t>()] = &b;
    REQUIRE(by_seat[0] != nullptr);
    REQUIRE(by_seat[1] != nullptr);
    const std::vector<e2e::Player*> everyone = {&a, &b, &s};

    bool saw_offer = false, saw_choose = false, saw_start_player = false, saw_place = false, saw_move = false,
         saw_build = false;
    int steps = 0;
    while (a.match(match).view["status"] != "finished") {
        REQUIRE(steps < 1500);
        const json step = e2e::play_first_legal(by_seat, everyone, match, ++steps);
        const std::string kind = step.value("kind", "");
        saw_offer |= kind == "offer";
        saw_choose |= kind == "choose";
        saw_start_player |= kind == "start_player";
        saw_place |= kind == "place";
        saw_move |= kind == "move";
        saw_build |= kind == "build" || kind == "dome";
        // Every viewer shows the same board and history after every step.
        CHECK(a.match(match).view["state"]["board"] == s.match(match).view["state"]["board"]);
        CHECK(b.match(match).view["state"]["board"] == s.match(match).view["state"]["board"]);
        CHECK(a.match(match).view["history"] == s.match(match).view["history"]);
        CHECK(a.match(match).view["history"].size() == static_cast<std::size_t>(steps));
    }
    INFO("steps played: " << steps);
    CHECK(saw_offer);
    CHECK(saw_choose);
    CHECK(saw_start_player);
    CHECK(saw_place);
    CHECK(saw_move);
    CHECK(saw_build);

    // Both players and the spectator agree on the result.
    const json& result = a.match(match).view["result"];
    INFO("result " << result.dump());
    REQUIRE(result.is_object());
    REQUIRE(result["winners"].is_array());
    CHECK(result["winners"].size() == 1);
    CHECK((result["reason"] == "win" || result["reason"] == "no_turn"));
    CHECK(b.match(match).view["result"] == result);
    CHECK(s.match(match).view["result"] == result);
    CHECK(b.match(match).view["status"] == "finished");
    CHECK(s.match(match).view["status"] == "finished");
    CHECK(a.match(match).view["state"]["phase"] == "over");
    CHECK(a.match(match).view["state"]["winners"] == result["winners"]);
    CHECK(s.match(match).view["state"]["board"] == a.match(match).view["state"]["board"]);
    CHECK(s.match(match).view["state"]["workers"] == a.match(match).view["state"]["workers"]);
    CHECK(s.match(match).view["state"]["powers"] == a.match(match).view["state"]["powers"]);
    CHECK(s.match(match).view["state"]["powers"][0].is_string());
    CHECK(s.match(match).view["state"]["powers"][1].is_string());
    // Nobody is offered legal steps any more.
    CHECK((!a.match(match).view["state"].contains("legal") || a.match(match).view["state"]["legal"].empty()));
    CHECK((!b.match(match).view["state"].contains("legal") || b.match(match).view["state"]["legal"].empty()));

    // The spectator received every version from its snapshot on, each exactly once, by patch.
    const e2e::MatchView& watched = s.match(match);
    CHECK(watched.snapshots == 1);
    REQUIRE_FALSE(watched.versions.empty());
    CHECK(watched.versions.front() == spectator_start);
    for (std::size_t i = 1; i < watched.versions.size(); ++i) CHECK(watched.versions[i] == watched.versions[i - 1] + 1);
    CHECK(watched.version == a.version_of(match));
    CHECK(watched.version == b.version_of(match));

    // A fresh snapshot (a second tab of each) equals the view built from patches.
    for (auto [player, token] : {std::pair{&a, alice.token}, std::pair{&b, bob.token}}) {
        e2e::Player tab(port, traffic, player->label() + "-tab");
        tab.hello(token);
        e2e::open_match(tab, match);
        INFO(player->label());
        REQUIRE(tab.has_match(match));
        CHECK(tab.match(match).version == player->version_of(match));
        CHECK(tab.match(match).view == player->match(match).view);
        tab.close();
    }
    // Over: further steps are refused.
    a.send({{"type", "match.step"}, {"ref", "late"}, {"match", match}, {"step", {{"kind", "pass"}}}});
    auto late = a.until_reply("late");
    REQUIRE(late);
    CHECK((*late)["type"] == "error");
    CHECK((*late)["code"] == "wrong_phase");

    // The live list over HTTP no longer has the match.
    const test::HttpResponse live = test::http_request(port, boost::beast::http::verb::get, "/api/matches");
    CHECK(live.body().find(match) == std::string::npos);

    e2e::check_traffic(traffic);
}
