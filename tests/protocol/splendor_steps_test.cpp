// Splendor steps as JSON (docs/protocol.md, "Splendor" / "Steps"): every legal step of random
// 2-4 player games goes to JSON and back to the same step; the documented JSON of each kind;
// what cannot be a step is refused as malformed with the reason, and a well-formed step that
// is not legal now (another phase's, a card not on the table) as not legal, naming it.

#include <catch2/catch_test_macros.hpp>
#include <map>
#include <set>
#include <string>

#include "engine/splendor/notation.hpp"
#include "engine/splendor/view.hpp"
#include "protocol/games.hpp"
#include "protocol/messages.hpp"
#include "protocol/splendor/game.hpp"
#include "protocol/splendor/json.hpp"
#include "splendor_support.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using namespace splendor;
using nlohmann::json;
using protocol::canonical_splendor_step;
using protocol::step_from_json;
using protocol::step_json;

namespace {

State position(const std::string& text) {
    auto r = parse_notation(text);
    if (auto* e = std::get_if<std::string>(&r)) FAIL("cannot parse '" << text << "': " << *e);
    return std::get<State>(r);
}

constexpr const char* table = "nobles=0,3,7 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82";

StepList legal_of(const State& s) {
    StepList legal;
    legal_steps(s, legal);
    return legal;
}

std::string error_of(const State& s, const json& j) {
    auto r = step_from_json(legal_of(s), j);
    if (auto* step = std::get_if<Step>(&r))
        FAIL("accepted " << j.dump() << " as " << to_text(*step));
    return std::get<protocol::StepRefusal>(r).why;
}

Step read(const State& s, const json& j) {
    auto r = step_from_json(legal_of(s), j);
    INFO(j.dump());
    if (auto* refused = std::get_if<protocol::StepRefusal>(&r)) FAIL(refused->why);
    return std::get<Step>(r);
}

std::string text_of(const Step& step) {
    std::string out;
    protocol::JsonText w(out);
    protocol::write_step(step, w);
    return out;
}

}  // namespace

TEST_CASE("every legal step of random Splendor games round-trips through JSON",
          "[splendor][steps][random]") {
    std::map<std::string, int> kinds;
    int checked = 0;
    for (int players = 2; players <= 4; ++players)
        for (std::uint64_t seed = 1; seed <= 20; ++seed) {
            const auto g = splendor_test::play_random(players, seed * 7919 + players);
            for (const State& s : g.states) {
                const StepList legal = legal_of(s);
                std::set<std::string> texts;
                for (const Step& step : legal) {
                    const std::string text = text_of(step);
                    const json j = step_json(step);
                    REQUIRE(json::parse(text) == j);  // the writer and the tree agree
                    auto canonical = canonical_splendor_step(j);
                    REQUIRE(std::holds_alternative<json>(canonical));
                    CHECK(std::get<json>(canonical) == j);  // what is written is canonical
                    auto back = step_from_json(legal, json::parse(text));
                    REQUIRE(std::holds_alternative<Step>(back));
                    CHECK(std::get<Step>(back) == step);
                    // Two legal steps never share a JSON: matching would be ambiguous.
                    CHECK(texts.insert(text).second);
                    ++kinds[j["kind"].get<std::string>()];
                    ++checked;
                }
            }
        }
    INFO("steps checked: " << checked);
    for (const char* kind : {"take", "reserve", "buy", "return", "noble"}) {
        INFO(kind);
        CHECK(kinds[kind] > 0);
    }
}

