// The chat of a match against PostgreSQL (docs/protocol.md "Chat", docs/api.md "Replay"): every
// line is stored (table match_chat) before it is shown, a match restored after a restart shows
// its stored lines again (each viewer its own channel), and a finished match's replay serves
// both channels, for a private match only with its invite code.

#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/api/fetch_json.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

using e2e::json;
using api_test::fetch_json;

namespace {

// Sends a chat line and REQUIREs its ack.
void chat_acked(e2e::Player& who, const std::string& match, const std::string& text,
                const std::string& ref) {
    who.send({{"type", "match.chat"}, {"ref", ref}, {"match", match}, {"text", text}});
    auto reply = who.until_reply(ref);
    REQUIRE(reply);
    INFO(reply->dump());
    REQUIRE((*reply)["type"] == "ack");
}

// The texts of a list of chat lines, in order.
std::vector<std::string> stored_chat_texts(const json& lines) {
    std::vector<std::string> texts;
    for (const json& line : lines) texts.push_back(line["text"]);
    return texts;
}

}  // namespace

TEST_CASE("chat lines are stored, restored after a restart and served with a private replay",
          "[api][chat]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    auto running = std::make_unique<test::RunningServer>(config);
    e2e::Traffic traffic;
    const std::uint16_t first_port = running->port();
    auto a = std::make_unique<e2e::Player>(first_port, traffic, "ann");
    auto b = std::make_unique<e2e::Player>(first_port, traffic, "bob");
    auto e = std::make_unique<e2e::Player>(first_port, traffic, "eve");
    const e2e::Guest ann = e2e::sign_in(*a, first_port, "Ann");
    e2e::sign_in(*b, first_port, "Bob");
    const e2e::Guest eve = e2e::sign_in(*e, first_port, "Eve");
    const e2e::Started started = e2e::start_private_match(
        *a, *b, {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"rated", false}});
    const std::string match = started.match;
    for (e2e::Player* p : {a.get(), b.get(), e.get()}) e2e::open_match(*p, match);

    chat_acked(*a, match, "hello from Ann", "a1");
    chat_acked(*e, match, "Eve watches", "e1");
    chat_acked(*b, match, "hi <Ann> & all", "b1");
    // Stored once acknowledged, each in its channel.
    CHECK(schema.scalar("SELECT count(*) FROM match_chat WHERE match_id = '" + match + "'") == "3");
    CHECK(schema.scalar("SELECT channel || ':' || coalesce(seat::text, '-') || ':' || name FROM "
                        "match_chat WHERE match_id = '" + match + "' AND number = 2") ==
          "spectators:-:Eve");
    // While live the replay serves no chat.
    CHECK(fetch_json(first_port, "/api/matches/" + match + "/replay?code=" + started.code)["chat"] ==
          json::array());

    // A restart: the restored match shows each viewer its channel again.
    a.reset();
    b.reset();
    e.reset();
    running.reset();
    running = std::make_unique<test::RunningServer>(config);
    const std::uint16_t port = running->port();
    a = std::make_unique<e2e::Player>(port, traffic, "ann");
    e = std::make_unique<e2e::Player>(port, traffic, "eve");
    a->hello(ann.token);
    e->hello(eve.token);
    e2e::open_match(*a, match);
    e2e::open_match(*e, match);
    CHECK(stored_chat_texts(a->match(match).view["chat"]) ==
          std::vector<std::string>{"hello from Ann", "hi <Ann> & all"});
    CHECK(stored_chat_texts(e->match(match).view["chat"]) == std::vector<std::string>{"Eve watches"});
    // Numbers go on after the stored ones.
    chat_acked(*a, match, "still here", "a2");
    // The patch comes before the ack (as for a step): the line is in Ann's view already.
    REQUIRE(a->match(match).view["chat"].size() == 3);
    CHECK(a->match(match).view["chat"][2]["n"] == 4);

    // The end; the replay serves both channels, with the code only.
    a->send({{"type", "match.resign"}, {"ref", "resign"}, {"match", match}});
    REQUIRE(a->until_reply("resign"));
    const std::string replay = "/api/matches/" + match + "/replay";
    fetch_json(port, replay, boost::beast::http::status::forbidden);
    const json served = fetch_json(port, replay + "?code=" + started.code);
    CHECK(stored_chat_texts(served["chat"]) ==
          std::vector<std::string>{"hello from Ann", "Eve watches", "hi <Ann> & all", "still here"});
    const json& line = served["chat"][1];
    CHECK(line["channel"] == "spectators");
    CHECK(line["seat"].is_null());
    CHECK(line["player"] == eve.id);
    CHECK(line["name"] == "Eve");
    CHECK(served["chat"][0]["seat"] == a->match(match).view["you"]);
    e2e::check_traffic(traffic);
}
