// Steps as JSON: every legal step of real games (drafts, placement, every implemented power,
// 2-4 players, the fleece) goes to JSON and back to the same step, and what is not a legal step
// comes back as an error naming the problem.

#include <catch2/catch_test_macros.hpp>
#include <map>
#include <set>
#include <string>

#include "engine/santorini/notation.hpp"
#include "protocol/santorini_json.hpp"
#include "support.hpp"

using namespace santorini;
using nlohmann::json;
using protocol::step_from_json;
using protocol::step_json;

namespace {

// The step a JSON names at `state`, or the error text.
std::variant<Step, std::string> read(const State& state, const json& j) {
    StepList legal;
    legal_steps(state, legal);
    return step_from_json(state, legal, j);
}

std::string error_of(const State& state, const json& j) {
    auto r = read(state, j);
    if (auto* s = std::get_if<Step>(&r)) FAIL("accepted " << j.dump() << " as " << to_text(*s));
    return std::get<std::string>(r);
}

State position(const char* notation) {
    auto r = parse_notation(notation);
    REQUIRE(r.ok());
    return *r;
}

}  // namespace

TEST_CASE("every legal step of random games round-trips through JSON", "[steps][random]") {
    std::map<std::string, int> kinds_seen;
    std::set<std::string> powers_seen;
    int checked = 0;
    std::uint64_t seed = 1;
    for (const auto& base : protocol_test::varied_settings())
        for (int game = 0; game < 12; ++game, ++seed) {
            auto settings = base;
            settings.seed = seed * 7919;
            auto g = protocol_test::play_random(settings, seed);
            REQUIRE(!g.states.empty());
            for (const State& s : g.states) {
                StepList legal;
                legal_steps(s, legal);
                std::set<std::string> texts;
                for (const Step& step : legal) {
                    json j = step_json(s, step);
                    // Through text, as it travels.
                    json wire = json::parse(j.dump());
                    auto back = step_from_json(s, legal, wire);
                    REQUIRE(std::holds_alternative<Step>(back));
                    CHECK(std::get<Step>(back) == step);
                    // Two legal steps never share a JSON: matching would be ambiguous.
                    CHECK(texts.insert(j.dump()).second);
                    ++kinds_seen[j["kind"].get<std::string>()];
                    ++checked;
                }
                for (int seat = 0; seat < s.seat_count; ++seat)
                    if (s.seat(seat).power != PowerId::None)
                        powers_seen.insert(std::string(power_info(s.seat(seat).power).key));
            }
        }
    INFO("steps checked: " << checked);
    for (const char* kind :
         {"offer", "choose", "start_player", "place", "token", "move", "build", "dome", "pass"})
        CHECK(kinds_seen[kind] > 0);
    CHECK(powers_seen.size() >= 8);
}