TEST_CASE("Splendor steps have the documented JSON", "[splendor][steps]") {
    Step take{.kind = StepKind::Take};
    take.gems = Tokens{1, 1, 1, 0, 0, 0};
    CHECK(step_json(take) == json::parse(R"({"kind":"take","gems":["white","blue","green"]})"));
    take.gems = Tokens{0, 0, 0, 2, 0, 0};
    CHECK(step_json(take) == json::parse(R"({"kind":"take","gems":["red","red"]})"));
    CHECK(step_json(Step{.kind = StepKind::Reserve, .card = 12}) ==
          json::parse(R"({"kind":"reserve","card":12})"));
    CHECK(step_json(Step{.kind = StepKind::Reserve, .level = 2}) ==
          json::parse(R"({"kind":"reserve","level":2})"));
    Step buy{.kind = StepKind::Buy, .card = 12};
    buy.gems = Tokens{0, 2, 0, 0, 0, 1};
    CHECK(
        text_of(buy) ==
        R"({"kind":"buy","card":12,"pay":{"white":0,"blue":2,"green":0,"red":0,"black":0,"gold":1}})");
    Step give{.kind = StepKind::Return};
    give.gems[Red] = 1;
    CHECK(text_of(give) == R"({"kind":"return","gem":"red"})");
    give.gems = Tokens{0, 0, 0, 0, 0, 1};
    CHECK(text_of(give) == R"({"kind":"return","gem":"gold"})");
    CHECK(text_of(Step{.kind = StepKind::Noble, .noble = 3}) == R"({"kind":"noble","noble":3})");
    CHECK(text_of(Step{.kind = StepKind::Pass}) == R"({"kind":"pass"})");

    const json card = protocol::card_json(47);
    CHECK(card["id"] == 47);
    CHECK(card["level"] == splendor::card(47).level);
    CHECK(card["points"] == splendor::card(47).points);
    CHECK(card["bonus"] == std::string(gem_name(splendor::card(47).bonus)));
    CHECK(card["cost"].size() == 5);
    const json noble = protocol::noble_json(3);
    CHECK(noble["id"] == 3);
    CHECK(noble["points"] == 3);
    CHECK(noble["requires"].size() == 5);
    CHECK(protocol::tokens_json(Tokens{1, 2, 3, 4, 5, 6}) ==
          json::parse(R"({"white":1,"blue":2,"green":3,"red":4,"black":5,"gold":6})"));
}

TEST_CASE("a take is read whatever the order of its colours", "[splendor][steps]") {
    const State s = position(std::string(table) + " A: B:");
    const Step step = read(s, json::parse(R"({"kind":"take","gems":["green","white","blue"]})"));
    CHECK(step.kind == StepKind::Take);
    CHECK(step.gems == Tokens{1, 1, 1, 0, 0, 0});
    auto canonical =
        canonical_splendor_step(json::parse(R"({"kind":"take","gems":["red","black","blue"]})"));
    REQUIRE(std::holds_alternative<json>(canonical));
    CHECK(std::get<json>(canonical)["gems"] == json::parse(R"(["blue","red","black"])"));
}

TEST_CASE("malformed Splendor steps are refused with the reason", "[splendor][steps][errors]") {
    const State s = position(std::string(table) + " A: B:");
    CHECK(error_of(s, json::array()) == "a step must be a JSON object");
    CHECK(error_of(s, json::object()) == "a step needs a 'kind'");
    CHECK(error_of(s, {{"kind", 3}}) == "field 'kind' must be a string");
    CHECK(error_of(s, {{"kind", "move"}, {"from", "B2"}, {"to", "C3"}}) ==
          "unknown step kind 'move'");
    CHECK(error_of(s, {{"kind", "take"}}) == "a take step needs 'gems'");
    CHECK(error_of(s, {{"kind", "pass"}, {"x", 1}}) == "a pass step has no field 'x'");
    CHECK(error_of(s, {{"kind", "take"}, {"gems", {"white"}}, {"card", 1}}) ==
          "a take step has no field 'card'");
    const std::string gems_why =
        "field 'gems' must be a list of up to three different colours, "
        "or two of one colour (white, blue, green, red, black)";
    for (const json& gems : {json::array(), json{"white", "blue", "green", "red"},
                             json{"red", "red", "red"}, json{"red", "red", "blue"}, json{"gold"},
                             json{"purple"}, json{"White"}, json("red"), json{1, 2}}) {
        INFO(gems.dump());
        CHECK(error_of(s, {{"kind", "take"}, {"gems", gems}}) == gems_why);
    }
    CHECK(error_of(s, {{"kind", "reserve"}}) ==
          "a reserve step names either a face-up 'card' or a deck's 'level'");
    CHECK(error_of(s, {{"kind", "reserve"}, {"card", 1}, {"level", 1}}) ==
          "a reserve step names either a face-up 'card' or a deck's 'level'");
    CHECK(error_of(s, {{"kind", "reserve"}, {"card", 90}}) ==
          "field 'card' must be an integer 0..89");
    CHECK(error_of(s, {{"kind", "reserve"}, {"card", -1}}) ==
          "field 'card' must be an integer 0..89");
    CHECK(error_of(s, {{"kind", "reserve"}, {"card", "12"}}) ==
          "field 'card' must be an integer 0..89");
    CHECK(error_of(s, {{"kind", "reserve"}, {"level", 0}}) ==
          "field 'level' must be an integer 1..3");
    CHECK(error_of(s, {{"kind", "reserve"}, {"level", 2.0}}) ==
          "field 'level' must be an integer 1..3");
    CHECK(error_of(s, {{"kind", "buy"}, {"card", 0}}) == "a buy step needs 'pay'");
    const json pay = protocol::tokens_json(Tokens{});
    CHECK(error_of(s, {{"kind", "buy"}, {"pay", pay}}) == "a buy step needs 'card'");
    json short_pay = pay;
    short_pay.erase("gold");
    CHECK(error_of(s, {{"kind", "buy"}, {"card", 0}, {"pay", short_pay}}) ==
          "field 'pay' needs 'gold'");
    json odd_pay = pay;
    odd_pay["silver"] = 1;
    CHECK(error_of(s, {{"kind", "buy"}, {"card", 0}, {"pay", odd_pay}}) ==
          "field 'pay' has no count 'silver'");
    json negative = pay;
    negative["red"] = -1;
    CHECK(error_of(s, {{"kind", "buy"}, {"card", 0}, {"pay", negative}}) ==
          "field 'pay.red' must be an integer 0..10");
    CHECK(error_of(s, {{"kind", "buy"}, {"card", 0}, {"pay", json::array()}}) ==
          "field 'pay' must be an object of the six token counts (white, blue, green, red, black, "
          "gold)");
    CHECK(error_of(s, {{"kind", "return"}}) == "a return step needs 'gem'");
    CHECK(error_of(s, {{"kind", "return"}, {"gem", "ruby"}}) ==
          "field 'gem' must be a token: white, blue, green, red, black or gold");
    CHECK(error_of(s, {{"kind", "noble"}, {"noble", 10}}) ==
          "field 'noble' must be an integer 0..9");
    CHECK(error_of(s, {{"kind", "noble"}}) == "a noble step needs 'noble'");
}

