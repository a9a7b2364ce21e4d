// Taking back Splendor steps through protocol::SplendorGame (docs/protocol.md, "Taking back a
// step"): an undo restores the state and its legal steps, several in a row, never past a step
// that showed a card, never for another seat, never after a concession; it is recorded as
// {"kind":"undo"} with the line "undo" for everyone; every viewer's patch gives the restored
// view; and a card reserved from a deck reaches no one else around undos either.

#include <catch2/catch_test_macros.hpp>
#include <memory>
#include <string>
#include <vector>

#include "engine/splendor/game.hpp"
#include "engine/splendor/notation.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/splendor/game.hpp"
#include "protocol/splendor/json.hpp"
#include "tests/protocol/game_text.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using namespace splendor;
using nlohmann::json;

namespace {

constexpr const char* table = "nobles=0,3,7 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82";

protocol::SplendorGame game_at(const std::string& text) {
    auto r = parse_notation(text);
    if (auto* e = std::get_if<std::string>(&r)) FAIL("cannot parse '" << text << "': " << *e);
    return protocol::SplendorGame(std::get<State>(r));
}

const json undo = {{"kind", "undo"}};
const json end_turn = {{"kind", "end_turn"}};

// Plays `step` (JSON), which must be legal; returns what was played.
protocol::Played play(protocol::SplendorGame& g, const json& step) {
    INFO(step.dump() << " in " << to_notation(g.state()));
    auto r = g.play(step);
    if (auto* refused = std::get_if<protocol::StepRefusal>(&r)) FAIL(refused->why);
    return std::get<protocol::Played>(std::move(r));
}

std::string refused(protocol::SplendorGame& g, const json& step) {
    const State before = g.state();
    auto r = g.play(step);
    REQUIRE(std::holds_alternative<protocol::StepRefusal>(r));
    CHECK(g.state() == before);
    return std::get<protocol::StepRefusal>(r).why;
}

bool offers_undo(const protocol::SplendorGame& g) {
    return !g.legal().empty() && g.legal().back().kind == StepKind::Undo;
}

std::vector<std::string> kinds(const protocol::SplendorGame& g) {
    std::vector<std::string> out;
    for (const Step& s : g.legal()) out.emplace_back(protocol::splendor_kind_name(s.kind));
    return out;
}

using protocol_test::doc_text;
using protocol_test::patch_text;

// Every viewer of a game (seats, spectators, the replay's) with its view and document, kept
// up to date by patches only, as a match's viewers are.
struct Audience {
    struct Viewer {
        int who;
        std::unique_ptr<protocol::GameView> view;
        json doc;
        std::vector<std::string> received;  ///< every patch and line it was sent
    };
    std::vector<Viewer> viewers;

    explicit Audience(const protocol::SplendorGame& g) {
        for (int s = 0; s < g.seat_count(); ++s) viewers.push_back({s, nullptr, {}, {}});
        viewers.push_back({protocol::spectators, nullptr, {}, {}});
        viewers.push_back({protocol::revealed, nullptr, {}, {}});
        for (auto& v : viewers) {
            v.view = g.view(v.who);
            const std::string text = doc_text(g, *v.view);
            v.doc = json::parse(text);
            v.received.push_back(text);
        }
    }
    // After a step: each viewer gets its patch and its line; the patched document must be the
    // one written whole.
    void update(const protocol::SplendorGame& g, const protocol::Played& played) {
        for (auto& v : viewers) {
            auto next = g.view(v.who);
            const std::string patch = patch_text(g, *v.view, *next);
            v.doc.patch_inplace(json::parse(patch));
            CHECK(v.doc == json::parse(doc_text(g, *next)));
            v.received.push_back(patch);
            const std::size_t line = v.who >= 0 ? static_cast<std::size_t>(v.who)
                                                : played.lines.size() - 1;  // spectators
            if (v.who != protocol::revealed) v.received.push_back(played.lines[line]);
            v.view = std::move(next);
        }
    }
    std::vector<json> docs() const {
        std::vector<json> out;
        for (const auto& v : viewers) out.push_back(v.doc);
        return out;
    }
};

bool names_card(const std::string& text, int id) {
    return text.find("\"id\":" + std::to_string(id) + ",\"level\"") != std::string::npos ||
           text.find("#" + std::to_string(id) + " (") != std::string::npos;
}

}  // namespace

