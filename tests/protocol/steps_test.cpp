// Steps as JSON: every legal step of real games (drafts, placement, every implemented power,
// 2-4 players, the fleece) goes to JSON and back to the same step, and what is not a legal step
// comes back as an error naming the problem.

#include <catch2/catch_test_macros.hpp>
#include <cctype>
#include <iterator>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "engine/santorini/notation.hpp"
#include "protocol/santorini/json.hpp"
#include "support.hpp"

using namespace santorini;
using nlohmann::json;
using protocol::step_from_json;
using protocol::step_json;

namespace {

// The step a JSON names at `state`, or the error text.
std::variant<Step, protocol::StepRefusal> read(const State& state, const json& j) {
    StepList legal;
    legal_steps(state, legal);
    return step_from_json(state, legal, j);
}

std::string error_of(const State& state, const json& j) {
    auto r = read(state, j);
    if (auto* s = std::get_if<Step>(&r)) FAIL("accepted " << j.dump() << " as " << to_text(*s));
    return std::get<protocol::StepRefusal>(r).why;
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

TEST_CASE("every legal step of games with each implemented power round-trips through JSON",
          "[steps][random][powers]") {
    std::map<std::string, int> kinds_seen;
    std::map<int, std::set<std::string>> powers_seen;  // by number of players
    int checked = 0;
    std::uint64_t seed = 7;
    const int games = protocol_test::random_games(3);  // one per power under the sanitizers
    for (const auto& base : protocol_test::every_power_settings())
        for (int game = 0; game < games; ++game, ++seed) {
            auto settings = base;
            settings.seed = seed * 104729;
            auto g = protocol_test::play_random(settings, seed);
            REQUIRE(g.states.size() > 1);
            for (const State& s : g.states) {
                StepList legal;
                legal_steps(s, legal);
                std::set<std::string> texts;
                for (const Step& step : legal) {
                    json j = step_json(s, step);
                    auto back = step_from_json(s, legal, json::parse(j.dump()));
                    REQUIRE(std::holds_alternative<Step>(back));
                    CHECK(std::get<Step>(back) == step);
                    CHECK(texts.insert(j.dump()).second);
                    ++kinds_seen[j["kind"].get<std::string>()];
                    ++checked;
                }
            }
            for (PowerId p : settings.powers)
                powers_seen[settings.players].insert(std::string(power_info(p).key));
        }
    INFO("steps checked: " << checked);
    // The kinds today's powers produce: Selene's female placement and dome, Charon's force,
    // Ares' removal, Medusa's capture, Morpheus' and Dionysus' passes.
    for (const char* kind :
         {"place", "move", "build", "dome", "force", "remove", "capture", "pass"})
        CHECK(kinds_seen[kind] > 0);
    for (int players = 2; players <= 4; ++players)
        for (const auto& key : protocol_test::implemented_power_keys(players)) {
            INFO(players << " players: " << key);
            CHECK(powers_seen[players].count(key) == 1);
        }
}

TEST_CASE("the steps of the new powers read back from positions", "[steps][powers]") {
    auto only = [](const State& s, const json& j) {
        auto r = read(s, j);
        if (auto* e = std::get_if<protocol::StepRefusal>(&r)) FAIL(j.dump() << ": " << e->why);
        return std::get<Step>(r);
    };
    // Selene: the female worker (C3) domes next to her although the male one moved.
    State selene = position("00000/00000/00000/00000/00000 A:B2,C3f B:E5,E1 A powers=Selene,Pan");
    apply_step(selene, only(selene, {{"kind", "move"}, {"from", "B2"}, {"to", "A1"}}));
    Step dome = only(selene, {{"kind", "dome"}, {"from", "C3"}, {"to", "D3"}});
    CHECK(dome == Step::build(1, 12, 13, true));
    // Charon: the worker on C3 is ferried over B2 to A1 before B2 moves.
    State charon = position("00000/00000/00000/00000/00000 A:B2,E5 B:C3,E1 A powers=Charon,Pan");
    Step force = only(charon, {{"kind", "force"}, {"from", "C3"}, {"to", "A1"}});
    CHECK(force == Step(StepKind::Force, 0, 12, 0, 2));
    CHECK(to_text(force) == "force C3 A1");
    // Ares: the unmoved worker removes a neighbouring block at the turn's end; or passes.
    State ares = position("00000/00000/00000/01000/00000 A:A1,E5 B:C5,E1 A powers=Ares,Pan");
    apply_step(ares, only(ares, {{"kind", "move"}, {"from", "E5"}, {"to", "E4"}}));
    apply_step(ares, only(ares, {{"kind", "build"}, {"from", "E4"}, {"to", "D4"}}));
    CHECK(only(ares, {{"kind", "remove"}, {"from", "A1"}, {"to", "B2"}}) ==
          Step(StepKind::Remove, 0, 0, 6, -1));
    CHECK(std::holds_alternative<Step>(read(ares, {{"kind", "pass"}})));
    // Morpheus: builds several times from the card, the same square again, then passes.
    State morpheus =
        position("00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Morpheus,Pan counter=2,0");
    apply_step(morpheus, only(morpheus, {{"kind", "move"}, {"from", "A1"}, {"to", "B2"}}));
    for (int i = 0; i < 2; ++i)
        apply_step(morpheus, only(morpheus, {{"kind", "build"}, {"from", "B2"}, {"to", "C3"}}));
    CHECK(morpheus.board.height(12) == 2);
    apply_step(morpheus, only(morpheus, {{"kind", "pass"}}));
    CHECK(morpheus.turn.seat == 1);
    // Dionysus: in the additional turn he moves an opponent's worker, or declines it.
    State dionysus = position(
        "00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Dionysus,Pan counter=1,0 "
        "extra_turn=1");
    CHECK(std::holds_alternative<Step>(read(dionysus, {{"kind", "pass"}})));
    CHECK(only(dionysus, {{"kind", "move"}, {"from", "C5"}, {"to", "C4"}}) ==
          Step::move(2, 22, 17));
    CHECK(error_of(dionysus, {{"kind", "move"}, {"from", "A1"}, {"to", "A2"}}) ==
          "not legal now: move A1 A2");
}

TEST_CASE("kinds no power plays yet round-trip against a list that holds them", "[steps]") {
    // Capture, aim, select and a power's own token are read by the same canonical matching;
    // a list holding them (as the powers to come will make) gives each back exactly.
    State s = position("00000/00000/00000/00000/00000 A:B2,D2 B:B4,D4 A");
    StepList legal;
    const std::vector<Step> steps = {
        Step{StepKind::Capture, 0, 6, 7, 2}, Step{StepKind::Aim, -1, no_square, no_square, 7},
        Step{StepKind::Select, 1, 8, no_square, 0}, Step{StepKind::Token, 0, 6, 12, 3},
        Step{StepKind::Token, -1, no_square, 13, 0}};
    for (const Step& st : steps) legal.push_back(st);
    for (const Step& st : steps) {
        json j = step_json(s, st);
        INFO(j.dump());
        auto back = step_from_json(s, legal, json::parse(j.dump()));
        REQUIRE(std::holds_alternative<Step>(back));
        CHECK(std::get<Step>(back) == st);
    }
    CHECK(step_json(s, steps[1]) == json{{"kind", "aim"}, {"direction", "NW"}});
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

TEST_CASE("a step read by its key directly is read as through its canonical form, mutated or not",
          "[steps][random][powers]") {
    // step_from_json reads a well-formed step's key straight from its JSON and leaves the rest
    // to step_from_json_canonical; the two must give the same step or the same refusal for any
    // input. The inputs: every legal step of games with every power, written as clients may
    // write them, and each with one member removed, added or given another value.
    const std::vector<json> values = {"A1",
                                      "e5",
                                      "C3",
                                      "F1",
                                      "a0",
                                      "A",
                                      "Apollo",
                                      "apollo",
                                      "Athena",
                                      "EuropaTalus",
                                      "Europa & Talus",
                                      "Nobody",
                                      "N",
                                      "ne",
                                      "Sw",
                                      "NN",
                                      "move",
                                      "",
                                      0,
                                      1,
                                      2,
                                      3,
                                      4,
                                      -1,
                                      127,
                                      128,
                                      1.5,
                                      true,
                                      false,
                                      nullptr,
                                      json::array(),
                                      json::object(),
                                      std::uint64_t{1} << 63,
                                      -(std::int64_t{1} << 40)};
    const std::vector<std::string> keys = {"kind",        "from",      "to",    "worker",
                                           "power",       "seat",      "token", "female",
                                           "before_move", "direction", "extra"};
    const std::vector<std::string> kinds = {"place",    "move", "build",  "dome",    "force",
                                            "remove",   "pass", "offer",  "choose",  "start_player",
                                            "token",    "aim",  "select", "capture", "undo",
                                            "end_turn", "jump"};
    std::mt19937 rng(20261202);
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    int compared = 0, read_as_steps = 0, refused = 0;
    std::uint64_t seed = 11;
    const int games = protocol_test::random_games(1);
    auto settings_list = protocol_test::every_power_settings();
    const auto varied = protocol_test::varied_settings();
    settings_list.insert(settings_list.end(), varied.begin(), varied.end());
    for (const auto& base : settings_list)
        for (int game = 0; game < games; ++game, ++seed) {
            auto settings = base;
            settings.seed = seed * 15485863;
            const auto g = protocol_test::play_random(settings, seed, 40);
            for (const State& s : g.states) {
                StepList legal;
                legal_steps(s, legal);
                // Three steps of each position, each as written and three times mutated.
                for (int n = 0; n < 3 && !legal.empty(); ++n) {
                    const Step& step =
                        legal[static_cast<int>(pick(static_cast<std::size_t>(legal.size())))];
                    const json j = step_json(s, step);
                    for (int m = 0; m < 4; ++m) {
                        json input = j;
                        switch (m == 0 ? 0 : 1 + pick(4)) {
                            case 0:
                                break;
                            case 1:  // a member removed
                                if (input.size() > 0) {
                                    auto it = input.begin();
                                    std::advance(it, static_cast<long>(pick(input.size())));
                                    input.erase(it);
                                }
                                break;
                            case 2:  // a member added or replaced
                                input[keys[pick(keys.size())]] = values[pick(values.size())];
                                break;
                            case 3:  // another kind
                                input["kind"] = kinds[pick(kinds.size())];
                                break;
                            default:  // a value written as a client might: any case, flags false
                                for (auto& [key, value] : input.items())
                                    if (value.is_string() && key != "kind" && pick(2) == 0) {
                                        std::string t = value.get<std::string>();
                                        for (char& c : t)
                                            c = static_cast<char>(
                                                std::tolower(static_cast<unsigned char>(c)));
                                        value = t;
                                    }
                                if (pick(2) == 0) input[pick(2) ? "female" : "before_move"] = false;
                                break;
                        }
                        const auto fast = step_from_json(s, legal, input);
                        const auto canonical = protocol::step_from_json_canonical(s, legal, input);
                        INFO(input.dump());
                        REQUIRE(fast.index() == canonical.index());
                        if (const auto* a = std::get_if<Step>(&fast)) {
                            CHECK(*a == std::get<Step>(canonical));
                            ++read_as_steps;
                        } else {
                            const auto& x = std::get<protocol::StepRefusal>(fast);
                            const auto& y = std::get<protocol::StepRefusal>(canonical);
                            CHECK(x.kind == y.kind);
                            CHECK(x.why == y.why);
                            ++refused;
                        }
                        ++compared;
                    }
                }
            }
        }
    INFO("compared " << compared << ", steps " << read_as_steps << ", refused " << refused);
    CHECK(compared > 1000);
    CHECK(read_as_steps > compared / 4);
    CHECK(refused > compared / 10);
}
