// End to end over real sockets: a rematch (docs/protocol.md, "Rematch"). Two players end a
// match, one offers, the other declines, the offer is made again and accepted, and every viewer
// (the spectator too) is patched with the new match, whose seats are the old ones moved one
// place and whose settings are the same; an offer lapses when a seat leaves; against the
// computer the player's own offer starts the rematch at once. All traffic is validated against
// the schemas.

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

json rematch_request(const std::string& match, bool accept, const std::string& ref) {
    return {{"type", "match.rematch"}, {"ref", ref}, {"match", match}, {"accept", accept}};
}

// Sends `message` from `who` and returns the error code of its reply ("" for an ack).
std::string rematch_reply(e2e::Player& who, const json& message) {
    who.send(message);
    auto reply = who.until_reply(message["ref"]);
    REQUIRE(reply);
    return (*reply)["type"] == "ack" ? std::string() : (*reply)["code"].get<std::string>();
}

// Reads until `who`'s view of `match` shows a rematch for which `holds` is true.
void until_rematch(e2e::Player& who, const std::string& match,
                   const std::function<bool(const json&)>& holds) {
    auto shown = [&] {
        const json& view = who.match(match).view;
        return view.contains("rematch") && holds(view["rematch"]);
    };
    if (shown()) return;
    auto seen = who.until([&](const json&) { return shown(); });
    INFO(who.label() << ": " << who.match(match).view.value("rematch", json()).dump());
    REQUIRE(seen);
}

struct RematchTable {
    test::RunningServer running{e2e::config()};
    e2e::Traffic traffic;
    e2e::Player ann{running.port(), traffic, "Ann"};
    e2e::Player bob{running.port(), traffic, "Bob"};
    e2e::Player eve{running.port(), traffic, "Eve"};
    std::string match;

    explicit RematchTable(const json& settings) {
        e2e::sign_in(ann, running.port(), "Ann");
        e2e::sign_in(bob, running.port(), "Bob");
        e2e::sign_in(eve, running.port(), "Eve");
        match = e2e::start_private_match(ann, bob, settings).match;
        for (e2e::Player* p : {&ann, &bob, &eve}) e2e::open_match(*p, match);
        e2e::sync({&ann, &bob, &eve}, match);
    }
    int seat_of(e2e::Player& p) { return p.match(match).view["you"].get<int>(); }
};

}  // namespace

TEST_CASE("a rematch is offered, declined, offered again and accepted; every viewer follows",
          "[e2e][rematch]") {
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"},
                           {"rated", false}};
    RematchTable t(settings);
    const int ann = t.seat_of(t.ann), bob = t.seat_of(t.bob);

    // Not before the end, and never by a spectator.
    CHECK(rematch_reply(t.bob, rematch_request(t.match, true, "early")) == "wrong_phase");
    CHECK_FALSE(t.ann.match(t.match).view.contains("rematch"));

    t.ann.send({{"type", "match.resign"}, {"ref", "resign"}, {"match", t.match}});
    REQUIRE(t.ann.until_reply("resign"));
    for (e2e::Player* p : {&t.ann, &t.bob, &t.eve})
        until_rematch(*p, t.match, [](const json& r) {
            return r == json{{"yes", json::array()}, {"no", nullptr}, {"match", nullptr}};
        });
    CHECK(rematch_reply(t.eve, rematch_request(t.match, true, "eve")) == "not_authorized");
    CHECK(rematch_reply(t.bob, rematch_request(t.match, false, "nothing")) == "wrong_phase");

    // Ann offers, Bob declines: the offer is gone, and who declined is shown.
    CHECK(rematch_reply(t.ann, rematch_request(t.match, true, "offer")).empty());
    until_rematch(t.bob, t.match, [&](const json& r) { return r["yes"] == json{ann}; });
    CHECK(rematch_reply(t.bob, rematch_request(t.match, false, "decline")).empty());
    for (e2e::Player* p : {&t.ann, &t.bob, &t.eve})
        until_rematch(*p, t.match, [&](const json& r) {
            return r["yes"].empty() && r["no"] == json{{"seat", bob}, {"left", false}};
        });

    // Offered again and accepted: the new match is named to everyone.
    CHECK(rematch_reply(t.ann, rematch_request(t.match, true, "again")).empty());
    until_rematch(t.bob, t.match, [&](const json& r) { return r["no"].is_null(); });
    CHECK(rematch_reply(t.bob, rematch_request(t.match, true, "accept")).empty());
    std::string next;
    for (e2e::Player* p : {&t.ann, &t.bob, &t.eve}) {
        until_rematch(*p, t.match, [](const json& r) { return r["match"].is_string(); });
        const json& r = p->match(t.match).view["rematch"];
        CHECK(r["yes"].size() == 2);
        if (next.empty()) next = r["match"].get<std::string>();
        CHECK(r["match"] == next);
    }
    CHECK(next != t.match);
    CHECK(rematch_reply(t.ann, rematch_request(t.match, true, "late")) == "wrong_phase");

    // The rematch: the seats moved one place, the same settings; the players and the spectator
    // (with the same invite code: a private match stays private) open it.
    e2e::open_match(t.ann, next);
    e2e::open_match(t.bob, next);
    const json& view = t.ann.match(next).view;
    CHECK(view["status"] != "finished");
    CHECK(view["seats"][0]["player"]["id"] == t.bob.player_id());
    CHECK(view["seats"][1]["player"]["id"] == t.ann.player_id());
    CHECK(view["you"] == 1 - ann);
    CHECK_FALSE(view.contains("rematch"));
    t.eve.send({{"type", "match.open"}, {"ref", "peek"}, {"match", next}});
    auto peek = t.eve.until_reply("peek");
    REQUIRE(peek);
    CHECK((*peek)["code"] == "not_authorized");  // private, and Eve holds no code
    e2e::check_traffic(t.traffic);
}

