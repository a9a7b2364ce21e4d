// End to end over real sockets: a 3-player Splendor lobby joined by code and played to its end
// (mostly buying, now and then a reserve from a deck) while a spectator watches; every message
// of every client is checked against the schemas, and no one but its owner ever hears of a
// card reserved from a deck before it is bought.

#include <catch2/catch_test_macros.hpp>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

TEST_CASE("a 3-player Splendor game over real sockets, watched, every message valid",
          "[e2e][splendor]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    std::vector<e2e::Guest> guests;
    for (const char* name : {"Alice", "Bob", "Carol", "Wes"})
        guests.push_back(e2e::http_guest(port, name));
    e2e::Player a(port, traffic, "alice"), b(port, traffic, "bob"), c(port, traffic, "carol"),
        s(port, traffic, "spectator");
    a.hello(guests[0].token);
    b.hello(guests[1].token);
    c.hello(guests[2].token);
    s.hello(guests[3].token);

    const json settings = {{"game", "splendor"}, {"players", 3}, {"clock", {{"kind", "none"}}}};
    const std::string match = e2e::start_private_match(a, {&b, &c}, settings).match;
    e2e::open_match(s, match);
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::open_match(c, match);
    e2e::sync({&a, &b, &c, &s}, match);
    const json& first = a.match(match).view;
    CHECK(first["game"] == "splendor");
    CHECK(first["status"] == "playing");
    REQUIRE(first["seats"].size() == 3);
    CHECK(first["seats"][0]["points"] == 0);

    std::vector<e2e::Player*> by_seat(3, nullptr);
    for (e2e::Player* p : {&a, &b, &c}) by_seat[p->match(match).view["you"].get<std::size_t>()] = p;
    const std::vector<e2e::Player*> everyone = {&a, &b, &c, &s};

    std::mt19937 rng(11);
    const e2e::Chooser choose = [&rng](const json& view) {
        const json& legal = view["state"]["legal"];
        std::vector<json> buys, blind;
        for (const auto& step : legal) {
            if (step["kind"] == "buy") buys.push_back(step);
            if (step["kind"] == "reserve" && step.contains("level")) blind.push_back(step);
        }
        const auto roll = rng() % 100;
        if (!buys.empty() && roll < 70) return buys[rng() % buys.size()];
        if (!blind.empty() && roll >= 85) return blind[rng() % blind.size()];
        return legal[rng() % legal.size()];
    };
    int steps = 0, blind = 0;
    while (a.match(match).view["status"] != "finished") {
        REQUIRE(steps < 1500);
        const json step = e2e::play_chosen(by_seat, everyone, match, ++steps, choose);
        blind += step["kind"] == "reserve" && step.contains("level");
        // The cards each seat holds from a deck: nobody else's view names them.
        for (std::size_t owner = 0; owner < 3; ++owner)
            for (const auto& r :
                 by_seat[owner]->match(match).view["state"]["hands"][owner]["reserved"])
                if (r["blind"] == true) {
                    REQUIRE(r["card"].is_object());
                    for (e2e::Player* other : everyone) {
                        if (other == by_seat[owner]) continue;
                        const json& shown =
                            other->match(match).view["state"]["hands"][owner]["reserved"];
                        for (const auto& o : shown)
                            if (o["blind"] == true) CHECK(o["card"].is_null());
                        CHECK(other->match(match).view.dump().find(
                                  "\"id\":" + r["card"]["id"].dump() + ",\"level\"") ==
                              std::string::npos);
                    }
                }
    }
    INFO("steps " << steps << ", reserves from a deck " << blind);
    CHECK(blind > 0);
    const json& result = s.match(match).view["result"];
    REQUIRE(result.is_object());
    CHECK(result["reason"] == "win");
    for (e2e::Player* p : everyone) CHECK(p->match(match).view["result"] == result);
    CHECK(s.match(match).view["state"]["phase"] == "over");
    CHECK(s.match(match).view["state"]["winners"] == result["winners"]);
    for (auto* p : everyone) p->close();
    e2e::check_traffic(traffic);
}