TEST_CASE("a well-formed Splendor step that is not legal now says which",
          "[splendor][steps][errors]") {
    State s = position(std::string(table) + " A: tokens=3,3,3,0,0,0 B:");
    // Not on the table, not affordable, a pile too small for two, another phase's steps.
    CHECK(error_of(s, {{"kind", "reserve"}, {"card", 1}}) == "not legal now: reserve #1");
    CHECK(error_of(s, {{"kind", "buy"},
                       {"card", 70},
                       {"pay", protocol::tokens_json(Tokens{0, 0, 0, 0, 0, 0})}}) ==
          "not legal now: buy #70");
    Step pay{.kind = StepKind::Buy, .card = 0};
    pay.gems = Tokens{0, 2, 0, 0, 0, 1};
    CHECK(error_of(s, step_json(pay)) == "not legal now: buy #0 for blue 2 gold 1");
    CHECK(error_of(s, {{"kind", "return"}, {"gem", "red"}}) == "not legal now: return red");
    CHECK(error_of(s, {{"kind", "noble"}, {"noble", 3}}) == "not legal now: noble #3");
    CHECK(error_of(s, {{"kind", "pass"}}) == "not legal now: pass");
    // The return phase: only returns.
    apply_step(s, read(s, json::parse(R"({"kind":"take","gems":["green","red","black"]})")));
    REQUIRE(s.phase == Phase::Return);
    CHECK(error_of(s, {{"kind", "take"}, {"gems", {"white", "blue", "green"}}}) ==
          "not legal now: take white blue green");
    CHECK(error_of(s, {{"kind", "return"}, {"gem", "gold"}}) == "not legal now: return gold");
    CHECK(read(s, {{"kind", "return"}, {"gem", "black"}}).kind == StepKind::Return);
    // A finished game has no legal step.
    const auto g = splendor_test::play_random(2, 5);
    REQUIRE(decider(g.states.back()) < 0);
    CHECK(error_of(g.states.back(), {{"kind", "pass"}}) == "not legal now: pass");
}

TEST_CASE("the noble phase takes only a noble step", "[splendor][steps][errors]") {
    // Nobles 0 (4 white 4 blue) and 5 (3 white 3 blue 3 green): buying blue card 8 earns both.
    State s = position(
        "nobles=0,5,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 "
        "A: tokens=0,0,0,0,2,0 bought=1,2,3,4,9,10,11,17,18,19 B:");
    Step buy{.kind = StepKind::Buy, .card = 8};
    buy.gems[Black] = 2;
    apply_step(s, read(s, step_json(buy)));
    REQUIRE(s.phase == Phase::Noble);
    CHECK(error_of(s, {{"kind", "noble"}, {"noble", 9}}) == "not legal now: noble #9");
    CHECK(error_of(s, {{"kind", "take"}, {"gems", {"white"}}}) == "not legal now: take white");
    CHECK(read(s, {{"kind", "noble"}, {"noble", 5}}).noble == 5);
}