TEST_CASE("steps have the documented JSON", "[steps]") {
    State s;
    CHECK(step_json(s, Step::move(0, 6, 12)) ==
          json{{"kind", "move"}, {"from", "B2"}, {"to", "C3"}});
    CHECK(step_json(s, Step::build(0, 12, 18)) ==
          json{{"kind", "build"}, {"from", "C3"}, {"to", "D4"}});
    CHECK(step_json(s, Step::build(0, 12, 18, false, true)) ==
          json{{"kind", "build"}, {"from", "C3"}, {"to", "D4"}, {"before_move", true}});
    CHECK(step_json(s, Step::build(0, 12, 18, true)) ==
          json{{"kind", "dome"}, {"from", "C3"}, {"to", "D4"}});
    CHECK(step_json(s, Step::place(1, 12)) == json{{"kind", "place"}, {"to", "C3"}});
    CHECK(step_json(s, Step::place(1, 12, true)) ==
          json{{"kind", "place"}, {"to", "C3"}, {"female", true}});
    CHECK(step_json(s, Step::pass()) == json{{"kind", "pass"}});
    CHECK(step_json(s, Step::offer(PowerId::Apollo)) ==
          json{{"kind", "offer"}, {"power", "Apollo"}});
    CHECK(step_json(s, Step::choose(PowerId::EuropaTalus)) ==
          json{{"kind", "choose"}, {"power", "EuropaTalus"}});
    CHECK(step_json(s, Step::start_player(1)) == json{{"kind", "start_player"}, {"seat", 1}});
    CHECK(step_json(s, Step{StepKind::Token, -1, no_square, 12, 0}) ==
          json{{"kind", "token"}, {"to", "C3"}, {"token", 0}});
    CHECK(step_json(s, Step{StepKind::Token, 0, 12, 13, 2}) ==
          json{{"kind", "token"}, {"to", "D3"}, {"token", 2}, {"from", "C3"}});
    CHECK(step_json(s, Step{StepKind::Force, -1, 18, 24, 1}) ==
          json{{"kind", "force"}, {"from", "D4"}, {"to", "E5"}});
    CHECK(step_json(s, Step{StepKind::Remove, 0, 12, 18, -1}) ==
          json{{"kind", "remove"}, {"from", "C3"}, {"to", "D4"}});
    CHECK(step_json(s, Step{StepKind::Capture, 0, 12, 18, 2}) ==
          json{{"kind", "capture"}, {"from", "C3"}, {"to", "D4"}});
    CHECK(step_json(s, Step{StepKind::Aim, -1, no_square, no_square, 1}) ==
          json{{"kind", "aim"}, {"direction", "NE"}});
    CHECK(step_json(s, Step{StepKind::Select, 0, 12, no_square, 0}) ==
          json{{"kind", "select"}, {"worker", "C3"}});
}

TEST_CASE("a step is found whatever the case of squares, powers and optional false flags",
          "[steps]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D2 B:B4,D4 A powers=Prometheus,Apollo");
    auto r = read(s, {{"kind", "move"}, {"from", "b2"}, {"to", "c3"}});
    REQUIRE(std::holds_alternative<Step>(r));
    CHECK(to_text(std::get<Step>(r)) == "move B2 C3");
    auto first = read(s, {{"kind", "build"}, {"from", "B2"}, {"to", "C3"}, {"before_move", true}});
    REQUIRE(std::holds_alternative<Step>(first));
    CHECK(to_text(std::get<Step>(first)) == "build B2 C3 first");
    // before_move:false is the same as leaving it out, which is not a build yet (move first).
    CHECK(error_of(s, {{"kind", "build"}, {"from", "B2"}, {"to", "C3"}, {"before_move", false}}) ==
          "not legal now: build B2 C3");
}

TEST_CASE("draft steps are read by power name or key, any case", "[steps][draft]") {
    Settings st;
    st.draft = DraftMode::FullOffer;
    auto s = new_game(st);
    REQUIRE(s.ok());
    auto offer = read(*s, {{"kind", "offer"}, {"power", "apollo"}});
    REQUIRE(std::holds_alternative<Step>(offer));
    CHECK(std::get<Step>(offer) == Step::offer(PowerId::Apollo));
    CHECK(error_of(*s, {{"kind", "choose"}, {"power", "Apollo"}}) ==
          "not legal now: choose Apollo");
    CHECK(error_of(*s, {{"kind", "offer"}, {"power", "Nobody"}}).find("power") !=
          std::string::npos);
    CHECK(error_of(*s, {{"kind", "offer"}}).find("'power'") != std::string::npos);
    CHECK(error_of(*s, {{"kind", "start_player"}, {"seat", 0}}) == "not legal now: start A");
}