TEST_CASE("undo restores the state and its legal steps; recorded, 'undo' for everyone",
          "[splendor][undo]") {
    auto g = game_at(std::string(table) + " confirm=1 A: B:");
    const State start = g.state();
    const auto legal_at_start = g.legal();
    CHECK_FALSE(offers_undo(g));  // nothing played yet
    CHECK(refused(g, undo) == "not legal now: undo");
    play(g, {{"kind", "take"}, {"gems", {"white", "blue", "green"}}});
    CHECK(g.state().phase == Phase::Confirm);
    CHECK(kinds(g) == std::vector<std::string>{"end_turn", "undo"});
    auto played = play(g, undo);
    CHECK(json::parse(played.record) == undo);
    REQUIRE(played.lines.size() == 3);
    for (const auto& line : played.lines) CHECK(line == "undo");
    CHECK(g.state() == start);
    CHECK(g.legal() == legal_at_start);
    CHECK(g.committed());  // an undo is a step: the match can no longer be aborted
    CHECK(refused(g, undo) == "not legal now: undo");
}

TEST_CASE("undo several steps in a row: returns, then the take", "[splendor][undo]") {
    auto g = game_at(std::string(table) + " confirm=1 A: tokens=3,3,3,0,0,0 B:");
    std::vector<State> states{g.state()};
    std::vector<splendor::StepList> legals{g.legal()};
    for (const json& step : {json{{"kind", "take"}, {"gems", {"green", "red", "black"}}},
                             json{{"kind", "return"}, {"gem", "black"}},
                             json{{"kind", "return"}, {"gem", "white"}}}) {
        play(g, step);
        CHECK(offers_undo(g));
        states.push_back(g.state());
        legals.push_back(g.legal());
    }
    CHECK(g.state().phase == Phase::Confirm);
    CHECK(g.undoable() == 3);
    for (int back = 2; back >= 0; --back) {
        play(g, undo);
        CHECK(g.state() == states[static_cast<std::size_t>(back)]);
        CHECK(g.legal() == legals[static_cast<std::size_t>(back)]);
        CHECK(g.undoable() == static_cast<std::size_t>(back));
    }
    CHECK_FALSE(offers_undo(g));
    // Played differently the second time.
    play(g, {{"kind", "take"}, {"gems", {"white", "blue", "green"}}});
    CHECK(g.state().seat(0).tokens == Tokens{4, 4, 4, 0, 0, 0});
    CHECK(g.undoable() == 1);
}

TEST_CASE("no undo after a buy or a reserve that showed a card, nor after end_turn",
          "[splendor][undo]") {
    auto buy = game_at(std::string(table) + " confirm=1 A: tokens=0,3,0,0,0,0 B:");
    play(buy, {{"kind", "buy"}, {"card", 0}, {"pay", protocol::tokens_json(Tokens{0, 3})}});
    CHECK(kinds(buy) == std::vector<std::string>{"end_turn"});
    CHECK(refused(buy, undo) == "not legal now: undo");

    auto reserve = game_at(std::string(table) + " confirm=1 A: B:");
    play(reserve, {{"kind", "reserve"}, {"card", 8}});
    CHECK(kinds(reserve) == std::vector<std::string>{"end_turn"});
    auto blind = game_at(std::string(table) + " confirm=1 A: B:");
    play(blind, {{"kind", "reserve"}, {"level", 3}});
    CHECK(kinds(blind) == std::vector<std::string>{"end_turn"});

    auto ended = game_at(std::string(table) + " confirm=1 A: B:");
    play(ended, {{"kind", "take"}, {"gems", {"white", "blue", "green"}}});
    play(ended, end_turn);
    CHECK(ended.decider() == 1);
    CHECK_FALSE(offers_undo(ended));  // B has played nothing; A's turn is gone
    CHECK(refused(ended, undo) == "not legal now: undo");
}

