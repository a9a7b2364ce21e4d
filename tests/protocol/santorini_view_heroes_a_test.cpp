// The hero cards of Achilles to Heracles in the state document: `spent` from the first step of
// a use, Adonis' `charmed` worker from his choice until his opponent's next turn ends.

#include <catch2/catch_test_macros.hpp>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using namespace santorini;
using nlohmann::json;

namespace {
State at(const std::string& text) {
    auto parsed = parse_notation(text);
    REQUIRE(parsed.ok());
    return *parsed;
}

void play(State& s, std::initializer_list<const char*> steps) {
    for (const char* text : steps) {
        INFO(text);
        auto st = parse_step(s, text);
        REQUIRE(st.has_value());
        REQUIRE_FALSE(try_step(s, *st).has_value());
    }
}
}  // namespace

TEST_CASE("hero cards: spent and Adonis' charmed worker in the state document",
          "[state][cards][heroes]") {
    State s = at("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Adonis,Heracles");
    json j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["spent"] == false);
    CHECK(j["cards"][0]["charmed"] == nullptr);
    CHECK(j["cards"][1]["spent"] == false);
    CHECK_FALSE(j["cards"][1].contains("charmed"));
    play(s, {"move B2 B3", "build B3 B2", "select A5"});
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["spent"] == true);
    CHECK(j["cards"][0]["charmed"] == 2);  // the worker on A5
    play(s, {"move A5 A4", "build A4 A5", "dome A4 B4"});
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][1]["spent"] == true);  // from Heracles' first dome, his turn still going on
    play(s, {"pass"});
    j = protocol::state_json(s, nullptr);
    CHECK(j["cards"][0]["charmed"] == nullptr);  // forgotten when that turn ended
}