TEST_CASE("malformed steps are refused with the reason", "[steps][errors]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D2 B:B4,D4 A");
    CHECK(error_of(s, json::array()) == "a step must be a JSON object");
    CHECK(error_of(s, "move B2 C3") == "a step must be a JSON object");
    CHECK(error_of(s, json::object()) == "a step needs a 'kind'");
    CHECK(error_of(s, {{"kind", 1}}) == "field 'kind' must be a string");
    CHECK(error_of(s, {{"kind", "teleport"}}) == "unknown step kind 'teleport'");
    CHECK(error_of(s, {{"kind", "move"}, {"from", "B2"}}) == "a move step needs 'to'");
    CHECK(error_of(s, {{"kind", "move"}, {"from", "B2"}, {"to", "F9"}}) ==
          "field 'to' must be a square A1..E5");
    CHECK(error_of(s, {{"kind", "move"}, {"from", 12}, {"to", "C3"}}) ==
          "field 'from' must be a square A1..E5");
    CHECK(error_of(s, {{"kind", "move"}, {"from", "B2"}, {"to", "C3"}, {"worker", 0}}) ==
          "a move step has no field 'worker'");
    CHECK(error_of(s, {{"kind", "place"}, {"to", "C3"}, {"female", "yes"}}) ==
          "field 'female' must be true or false");
    CHECK(error_of(s, {{"kind", "start_player"}, {"seat", 7}}).find("'seat'") != std::string::npos);
    CHECK(error_of(s, {{"kind", "start_player"}, {"seat", -1}}).find("'seat'") !=
          std::string::npos);
    CHECK(error_of(s, {{"kind", "aim"}, {"direction", "UP"}}).find("'direction'") !=
          std::string::npos);
    CHECK(error_of(s, {{"kind", "token"}, {"to", "C3"}, {"token", 1.5}}).find("'token'") !=
          std::string::npos);
}

TEST_CASE("a well-formed step that is not legal now says which", "[steps][errors]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D2 B:B4,D4 A");
    CHECK(error_of(s, {{"kind", "move"}, {"from", "B4"}, {"to", "C3"}}) ==
          "not legal now: move B4 C3");  // not A's worker
    CHECK(error_of(s, {{"kind", "move"}, {"from", "B2"}, {"to", "B4"}}) ==
          "not legal now: move B2 B4");  // occupied, far
    CHECK(error_of(s, {{"kind", "build"}, {"from", "B2"}, {"to", "C3"}}) ==
          "not legal now: build B2 C3");  // move first
    CHECK(error_of(s, {{"kind", "pass"}}) == "not legal now: pass");
    CHECK(error_of(s, {{"kind", "place"}, {"to", "C3"}, {"female", true}}) ==
          "not legal now: place C3 female");
    CHECK(error_of(s, {{"kind", "token"}, {"to", "C3"}}) == "not legal now: token C3");
    CHECK(error_of(s, {{"kind", "aim"}, {"direction", "ne"}}) == "not legal now: aim NE");
    CHECK(error_of(s, {{"kind", "select"}, {"worker", "B2"}}) == "not legal now: select B2");
    CHECK(error_of(s, {{"kind", "capture"}, {"from", "B2"}, {"to", "B3"}}) ==
          "not legal now: capture B2 B3");
    // After the move, the build is legal and the move no longer is.
    auto moved = read(s, {{"kind", "move"}, {"from", "B2"}, {"to", "C3"}});
    REQUIRE(std::holds_alternative<Step>(moved));
    State after = s;
    apply_step(after, std::get<Step>(moved));
    CHECK(std::holds_alternative<Step>(
        read(after, {{"kind", "build"}, {"from", "C3"}, {"to", "C4"}})));
    CHECK(error_of(after, {{"kind", "move"}, {"from", "C3"}, {"to", "C4"}}) ==
          "not legal now: move C3 C4");
}

TEST_CASE("a finished game has no legal step", "[steps][errors]") {
    Settings st;
    st.seed = 5;
    auto g = protocol_test::play_random(st, 5, 2000);
    REQUIRE(g.states.back().over());
    CHECK(error_of(g.states.back(), {{"kind", "pass"}}) == "not legal now: pass");
}
