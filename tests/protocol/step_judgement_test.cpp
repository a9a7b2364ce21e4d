// One judgement of a client's step (docs/protocol.md, "match.step"): the parser passes the
// step on untouched, and the match's game alone says, in one call of Game::play, whether it is
// malformed (invalid_field), illegal (illegal_step) or played. Shown for both games through
// the Game interface, the way the match asks.

#include <catch2/catch_test_macros.hpp>

#include <memory>
#include <string>
#include <variant>

#include "engine/santorini/notation.hpp"
#include "protocol/game.hpp"
#include "protocol/games.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/messages.hpp"
#include "protocol/santorini/game.hpp"

using nlohmann::json;
using protocol::StepRefusal;

namespace {

// The verdict the game gives `step`, and that a refused step left the game as it was.
std::variant<protocol::Played, StepRefusal> judge(protocol::Game& game, const json& step) {
    const std::string before = game.state_hash();
    auto verdict = game.play(step);
    if (std::holds_alternative<StepRefusal>(verdict)) CHECK(game.state_hash() == before);
    return verdict;
}

StepRefusal refusal(protocol::Game& game, const json& step) {
    auto verdict = judge(game, step);
    REQUIRE(std::holds_alternative<StepRefusal>(verdict));
    return std::get<StepRefusal>(verdict);
}

// The first legal step in the decider's view, as a client reads it.
json first_legal(const protocol::Game& game) {
    std::string text;
    protocol::JsonText out(text);
    game.write_state(*game.view(game.decider()), out);
    return json::parse(text).at("legal").at(0);
}

// The parser extracts the step as it came: no game is asked.
void passes_parser(const json& step) {
    auto parsed = protocol::parse_client_message(
        json{{"type", "match.step"}, {"match", "m_a"}, {"step", step}}.dump());
    REQUIRE(std::holds_alternative<protocol::ClientMessage>(parsed));
    CHECK(std::get<protocol::MatchStep>(std::get<protocol::ClientMessage>(parsed).body).step ==
          step);
}

}  // namespace

TEST_CASE("a Santorini step is judged malformed, illegal or played in one call",
          "[steps][judgement]") {
    auto state = santorini::parse_notation("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
    REQUIRE(state.ok());
    protocol::SantoriniGame santorini(*state);
    protocol::Game& game = santorini;

    const json malformed = {{"kind", "move"}, {"from", "B2"}, {"to", "Z9"}};
    const json illegal = {{"kind", "move"}, {"from", "B2"}, {"to", "B4"}};  // Bob's worker
    const json legal = {{"kind", "move"}, {"from", "B2"}, {"to", "B3"}};
    for (const json& step : {malformed, illegal, legal}) passes_parser(step);

    const StepRefusal bad = refusal(game, malformed);
    CHECK(bad.kind == StepRefusal::Kind::Malformed);
    CHECK(bad.why.find("'to'") != std::string::npos);

    const StepRefusal not_now = refusal(game, illegal);
    CHECK(not_now.kind == StepRefusal::Kind::Illegal);
    CHECK(not_now.why == "not legal now: move B2 B4");

    const std::string before = game.state_hash();
    auto played = judge(game, legal);
    REQUIRE(std::holds_alternative<protocol::Played>(played));
    CHECK(json::parse(std::get<protocol::Played>(played).record) == legal);
    CHECK(game.state_hash() != before);
    CHECK(game.committed());
}

TEST_CASE("a Splendor step is judged malformed, illegal or played in one call",
          "[splendor][steps][judgement]") {
    protocol::LobbySettings settings;
    settings.game = "splendor";
    auto started = protocol::start_game(settings, 1, 0);
    REQUIRE(std::holds_alternative<std::unique_ptr<protocol::Game>>(started));
    protocol::Game& game = *std::get<std::unique_ptr<protocol::Game>>(started);

    const json malformed = {{"kind", "take"}, {"gems", {"gold"}}};  // gold is never taken
    const json santorini_step = {{"kind", "move"}, {"from", "B2"}, {"to", "C3"}};
    const json illegal = {{"kind", "return"}, {"gem", "red"}};  // nothing to give back
    const json legal = first_legal(game);
    for (const json& step : {malformed, santorini_step, illegal, legal}) passes_parser(step);

    CHECK(refusal(game, malformed).kind == StepRefusal::Kind::Malformed);
    const StepRefusal other_game = refusal(game, santorini_step);
    CHECK(other_game.kind == StepRefusal::Kind::Malformed);
    CHECK(other_game.why == "unknown step kind 'move'");

    const StepRefusal not_now = refusal(game, illegal);
    CHECK(not_now.kind == StepRefusal::Kind::Illegal);
    CHECK(not_now.why == "not legal now: return red");

    const std::string before = game.state_hash();
    auto played = judge(game, legal);
    REQUIRE(std::holds_alternative<protocol::Played>(played));
    CHECK(json::parse(std::get<protocol::Played>(played).record) == legal);
    CHECK(game.state_hash() != before);
    CHECK(game.committed());
}
