// Taking back steps through the protocol's Santorini game (docs/protocol.md, "Taking back a
// step (undo) and confirming turns"): `undo` is listed for the mover while its turn's steps may
// be taken back, restores the state (and its legal steps and hash) before the last one, is
// recorded and read by everyone as "undo", never crosses a turn, is never offered to another
// seat, and its patches bring every viewer to its restored view. Hecate's hidden moves taken
// back tell her opponents and spectators nothing.

#include <catch2/catch_test_macros.hpp>

#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"
#include "engine/santorini/state_hash.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/santorini/game.hpp"
#include "protocol/turn_undo.hpp"
#include "tests/protocol/support.hpp"

using namespace santorini;
using nlohmann::json;

namespace {

const json undo_step = {{"kind", "undo"}};
const json end_turn_step = {{"kind", "end_turn"}};

protocol::SantoriniGame game_at(const char* notation) {
    auto s = parse_notation(notation);
    if (!s.ok()) FAIL("cannot parse '" << notation << "': " << s.error().message);
    return protocol::SantoriniGame(*s);
}

json document(const protocol::Game& g, int viewer) {
    std::string out;
    protocol::JsonText w(out);
    g.write_state(*g.view(viewer), w);
    return json::parse(out);
}

// The decider's legal steps as JSON.
json legal_of(const protocol::Game& g) { return document(g, g.decider()).value("legal", json::array()); }

bool offers_undo(const protocol::Game& g) {
    for (const auto& st : legal_of(g))
        if (st == undo_step) return true;
    return false;
}

// Plays a step given as JSON text; it must be accepted.
protocol::Played play(protocol::Game& g, const json& step) {
    INFO("step " << step.dump());
    auto r = g.play(step);
    if (auto* refused = std::get_if<protocol::StepRefusal>(&r)) FAIL("refused: " << refused->why);
    return std::get<protocol::Played>(r);
}

json move(const char* from, const char* to) { return {{"kind", "move"}, {"from", from}, {"to", to}}; }
json build(const char* from, const char* to) { return {{"kind", "build"}, {"from", from}, {"to", to}}; }

// Every viewer's view and document, to patch from.
struct Watch {
    std::vector<int> viewers;
    std::vector<std::unique_ptr<protocol::GameView>> views;
    std::vector<json> docs;
    explicit Watch(const protocol::Game& g) {
        for (int v = 0; v < g.seat_count(); ++v) viewers.push_back(v);
        viewers.push_back(protocol::spectators);
        take(g);
    }
    void take(const protocol::Game& g) {
        views.clear();
        docs.clear();
        for (int v : viewers) {
            views.push_back(g.view(v));
            docs.push_back(document(g, v));
        }
    }
    // Each viewer's patch from its last view applied to its last document gives its new one;
    // the patches (as text) are returned by viewer.
    std::vector<std::string> patches_to(const protocol::Game& g) {
        std::vector<std::string> out;
        for (std::size_t i = 0; i < viewers.size(); ++i) {
            auto now = g.view(viewers[i]);
            std::string text;
            protocol::PatchText patch(text);
            g.write_patch(*views[i], *now, patch);
            patch.finish();
            json doc = json{{"state", docs[i]}};
            json ops = json::array();
            for (auto& op : json::parse(text))
                if (!op["path"].get<std::string>().starts_with("/seats/")) ops.push_back(op);
            doc.patch_inplace(ops);
            INFO("viewer " << viewers[i] << " patch " << text);
            CHECK(doc == json{{"state", document(g, viewers[i])}});
            out.push_back(text);
        }
        take(g);
        return out;
    }
};

}  // namespace

TEST_CASE("undo restores the state, its legal steps and its hash; several in a row", "[undo][protocol]") {
    auto g = game_at("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=1");
    const State start = g.state();
    const json start_doc = document(g, 0);
    CHECK_FALSE(offers_undo(g));
    CHECK(std::get<protocol::StepRefusal>(g.play(undo_step)).why.starts_with("not legal now"));

    play(g, move("B2", "B3"));
    const State moved = g.state();
    const json moved_doc = document(g, 0);
    CHECK(offers_undo(g));
    play(g, build("B3", "C3"));
    CHECK(document(g, 0)["phase"] == "confirm");
    CHECK(legal_of(g) == json::array({end_turn_step, undo_step}));

    auto played = play(g, undo_step);
    CHECK(played.record == R"({"kind":"undo"})");
    CHECK(played.lines == std::vector<std::string>(3, "undo"));
    CHECK(g.state() == moved);
    CHECK(document(g, 0) == moved_doc);
    CHECK(g.state_hash() == state_hash(moved));

    play(g, undo_step);
    CHECK(g.state() == start);
    CHECK(document(g, 0) == start_doc);
    CHECK(g.state_hash() == state_hash(start));
    CHECK_FALSE(offers_undo(g));

    // Another way this time, then the turn is confirmed: no undo across it.
    play(g, move("B2", "A2"));
    play(g, build("A2", "A3"));
    play(g, end_turn_step);
    CHECK(g.decider() == 1);
    CHECK(g.turns() == static_cast<std::uint32_t>(start.turn.number + 1));
    CHECK_FALSE(offers_undo(g));
    CHECK(std::holds_alternative<protocol::StepRefusal>(g.play(undo_step)));
}