TEST_CASE("history lines: a reserve from a deck names its card to its owner only",
          "[splendor][steps][history]") {
    const State s =
        position("nobles=0,3,7,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 A: B: C:");
    const Step blind{.kind = StepKind::Reserve, .level = 2};
    const auto lines = protocol::step_lines(s, blind, 0);
    REQUIRE(lines.size() == 4);  // three seats, then spectators
    CHECK(lines[0].starts_with("reserve #"));
    CHECK(lines[0].ends_with(" from the level 2 deck"));
    CHECK(lines[1] == "reserve from the level 2 deck");
    CHECK(lines[2] == "reserve from the level 2 deck");
    CHECK(lines[3] == "reserve from the level 2 deck");
    const auto open = protocol::step_lines(s, Step{.kind = StepKind::Reserve, .card = 40}, 0);
    for (const auto& line : open) CHECK(line == open[0]);
    CHECK(open[0].starts_with("reserve #40 (level 2 "));
}

TEST_CASE("every step passes the parser; the match's game alone says malformed or illegal",
          "[splendor][steps][messages]") {
    auto parse = [](const json& step) {
        return protocol::parse_client_message(
            json{{"type", "match.step"}, {"match", "m_a"}, {"step", step}}.dump());
    };
    protocol::LobbySettings splendor_settings;
    splendor_settings.game = "splendor";
    auto game =
        std::get<std::unique_ptr<protocol::Game>>(protocol::start_game(splendor_settings, 1, 0));
    auto santorini = std::get<std::unique_ptr<protocol::Game>>(
        protocol::start_game(protocol::LobbySettings{}, 1, 0));
    auto refusal = [](protocol::Game& g, const char* text) {
        auto played = g.play(json::parse(text));
        REQUIRE(std::holds_alternative<protocol::StepRefusal>(played));
        return std::get<protocol::StepRefusal>(played);
    };
    using Kind = protocol::StepRefusal::Kind;
    for (
        const char* text :
        {R"({"kind":"take","gems":["white","blue","green"]})", R"({"kind":"reserve","level":2})",
         R"({"kind":"buy","card":12,"pay":{"white":0,"blue":2,"green":0,"red":0,"black":0,"gold":1}})",
         R"({"kind":"return","gem":"gold"})", R"({"kind":"noble","noble":3})", R"({"kind":"pass"})",
         R"({"kind":"move","from":"B2","to":"C3"})", R"({"kind":"take","gems":["gold"]})",
         R"({"kind":"reserve"})", R"({"kind":"teleport"})", R"({"kind":"buy","card":12})",
         R"({"kind":"pass","card":1})", "[]", "null"}) {
        INFO(text);
        auto r = parse(json::parse(text));
        REQUIRE(std::holds_alternative<protocol::ClientMessage>(r));
        CHECK(std::get<protocol::MatchStep>(std::get<protocol::ClientMessage>(r).body).step ==
              json::parse(text));
    }
    for (const char* text :
         {R"({"kind":"take","gems":["gold"]})", R"({"kind":"reserve"})", R"({"kind":"teleport"})",
          R"({"kind":"buy","card":12})", R"({"kind":"pass","card":1})"}) {
        INFO(text);
        CHECK(refusal(*game, text).kind == Kind::Malformed);
    }
    CHECK(refusal(*game, R"({"kind":"teleport"})").why == "unknown step kind 'teleport'");
    CHECK(refusal(*game, R"({"kind":"reserve"})").why ==
          "a reserve step names either a face-up 'card' or a deck's 'level'");

    // A Splendor game finds a Santorini step malformed, and the other way round.
    const std::string hash = game->state_hash();
    const auto move = refusal(*game, R"({"kind":"move","from":"B2","to":"C3"})");
    CHECK(move.kind == Kind::Malformed);
    CHECK(move.why == "unknown step kind 'move'");
    const auto take = refusal(*santorini, R"({"kind":"take","gems":["red","red"]})");
    CHECK(take.kind == Kind::Malformed);
    CHECK(take.why == "unknown step kind 'take'");
    // A refusal changes nothing.
    CHECK(game->state_hash() == hash);
    CHECK_FALSE(game->committed());
}