TEST_CASE("without confirm turns an undo is on offer only while the turn lasts",
          "[splendor][undo]") {
    auto g = game_at(std::string(table) + " A: tokens=3,3,3,0,0,0 B:");
    play(g, {{"kind", "take"}, {"gems", {"green", "red", "black"}}});
    CHECK(offers_undo(g));  // returns are still to come
    play(g, {{"kind", "return"}, {"gem", "black"}});
    CHECK(offers_undo(g));
    play(g, {{"kind", "return"}, {"gem", "red"}});
    CHECK(g.decider() == 1);  // the turn passed by itself
    CHECK_FALSE(offers_undo(g));
    CHECK(refused(g, end_turn) == "not legal now: end turn");
}

TEST_CASE("a concession clears what could be taken back", "[splendor][undo]") {
    auto g = game_at("nobles=0,3,7,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 confirm=1 "
                     "A: B: C:");
    play(g, {{"kind", "take"}, {"gems", {"white", "blue", "green"}}});
    REQUIRE(offers_undo(g));
    REQUIRE_FALSE(g.concede(2));  // C resigns while A waits to end its turn
    CHECK(g.decider() == 0);
    CHECK(kinds(g) == std::vector<std::string>{"end_turn"});
    CHECK(g.undoable() == 0);
    play(g, end_turn);
    CHECK(g.decider() == 1);
}

TEST_CASE("every viewer's patch after an undo gives back its view from before the step",
          "[splendor][undo][views]") {
    auto g = game_at(std::string(table) + " confirm=1 A: tokens=3,3,3,0,0,0 B: tokens=1,0,0,0,0,0");
    Audience audience(g);
    std::vector<std::vector<json>> before;
    for (const json& step : {json{{"kind", "take"}, {"gems", {"green", "red", "black"}}},
                             json{{"kind", "return"}, {"gem", "green"}},
                             json{{"kind", "return"}, {"gem", "green"}}}) {
        before.push_back(audience.docs());
        audience.update(g, play(g, step));
    }
    CHECK(audience.viewers[0].doc["state"]["phase"] == "confirm");
    CHECK(audience.viewers[1].doc["state"].contains("legal") == false);
    while (!before.empty()) {
        audience.update(g, play(g, undo));
        CHECK(audience.docs() == before.back());
        before.pop_back();
    }
    CHECK(audience.viewers[0].doc["state"]["phase"] == "action");
}

TEST_CASE("a blind reserve's card reaches no one else around undos", "[splendor][undo][hidden]") {
    // A holds 10 tokens: the gold of a reserve means a return, which may be taken back; an
    // undo then stops at the reserve. Card 79 is the top of the level 3 deck.
    auto g = game_at(std::string(table) + " deck3=79,... confirm=1 A: tokens=2,2,2,2,2,0 B:");
    Audience audience(g);
    auto step = [&](const json& s) {
        auto played = play(g, s);
        audience.update(g, played);
        return played;
    };
    step({{"kind", "take"}, {"gems", {"white", "blue", "green"}}});
    CHECK(offers_undo(g));
    step(undo);
    auto reserved = step({{"kind", "reserve"}, {"level", 3}});
    CHECK(names_card(reserved.lines[0], 79));
    REQUIRE(g.state().phase == Phase::Return);
    CHECK_FALSE(offers_undo(g));  // the card was seen: the reserve stands
    step({{"kind", "return"}, {"gem", "gold"}});
    CHECK(offers_undo(g));
    step(undo);
    CHECK(g.state().phase == Phase::Return);
    CHECK(g.state().seat(0).reserved[0] == Reserved{79, true});
    CHECK_FALSE(offers_undo(g));
    step({{"kind", "return"}, {"gem", "white"}});
    step(end_turn);
    step({{"kind", "take"}, {"gems", {"blue", "green", "red"}}});
    step(undo);
    step({{"kind", "take"}, {"gems", {"green", "red", "black"}}});
    step(end_turn);
    for (const auto& v : audience.viewers) {
        const bool sees = v.who == 0 || v.who == protocol::revealed;
        bool named = false;
        for (const auto& text : v.received) named = named || names_card(text, 79);
        INFO("viewer " << v.who);
        CHECK(named == sees);
        CHECK(names_card(v.doc.dump(), 79) == sees);
    }
}
