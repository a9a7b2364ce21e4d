// End to end over real sockets: the chat of a lobby (docs/protocol.md, "Lobby chat"). Members
// talk; a subscriber of the lobby list, a member of another lobby and a kicked member (after the
// kick) never receive a word of it, on any frame; bad texts, strangers and floods are refused
// while the lobby goes on; and all traffic is validated against the schemas.

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace e2e_lobby_chat_test {

using e2e::json;
using namespace std::chrono_literals;

namespace {

// Sends a lobby chat line from `who` and returns the error code of its reply ("" for an ack).
std::string say(e2e::Player& who, const std::string& lobby, const std::string& text,
                const std::string& ref) {
    who.send({{"type", "lobby.chat"}, {"ref", ref}, {"lobby", lobby}, {"text", text}});
    auto reply = who.until_reply(ref);
    REQUIRE(reply);
    return (*reply)["type"] == "ack" ? std::string() : (*reply)["code"].get<std::string>();
}

// True when any frame `who` received holds `text` anywhere.
bool received(e2e::Player& who, const std::string& text) {
    for (const json& message : who.received())
        if (message.dump().find(text) != std::string::npos) return true;
    return false;
}

// True when `who` got (or gets, reading on) the lobby.chat line saying `text`.
bool hears(e2e::Player& who, const std::string& text) {
    auto saying = [&](const json& m) {
        return m.value("type", "") == "lobby.chat" && m["line"]["text"] == text;
    };
    for (const json& m : who.received())
        if (saying(m)) return true;
    return who.until(saying).has_value();
}

std::string create(e2e::Player& host, json settings) {
    host.send({{"type", "lobby.create"}, {"ref", "create"}, {"settings", std::move(settings)}});
    auto lobby = host.until_type("lobby");
    REQUIRE(lobby);
    REQUIRE(host.until_reply("create"));
    return (*lobby)["lobby"]["id"].get<std::string>();
}

void join(e2e::Player& who, const std::string& lobby) {
    who.send({{"type", "lobby.join"}, {"ref", "join"}, {"lobby", lobby}});
    auto reply = who.until_reply("join");
    REQUIRE(reply);
    REQUIRE((*reply)["type"] == "ack");
}

}  // namespace

TEST_CASE("lobby members chat; nobody else ever reads a word of it", "[e2e][chat][lobby]") {
    test::RunningServer running{e2e::config()};
    e2e::Traffic traffic;
    e2e::Player ann{running.port(), traffic, "Ann"};
    e2e::Player bob{running.port(), traffic, "Bob"};
    e2e::Player kim{running.port(), traffic, "Kim"};
    e2e::Player cy{running.port(), traffic, "Cy"};
    e2e::Player wes{running.port(), traffic, "Wes"};
    e2e::sign_in(ann, running.port(), "Ann");
    const e2e::Guest bob_guest = e2e::sign_in(bob, running.port(), "Bob");
    e2e::sign_in(kim, running.port(), "Kim");
    e2e::sign_in(cy, running.port(), "Cy");
    e2e::sign_in(wes, running.port(), "Wes");
    wes.send({{"type", "lobbies.subscribe"}, {"ref", "sub"}});
    REQUIRE(wes.until_reply("sub"));

    const std::string lobby = create(ann, {{"game", "santorini"}, {"players", 3},
                                           {"powers", "simple"}, {"public", true}, {"rated", false}});
    join(bob, lobby);
    join(kim, lobby);
    const std::string other = create(cy, {{"game", "santorini"}, {"players", 2}, {"public", true},
                                          {"rated", false}});

    // Two members talk; every member reads both lines, in order, on every connection.
    const std::string secret = "meet at the blue dome 4711";
    CHECK(say(ann, lobby, "  " + secret + "  ", "a1").empty());
    CHECK(say(bob, lobby, "<b>on my way</b>", "b1").empty());
    for (e2e::Player* p : {&ann, &bob, &kim}) CHECK(hears(*p, "<b>on my way</b>"));
    json first;
    for (const json& m : kim.received())
        if (m.value("type", "") == "lobby.chat" && m["line"]["n"] == 1) first = m;
    CHECK(first["lobby"] == lobby);
    CHECK(first["line"]["text"] == secret);
    CHECK(first["line"]["name"] == "Ann");
    CHECK(first["line"]["player"] == ann.player_id());
    CHECK(first["line"]["at_ms"].get<std::int64_t>() > 0);

    // A new tab (a reload) of a member reads the conversation in its `lobby` event.
    e2e::Player bob_tab{running.port(), traffic, "Bob 2"};
    bob_tab.hello(bob_guest.token);
    auto seen = bob_tab.until_type("lobby");
    REQUIRE(seen);
    REQUIRE((*seen)["lobby"]["chat"].size() == 2);
    CHECK((*seen)["lobby"]["chat"][0]["text"] == secret);
    CHECK((*seen)["lobby"]["chat"][1]["n"] == 2);

    // Refused: bad texts, strangers (another lobby's member, a list subscriber), no such lobby.
    for (const std::string& bad : {std::string(""), std::string("   "), std::string("\u200b"),
                                   std::string(281, 'a'), std::string("two\nlines")})
        CHECK(say(bob, lobby, bad, "bad") == "invalid_field");
    CHECK(say(cy, lobby, "let me in " + secret, "c1") == "not_authorized");
    CHECK(say(wes, lobby, "hello?", "w1") == "not_authorized");
    CHECK(say(ann, "l_nosuchlobby0000", "hello?", "a2") == "unknown_lobby");

    // A flood from Bob: a few lines, then rate_limited; the host's lobby actions go on meanwhile.
    int limited = 0, sent = 0;
    for (int i = 0; i < 8; ++i) {
        const std::string code = say(bob, lobby, "spam " + std::to_string(i), "f" + std::to_string(i));
        if (code == "rate_limited") ++limited;
        else if (code.empty()) ++sent;
    }
    CHECK(limited > 0);
    CHECK(sent < 8);

    // The host kicks Kim: from then on Kim reads nothing of the lobby's chat.
    ann.send({{"type", "lobby.kick"}, {"ref", "kick"}, {"lobby", lobby}, {"player", kim.player_id()}});
    auto kicked = ann.until_reply("kick");
    REQUIRE(kicked);
    CHECK((*kicked)["type"] == "ack");
    auto closed = kim.until_type("lobby.closed");
    REQUIRE(closed);
    CHECK((*closed)["reason"] == "kicked");
    const std::string after_kick = "only the two of us now 0815";
    CHECK(say(ann, lobby, after_kick, "a3").empty());
    CHECK(hears(bob, after_kick));
    CHECK(hears(bob_tab, after_kick));
    CHECK(say(kim, lobby, "wait for me", "k1") == "not_authorized");

    // Nothing of it on any frame of the outsiders, nor in the public lists.
    for (e2e::Player* p : {&kim, &cy, &wes}) e2e::drain(*p, 300ms);
    CHECK_FALSE(received(kim, after_kick));
    for (e2e::Player* p : {&cy, &wes}) {
        INFO(p->label());
        CHECK_FALSE(received(*p, secret));
        CHECK_FALSE(received(*p, "on my way"));
        CHECK_FALSE(received(*p, after_kick));
    }
    CHECK_FALSE(received(wes, "\"chat\""));  // the list never carries a lobby's chat
    const auto list = test::http_request(running.port(), boost::beast::http::verb::get, "/api/lobbies", "");
    CHECK(list.body().find(lobby) != std::string::npos);
    CHECK(list.body().find("chat") == std::string::npos);
    CHECK(list.body().find(secret) == std::string::npos);
    (void)other;

    e2e::check_traffic(traffic);
}

}  // namespace e2e_lobby_chat_test