TEST_CASE("undo: without confirm turns the turn's end closes the door", "[undo][protocol]") {
    auto g = game_at("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
    play(g, move("B2", "B3"));
    CHECK(offers_undo(g));
    play(g, build("B3", "C3"));
    CHECK(g.decider() == 1);
    CHECK_FALSE(offers_undo(g));
    play(g, move("B4", "A4"));
    CHECK(offers_undo(g));  // B's own step in B's turn
    play(g, undo_step);
    CHECK(g.state().turn.seat == 1);
    CHECK(g.state().board.height(*parse_square("C3")) == 1);  // A's build stays
}

TEST_CASE("undo is never offered to another seat: views of the others and Gaea's interrupt", "[undo][protocol][gaea]") {
    auto g = game_at("00030/00110/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,- reserve=2,0 confirm=1");
    play(g, move("C3", "C4"));
    CHECK(offers_undo(g));
    CHECK_FALSE(document(g, 0).contains("legal"));
    CHECK_FALSE(document(g, protocol::spectators).contains("legal"));
    play(g, json{{"kind", "dome"}, {"from", "C4"}, {"to", "D5"}});
    REQUIRE(g.decider() == 0);  // Gaea decides out of turn
    CHECK_FALSE(offers_undo(g));
    play(g, json{{"kind", "place"}, {"to", "E4"}});
    REQUIRE(g.decider() == 1);
    CHECK(legal_of(g) == json::array({end_turn_step}));  // her decision closed the door
}

TEST_CASE("undo: a concession forgets the steps that could be taken back", "[undo][protocol][concede]") {
    auto g = game_at("00000/00000/00000/00000/00000 A:B2 B:B4 C:D2 A confirm=1");
    play(g, move("B2", "B3"));
    REQUIRE(offers_undo(g));
    CHECK_FALSE(g.concede(2).has_value());
    CHECK(g.decider() == 0);
    CHECK_FALSE(offers_undo(g));
}

TEST_CASE("undo: every viewer's patch gives its restored view", "[undo][protocol]") {
    auto g = game_at("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=1");
    Watch w(g);
    const std::vector<json> start_docs = w.docs;
    play(g, move("B2", "B3"));
    w.patches_to(g);
    const std::vector<json> moved_docs = w.docs;
    play(g, build("B3", "C3"));
    w.patches_to(g);
    play(g, undo_step);
    w.patches_to(g);
    CHECK(w.docs == moved_docs);
    play(g, undo_step);
    w.patches_to(g);
    CHECK(w.docs == start_docs);
}

TEST_CASE("undo: Hecate's hidden moves taken back leak nothing to her opponent or spectators", "[undo][protocol][hecate]") {
    auto g = game_at("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 A powers=Hecate,- confirm=1");
    Watch w(g);
    const std::vector<json> start_docs = w.docs;
    auto moved = play(g, move("C3", "C4"));
    w.patches_to(g);
    CHECK(moved.lines[1] == "move");  // the opponent reads only the kind
    play(g, build("C4", "D4"));
    w.patches_to(g);
    auto first = play(g, undo_step);
    auto patches = w.patches_to(g);
    auto second = play(g, undo_step);
    auto more = w.patches_to(g);
    patches.insert(patches.end(), more.begin(), more.end());
    CHECK(first.lines == std::vector<std::string>(3, "undo"));
    CHECK(second.lines == first.lines);
    CHECK(w.docs == start_docs);
    // Seat 0 is Hecate; the opponent (1) and the spectators (2 in `patches` order, then again).
    for (std::size_t i : {std::size_t{1}, std::size_t{2}, std::size_t{4}, std::size_t{5}})
        for (const char* square : {"C3", "C4", "E5"}) {
            INFO("patch " << patches[i]);
            CHECK(patches[i].find(square) == std::string::npos);
        }
    CHECK(document(g, 1).dump().find("C3") == std::string::npos);
}

TEST_CASE("undo in random games: restores each earlier state, replays bit for bit, games end", "[undo][protocol][random]") {
    std::mt19937_64 rng(140);
    int games = 0, finished = 0, undos = 0;
    auto eligible = eligible_powers(2, false);
    for (int n = 0; n < protocol_test::random_games(120); ++n) {
        Settings st;
        st.draft = DraftMode::Fixed;
        st.start_player = 0;
        st.seed = rng();
        st.confirm_turns = n % 2 == 0;
        PowerId a = eligible[rng() % eligible.size()], b = eligible[rng() % eligible.size()];
        if (a == b || banned_pair(a, b)) continue;
        st.powers = {a, b};
        ++games;
        protocol::SantoriniGame g(*new_game(st));
        protocol::SantoriniGame replay(*new_game(st));
        std::vector<State> mine;  // what the mover may go back to, kept here independently
        for (int k = 0; k < 4000 && !g.over(); ++k) {  // heroes (Atalanta, Heracles) make long turns
            json legal = legal_of(g);
            const bool can_undo = offers_undo(g);
            CHECK(can_undo == !mine.empty());
            json step = legal[rng() % legal.size()];
            if (can_undo && rng() % 4 == 0) step = undo_step;  // often, so games go back a lot
            const State before = g.state();
            auto played = play(g, step);
            play(replay, json::parse(played.record));
            REQUIRE(replay.state_hash() == g.state_hash());
            REQUIRE(legal_of(replay) == legal_of(g));
            if (step == undo_step) {
                ++undos;
                REQUIRE(g.state() == mine.back());
                mine.pop_back();
            } else if (g.state().turn.number == before.turn.number && g.state().turn.seat == before.turn.seat &&
                       offers_undo(g)) {
                mine.push_back(before);
                if (mine.size() > protocol::TurnUndo<State>::limit) mine.erase(mine.begin());
            } else {
                mine.clear();
            }
        }
        finished += g.over();
    }
    INFO(games << " games, " << finished << " finished, " << undos << " undos");
    CHECK(finished == games);
    CHECK(undos > games * 5);
}
