// End to end over real sockets: the chat of a match (docs/protocol.md, "Chat"). Two players and
// a spectator write; the players read the players' channel and the spectator the spectators'
// while the match is on (the spectator's words never reach a player's connection), and from the
// end on everyone reads both. Bad texts are refused, a flood is rate limited while the game goes
// on, and all traffic is validated against the schemas.

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

// Sends a chat line from `who` and returns the error code of its reply ("" for an ack).
std::string chat_reply(e2e::Player& who, const std::string& match, const std::string& text,
                       const std::string& ref) {
    who.send({{"type", "match.chat"}, {"ref", ref}, {"match", match}, {"text", text}});
    auto reply = who.until_reply(ref);
    REQUIRE(reply);
    return (*reply)["type"] == "ack" ? std::string() : (*reply)["code"].get<std::string>();
}

// The texts of the chat lines `who`'s view of `match` shows, in order.
std::vector<std::string> chat_texts(e2e::Player& who, const std::string& match) {
    std::vector<std::string> texts;
    for (const json& line : who.match(match).view["chat"]) texts.push_back(line["text"]);
    return texts;
}

// True when any message `who` received holds `text` anywhere.
bool chat_received(e2e::Player& who, const std::string& text) {
    for (const json& message : who.received())
        if (message.dump().find(text) != std::string::npos) return true;
    return false;
}

}  // namespace

TEST_CASE("players and spectators chat on their own channels until the end", "[e2e][chat]") {
    test::RunningServer running{e2e::config()};
    e2e::Traffic traffic;
    e2e::Player ann{running.port(), traffic, "Ann"};
    e2e::Player bob{running.port(), traffic, "Bob"};
    e2e::Player eve{running.port(), traffic, "Eve"};
    e2e::Player zed{running.port(), traffic, "Zed"};
    e2e::sign_in(ann, running.port(), "Ann");
    e2e::sign_in(bob, running.port(), "Bob");
    e2e::sign_in(eve, running.port(), "Eve");
    e2e::sign_in(zed, running.port(), "Zed");
    const std::string match =
        e2e::start_private_match(ann, bob, {{"game", "santorini"}, {"players", 2},
                                            {"powers", "none"}, {"rated", false}})
            .match;
    for (e2e::Player* p : {&ann, &bob, &eve}) e2e::open_match(*p, match);
    e2e::sync({&ann, &bob, &eve}, match);
    CHECK(ann.match(match).view["chat"] == json::array());

    // The players' channel: both players read it, the spectator does not.
    CHECK(chat_reply(ann, match, "  good luck, Bob  ", "a1").empty());
    CHECK(chat_reply(bob, match, "<b>x</b>", "b1").empty());
    e2e::sync({&ann, &bob, &eve}, match);
    for (e2e::Player* p : {&ann, &bob})
        CHECK(chat_texts(*p, match) == std::vector<std::string>{"good luck, Bob", "<b>x</b>"});
    const json first = ann.match(match).view["chat"][0];
    CHECK(first["channel"] == "players");
    CHECK(first["seat"] == 0);
    CHECK(first["name"] == "Ann");
    CHECK(first["player"] == ann.player_id());
    CHECK(first["at_ms"].get<std::int64_t>() > 0);
    CHECK(eve.match(match).view["chat"] == json::array());

    // The spectators' channel: never on a player's connection while the match is on.
    const std::string secret = "only spectators read this 4711";
    CHECK(chat_reply(eve, match, secret, "e1").empty());
    e2e::sync({&ann, &bob, &eve}, match);
    CHECK(chat_texts(eve, match) == std::vector<std::string>{secret});
    CHECK(eve.match(match).view["chat"][0]["seat"].is_null());
    CHECK(eve.match(match).view["chat"][0]["channel"] == "spectators");
    CHECK(eve.match(match).view["chat"][0]["name"] == "Eve");

    // Refused texts change nothing: empty, only spaces or invisible, too long, control characters.
    for (const std::string& bad :
         {std::string(""), std::string("    "), std::string("\u200b\u200b"), std::string(281, 'a'),
          std::string("two\nlines"), std::string("bell\a")})
        CHECK(chat_reply(ann, match, bad, "bad") == "invalid_field");
    CHECK(chat_reply(ann, match, std::string(280, 'a'), "long").empty());
    std::string accents;
    for (int i = 0; i < 280; ++i) accents += "\u00e9";  // 280 characters, 560 bytes
    CHECK(chat_reply(bob, match, accents, "accents").empty());
    // Who has not opened the match writes nothing (a private match: Zed has no code either).
    CHECK(chat_reply(zed, match, "hello?", "z1") == "not_authorized");

    // A flood: a few lines at once, then rate_limited; the game goes on.
    int limited = 0, sent = 0;
    for (int i = 0; i < 8; ++i) {
        const std::string code = chat_reply(bob, match, "spam " + std::to_string(i), "f" + std::to_string(i));
        if (code == "rate_limited") ++limited;
        else if (code.empty()) ++sent;
    }
    CHECK(limited > 0);
    CHECK(sent < 8);
    e2e::sync({&ann, &bob, &eve}, match);
    for (int n = 1; n <= 2; ++n) e2e::play_first_legal({&ann, &bob}, {&ann, &bob, &eve}, match, n);

    // Still live: nothing of the spectators' reached the players.
    e2e::drain(ann, 200ms);
    e2e::drain(bob, 200ms);
    CHECK_FALSE(chat_received(ann, secret));
    CHECK_FALSE(chat_received(bob, secret));

    // The end: everyone reads both channels, in the order they were written.
    ann.send({{"type", "match.resign"}, {"ref", "resign"}, {"match", match}});
    REQUIRE(ann.until_reply("resign"));
    e2e::sync({&ann, &bob, &eve}, match);
    const json all = ann.match(match).view["chat"];
    CHECK(bob.match(match).view["chat"] == all);
    CHECK(eve.match(match).view["chat"] == all);
    bool has_secret = false, has_luck = false;
    for (const json& line : all) {
        has_secret = has_secret || line["text"] == secret;
        has_luck = has_luck || line["text"] == "good luck, Bob";
    }
    CHECK(has_secret);
    CHECK(has_luck);
    for (std::size_t i = 1; i < all.size(); ++i) CHECK(all[i - 1]["n"] < all[i]["n"]);

    // After the end a spectator's line reaches the players too; a fresh snapshot shows it all.
    CHECK(chat_reply(eve, match, "well played", "e2").empty());
    e2e::sync({&ann, &bob, &eve}, match);
    CHECK(chat_texts(ann, match).back() == "well played");
    bob.send({{"type", "match.close"}, {"ref", "close"}, {"match", match}});
    REQUIRE(bob.until_reply("close"));
    bob.forget(match);
    e2e::open_match(bob, match);
    CHECK(bob.match(match).view["chat"] == ann.match(match).view["chat"]);
    e2e::check_traffic(traffic);
}
