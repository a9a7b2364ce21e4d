// End to end over real sockets: the handicap game (lobby setting hero_seat). A lobby is created
// with the setting, listed with it, joined and started; its draft (random, then full) is played
// through placement, and the lobby's hero seat holds the hero whoever is the challenger. The
// host is lobby seat 0 and match seat 0, the guest seat 1.

#include <set>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

const std::set<std::string> heroes = {"Achilles", "Adonis",     "Atalanta", "Bellerophon", "Heracles",
                                      "Jason",    "Medea",      "Odysseus", "Polyphemus",  "Theseus"};

bool is_hero(const json& key) { return key.is_string() && heroes.count(key.get<std::string>()) == 1; }

// Plays one handicap match from its lobby to the first turn and checks who got what.
void play_handicap_draft(std::uint16_t port, e2e::Traffic& traffic, const e2e::Guest& alice, const e2e::Guest& bob,
                         const std::string& draft, int hero_seat) {
    INFO("draft " << draft << ", hero seat " << hero_seat);
    e2e::Player a(port, traffic, "alice-" + draft);
    e2e::Player b(port, traffic, "bob-" + draft);
    a.hello(alice.token);
    b.hello(bob.token);
    const json settings = {{"game", "santorini"}, {"players", 2},          {"powers", "simple"},
                           {"draft", draft},      {"hero_seat", hero_seat}, {"clock", {{"kind", "none"}}}};
    const e2e::Started started = e2e::start_private_match(a, b, settings);
    const std::string& match = started.match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::sync({&a, &b}, match);

    // Lobby seat N is match seat N: the host (Alice) is seat 0.
    REQUIRE(a.match(match).view["you"] == 0);
    REQUIRE(b.match(match).view["you"] == 1);
    std::vector<e2e::Player*> by_seat = {&a, &b};
    const json& state = a.match(match).view["state"];
    CHECK(state["draft"]["hero_seat"] == hero_seat);
    CHECK(state["draft"]["mode"] == draft);
    const int challenger = state["draft"]["challenger"].get<int>();

    int steps = 0;
    bool saw_offer = false, saw_choose = false;
    while (a.match(match).view["state"]["phase"] != "begin") {
        REQUIRE(steps < 40);
        const json& view = by_seat[static_cast<std::size_t>(e2e::decider(a.match(match).view))]->match(match).view;
        const std::string phase = view["state"]["phase"];
        if (phase == "offer") {
            // The second offer is of the other kind than the first.
            const json& offer = view["state"]["draft"]["offer"];
            if (offer.size() == 1)
                for (const json& step : view["state"]["legal"]) CHECK(is_hero(step["power"]) != is_hero(offer[0]));
            saw_offer = true;
        }
        if (phase == "choose") {
            // The chooser may take only the power of its kind.
            const json& legal = view["state"]["legal"];
            REQUIRE(legal.size() == 1);
            CHECK(is_hero(legal[0]["power"]) == (view["you"] == hero_seat));
            saw_choose = true;
        }
        e2e::play_first_legal(by_seat, {&a, &b}, match, ++steps);
    }
    const json& powers = a.match(match).view["state"]["powers"];
    INFO("powers " << powers.dump() << ", challenger " << challenger);
    CHECK(is_hero(powers[static_cast<std::size_t>(hero_seat)]));
    CHECK(powers[static_cast<std::size_t>(1 - hero_seat)].is_string());
    CHECK_FALSE(is_hero(powers[static_cast<std::size_t>(1 - hero_seat)]));
    CHECK(a.match(match).view["state"]["draft"]["hero_seat"] == hero_seat);
    CHECK(b.match(match).view["state"]["powers"] == powers);
    CHECK(saw_offer == (draft == "full"));
    CHECK(saw_choose == (draft == "full"));
    // Placement was played: every worker stands on the board.
    for (const json& w : a.match(match).view["state"]["workers"])
        if (!w["reserve"].get<bool>()) CHECK(w["square"].is_string());
    a.close();
    b.close();
}

}  // namespace

TEST_CASE("handicap lobbies: listed with their hero seat, drafted by kind over real sockets", "[variants][e2e]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest alice = e2e::http_guest(port, "Alice");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const e2e::Guest carol = e2e::http_guest(port, "Carol");

    // A public handicap lobby shows its setting in the lobby list; a hero seat for 3 players,
    // or with the heroes' own "powers", is refused naming the field.
    {
        e2e::Player c(port, traffic, "carol");
        c.hello(carol.token);
        c.send({{"type", "lobby.create"},
                {"ref", "bad"},
                {"settings", {{"game", "santorini"}, {"players", 2}, {"powers", "heroes"}, {"hero_seat", 0}}}});
        auto bad = c.until_reply("bad");
        REQUIRE(bad);
        CHECK((*bad)["type"] == "error");
        CHECK((*bad)["code"] == "invalid_field");
        CHECK((*bad)["message"].get<std::string>().find("settings.hero_seat") != std::string::npos);
        c.send({{"type", "lobby.create"},
                {"ref", "create"},
                {"settings", {{"game", "santorini"}, {"players", 2}, {"powers", "all"}, {"hero_seat", 1}}}});
        auto created = c.until_reply("create");
        REQUIRE(created);
        REQUIRE((*created)["type"] == "ack");
        c.send({{"type", "lobbies.subscribe"}, {"ref", "sub"}});
        auto list = c.until_type("lobbies");
        REQUIRE(list);
        REQUIRE((*list)["lobbies"].size() == 1);
        CHECK((*list)["lobbies"][0]["settings"]["hero_seat"] == 1);
        CHECK((*list)["lobbies"][0]["settings"]["powers"] == "all");
        c.close();
    }

    for (const std::string draft : {"random", "full"})
        for (int hero_seat : {0, 1}) play_handicap_draft(port, traffic, alice, bob, draft, hero_seat);

    e2e::check_traffic(traffic);
}