TEST_CASE("a rematch offer lapses when a seat leaves the finished match", "[e2e][rematch]") {
    RematchTable t({{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"rated", false}});
    const int bob = t.seat_of(t.bob);
    t.bob.send({{"type", "match.resign"}, {"ref", "resign"}, {"match", t.match}});
    REQUIRE(t.bob.until_reply("resign"));
    until_rematch(t.ann, t.match, [](const json& r) { return r["yes"].empty(); });
    CHECK(rematch_reply(t.ann, rematch_request(t.match, true, "offer")).empty());
    until_rematch(t.bob, t.match, [](const json& r) { return r["yes"].size() == 1; });
    t.bob.send({{"type", "match.close"}, {"ref", "close"}, {"match", t.match}});
    REQUIRE(t.bob.until_reply("close"));
    for (e2e::Player* p : {&t.ann, &t.eve})
        until_rematch(*p, t.match, [&](const json& r) {
            return r["yes"].empty() && r["no"] == json{{"seat", bob}, {"left", true}} &&
                   r["match"].is_null();
        });
    // Bob comes back: his snapshot shows the lapsed offer (and the schema checks it).
    t.bob.forget(t.match);
    e2e::open_match(t.bob, t.match);
    CHECK(t.bob.match(t.match).view["rematch"] == t.ann.match(t.match).view["rematch"]);
    e2e::check_traffic(t.traffic);
}

TEST_CASE("against the computer the player's offer starts the rematch at once",
          "[e2e][rematch]") {
    server::Config config = e2e::config();
    config.bot_delay = 0ms;
    test::RunningServer running{config};
    e2e::Traffic traffic;
    e2e::Player ann{running.port(), traffic, "Ann"};
    e2e::sign_in(ann, running.port(), "Ann");
    ann.send({{"type", "lobby.create"},
              {"ref", "create"},
              {"settings",
               {{"game", "splendor"}, {"players", 2}, {"bots", 1}, {"bot_level", 1},
                {"public", false}}}});
    auto lobby = ann.until_type("lobby");
    REQUIRE(lobby);
    REQUIRE(ann.until_reply("create"));
    ann.send({{"type", "lobby.start"}, {"ref", "start"}, {"lobby", (*lobby)["lobby"]["id"]}});
    auto closed = ann.until_type("lobby.closed");
    REQUIRE(closed);
    const std::string match = (*closed)["match"].get<std::string>();
    e2e::open_match(ann, match);
    ann.send({{"type", "match.resign"}, {"ref", "resign"}, {"match", match}});
    REQUIRE(ann.until_reply("resign"));
    CHECK(rematch_reply(ann, rematch_request(match, true, "offer")).empty());
    until_rematch(ann, match, [](const json& r) { return r["match"].is_string(); });
    const std::string next = ann.match(match).view["rematch"]["match"].get<std::string>();
    e2e::open_match(ann, next);
    const json& view = ann.match(next).view;
    CHECK(view["game"] == "splendor");
    CHECK(view["seats"][1]["player"]["id"] == ann.player_id());
    CHECK(view["seats"][0]["player"].contains("bot"));
    e2e::check_traffic(traffic);
}
