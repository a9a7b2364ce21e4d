// The Splendor views through protocol::SplendorGame, against an oracle and against the
// patches: random games with 2, 3 and 4 players (now and then a seat concedes), and at every
// step, for every viewer (each seat, spectators and the `revealed` viewer of replays):
//   - the view's document (the seats' members and `state`) is exactly the oracle's, a tree
//     built here from the engine's view as docs/protocol.md describes it;
//   - the patch from the previous view applies (nlohmann's json::patch) to the previous
//     document and gives exactly the new one; a view patched to itself is empty;
//   - views that `same` calls equal write the same text;
//   - a card reserved from a deck appears (as a card object, or `#N` in a history line) in
//     no document, patch or line of anyone but its owner and `revealed` until it is bought;
//     its owner and `revealed` do see it;
// and now and then a patch from an earlier view, as a resuming viewer needs, applies the same.
// The same again with confirm_turns, where undo is often on offer: each undo gives every viewer
// back, through its patch, the document it had before the step taken back.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "engine/splendor/game.hpp"
#include "engine/splendor/notation.hpp"
#include "engine/splendor/view.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/splendor/game.hpp"
#include "protocol/splendor/json.hpp"
#include "splendor_support.hpp"
#include "tests/protocol/game_text.hpp"

using namespace splendor;
using nlohmann::json;

namespace {

// ---- the oracle: the documented `state`, built as a tree from the engine's view ----

json colours(const Colours& c) {
    json j;
    for (int k = 0; k < gem_colours; ++k)
        j[std::string(gem_name(static_cast<Gem>(k)))] = c[static_cast<std::size_t>(k)];
    return j;
}

json tokens(const Tokens& t) {
    json j;
    for (int k = 0; k < token_kinds; ++k)
        j[std::string(gem_name(static_cast<Gem>(k)))] = t[static_cast<std::size_t>(k)];
    return j;
}

json card_tree(int id) {
    if (id < 0) return nullptr;
    const Card& c = card(id);
    return {{"id", id},
            {"level", c.level},
            {"bonus", std::string(gem_name(c.bonus))},
            {"points", c.points},
            {"cost", colours(c.cost)}};
}

json nobles_tree(unsigned bits) {
    json out = json::array();
    for (int id = 0; id < noble_count; ++id)
        if (bits >> id & 1u)
            out.push_back({{"id", id},
                           {"points", noble(id).points},
                           {"requires", colours(noble(id).requirements)}});
    return out;
}

json oracle_state(const View& v, int decider, const StepList* legal) {
    static constexpr const char* phases[] = {"action", "return", "noble", "over", "confirm"};
    json rows = json::array();
    for (const auto& row : v.rows) {
        json r = json::array();
        for (int c : row) r.push_back(card_tree(c));
        rows.push_back(r);
    }
    json hands = json::array(), winners = json::array();
    for (int s = 0; s < v.players; ++s) {
        const SeatView& h = v.seats[static_cast<std::size_t>(s)];
        json reserved = json::array();
        for (int r = 0; r < h.reserved_count; ++r) {
            const ReservedView& rv = h.reserved[static_cast<std::size_t>(r)];
            reserved.push_back(
                {{"card", card_tree(rv.card)}, {"level", rv.level}, {"blind", rv.blind}});
        }
        hands.push_back({{"tokens", tokens(h.tokens)},
                         {"bonuses", colours(h.bonuses)},
                         {"points", h.points},
                         {"cards", h.cards},
                         {"reserved", reserved},
                         {"nobles", nobles_tree(h.nobles)},
                         {"out", h.out}});
        if (v.winners >> s & 1u) winners.push_back(s);
    }
    json j = {{"phase", phases[static_cast<int>(v.phase)]},
              {"decider", decider >= 0 ? json(decider) : json(nullptr)},
              {"turn", v.turn},
              {"players", v.players},
              {"start_player", v.start_player},
              {"final_round", v.final_round},
              {"supply", tokens(v.supply)},
              {"decks", {v.deck_size[0], v.deck_size[1], v.deck_size[2]}},
              {"rows", rows},
              {"nobles", nobles_tree(v.nobles)},
              {"hands", hands},
              {"winners", winners}};
    if (legal) {
        json steps = json::array();
        for (const Step& s : *legal) steps.push_back(protocol::step_json(s));
        j["legal"] = steps;
    }
    return j;
}

json oracle_doc(const protocol::SplendorGame& game, int viewer) {
    const View v = view_for(game.state(), viewer == protocol::revealed ? revealed
                                          : viewer < 0                 ? spectator
                                                                       : viewer);
    const int decider = game.decider();
    json seats = json::array();
    for (int s = 0; s < v.players; ++s)
        seats.push_back({{"out", v.seats[static_cast<std::size_t>(s)].out},
                         {"points", v.seats[static_cast<std::size_t>(s)].points}});
    return {{"seats", seats},
            {"state",
             oracle_state(v, decider, viewer >= 0 && viewer == decider ? &game.legal() : nullptr)}};
}

// ---- what SplendorGame writes ----

using protocol_test::doc_text;
using protocol_test::patch_text;

// The cards reserved from a deck, by id, with their owner.
std::map<int, int> blind_reserves(const State& s) {
    std::map<int, int> out;
    for (int seat = 0; seat < s.players; ++seat)
        for (int r = 0; r < s.seat(seat).reserved_count; ++r)
            if (const Reserved& res = s.seat(seat).reserved[static_cast<std::size_t>(r)]; res.blind)
                out[res.card] = seat;
    return out;
}

bool names_card_object(const std::string& text, int id) {
    return text.find("{\"id\":" + std::to_string(id) + ",\"level\"") != std::string::npos;
}

// A line names a card as "#47 (level 2 red, 2 points)"; "noble #6" is a noble.
bool names_card_in_line(const std::string& line, int id) {
    return line.find("#" + std::to_string(id) + " (") != std::string::npos;
}

struct Viewer {
    int who;
    std::unique_ptr<protocol::GameView> view;
    json doc;
};

struct Saved {
    std::size_t viewer;
    std::shared_ptr<protocol::GameView> view;
    json doc;
};

struct Totals {
    int games = 0, steps = 0, concessions = 0, blind = 0, patches = 0, resumes = 0, over = 0,
        undos = 0;
};

// With `confirm`, the lobby setting confirm_turns: every turn waits for end_turn, and undo is
// on offer after most steps; each undo must give every viewer back the document it had before
// the step it takes back.
void play_and_check(int players, std::uint64_t seed, Totals& totals, bool confirm = false) {
    INFO("players " << players << " seed " << seed << " confirm " << confirm);
    auto start = splendor_test::new_state(
        players, static_cast<int>(seed % static_cast<std::uint64_t>(players)), seed);
    start.confirm_turns = confirm;
    protocol::SplendorGame game(start);
    // The documents of every viewer before each step that can still be taken back, latest
    // last, and the state then.
    std::vector<std::pair<State, std::vector<json>>> undoable;
    std::vector<Viewer> viewers;
    for (int s = 0; s < players; ++s) viewers.push_back({s, nullptr, {}});
    viewers.push_back({protocol::spectators, nullptr, {}});
    viewers.push_back({protocol::revealed, nullptr, {}});
    for (auto& v : viewers) {
        v.view = game.view(v.who);
        v.doc = json::parse(doc_text(game, *v.view));
        REQUIRE(v.doc == oracle_doc(game, v.who));
    }
    std::mt19937_64 rng(seed);
    std::vector<Saved> saved;
    for (int step_no = 0; step_no < 3000 && !game.over(); ++step_no) {
        const State before = game.state();
        std::vector<json> docs_before;
        for (const auto& v : viewers) docs_before.push_back(v.doc);
        std::vector<std::string> lines;
        bool undone = false;
        std::map<int, int> secret_in_lines = blind_reserves(before);
        if (players > 2 && rng() % 150 == 0) {
            const int seat = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
            if (!game.out(seat)) {
                REQUIRE_FALSE(game.concede(seat));
                ++totals.concessions;
                undoable.clear();
            }
        } else {
            const Step step = splendor_test::pick(game.legal(), rng);
            if (step.kind == StepKind::Reserve && step.card < 0) {
                const auto l = static_cast<std::size_t>(step.level - 1);
                secret_in_lines[before
                                    .decks[l][static_cast<std::size_t>(before.deck_size[l] - 1)]] =
                    before.current;
                ++totals.blind;
            }
            // Buying a card reserved from a deck shows it: the line names it to everyone.
            if (step.kind == StepKind::Buy) secret_in_lines.erase(step.card);
            auto played = game.play(protocol::step_json(step));
            REQUIRE(std::holds_alternative<protocol::Played>(played));
            auto& p = std::get<protocol::Played>(played);
            REQUIRE(json::parse(p.record) == protocol::step_json(step));
            lines = std::move(p.lines);
            REQUIRE(lines.size() == static_cast<std::size_t>(players) + 1);
            REQUIRE(game.committed());
            ++totals.steps;
            if (step.kind == StepKind::Undo) {
                REQUIRE_FALSE(undoable.empty());
                CHECK(game.state() == undoable.back().first);
                for (const auto& line : lines) CHECK(line == "undo");
                undone = true;
                ++totals.undos;
            } else if (closes_undo(before, step, game.state())) {
                undoable.clear();
            } else {
                undoable.push_back({before, docs_before});
            }
            CHECK(game.undoable() == undoable.size() - (undone ? 1 : 0));  // popped below
            CHECK((game.over() ||
                   (game.undoable() > 0) == (game.legal().back().kind == StepKind::Undo)));
        }
        const std::map<int, int> secret = blind_reserves(game.state());
        // The oracle is slow (a tree per viewer): every fourth step or so, and at the end.
        const bool check_oracle = rng() % 4 == 0 || game.over();
        std::vector<std::string> texts;
        for (std::size_t i = 0; i < viewers.size(); ++i) {
            Viewer& v = viewers[i];
            INFO("viewer " << v.who << " step " << step_no);
            auto next = game.view(v.who);
            const std::string patch = patch_text(game, *v.view, *next);
            const std::string whole = doc_text(game, *next);
            texts.push_back(whole);
            const json expected = json::parse(whole);
            if (check_oracle) REQUIRE(expected == oracle_doc(game, v.who));
            v.doc.patch_inplace(json::parse(patch));
            if (v.doc != expected) {
                INFO("patch " << patch);
                INFO("diff  " << json::diff(v.doc, expected).dump());
                REQUIRE(v.doc == expected);
            }
            REQUIRE(patch_text(game, *next, *next) == "[]");
            ++totals.patches;
            // An undo gives each viewer back the document it had before the step.
            if (undone) CHECK(v.doc == undoable.back().second[i]);
            // Hidden information.
            for (const auto& [card, owner] : secret) {
                const bool sees = v.who == owner || v.who == protocol::revealed;
                INFO("card " << card << " reserved blind by " << owner);
                CHECK(names_card_object(whole, card) == sees);
                if (!sees) CHECK_FALSE(names_card_object(patch, card));
            }
            if (!lines.empty() && v.who != protocol::revealed) {
                const std::string& line =
                    lines[v.who >= 0 ? static_cast<std::size_t>(v.who) : lines.size() - 1];
                for (const auto& [card, owner] : secret_in_lines)
                    if (v.who != owner) {
                        INFO("line '" << line << "' card " << card);
                        CHECK_FALSE(names_card_in_line(line, card));
                    }
            }
            v.view = std::move(next);
            if (rng() % 41 == 0) saved.push_back({i, game.view(v.who), v.doc});
        }
        if (undone) undoable.pop_back();
        // Views the game calls the same write the same text.
        for (std::size_t a = 0; a < viewers.size(); ++a)
            for (std::size_t b = a + 1; b < viewers.size(); ++b)
                if (game.same(*viewers[a].view, *viewers[b].view)) CHECK(texts[a] == texts[b]);
        // Resuming from an earlier view: one patch brings it up to date.
        if (rng() % 17 == 0 || game.over()) {
            for (const auto& s : saved) {
                const Viewer& v = viewers[s.viewer];
                INFO("resume of viewer " << v.who);
                REQUIRE(s.doc.patch(json::parse(patch_text(game, *s.view, *v.view))) == v.doc);
                ++totals.resumes;
            }
            saved.clear();
        }
    }
    REQUIRE(game.over());
    ++totals.over;
    CHECK(game.status() == "finished");
    CHECK(game.decider() == -1);
    CHECK(game.legal().empty());
    CHECK(game.winners() != 0);
    const auto places = game.places();
    REQUIRE(places.size() == static_cast<std::size_t>(players));
    for (int s = 0; s < players; ++s)
        if (game.winners() >> s & 1u) CHECK(places[static_cast<std::size_t>(s)] == 1);
    // At the end the replay's viewer shows every reserved card; the others still do not.
    for (const auto& held : blind_reserves(game.state())) {
        CHECK(names_card_object(doc_text(game, *game.view(protocol::revealed)), held.first));
        CHECK_FALSE(
            names_card_object(doc_text(game, *game.view(protocol::spectators)), held.first));
    }
    const json live = game.live_fields();
    REQUIRE(live["points"].size() == static_cast<std::size_t>(players));
    for (int s = 0; s < players; ++s)
        CHECK(live["points"][static_cast<std::size_t>(s)] == game.state().seat(s).points);
    ++totals.games;
}

}  // namespace

TEST_CASE("Splendor views: patches, the oracle and hidden reserves over random games",
          "[splendor][views][differential]") {
    // SANTORINI_RANDOM_GAMES_PERCENT=10 plays a tenth of the games (sanitizer builds).
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    const int per_count = percent ? std::clamp(70 * std::atoi(percent) / 100, 1, 70) : 70;
    Totals totals;
    for (int players = 2; players <= 4; ++players)
        for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(per_count); ++seed)
            play_and_check(players, seed * 104729 + static_cast<std::uint64_t>(players), totals);
    INFO("games " << totals.games << " steps " << totals.steps << " concessions "
                  << totals.concessions << " blind reserves " << totals.blind << " patches "
                  << totals.patches << " resumes " << totals.resumes);
    CHECK(totals.games == 3 * per_count);
    if (per_count == 70) {
        CHECK(totals.concessions > 20);
        CHECK(totals.blind > 500);
        CHECK(totals.resumes > 1000);
    }
    WARN("games " << totals.games << " steps " << totals.steps << " concessions "
                  << totals.concessions << " blind reserves " << totals.blind << " patches "
                  << totals.patches << " resumes " << totals.resumes);
}

TEST_CASE("Splendor views with confirm turns and undos: patches, the oracle, hidden reserves",
          "[splendor][views][differential][undo]") {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    const int per_count = percent ? std::clamp(30 * std::atoi(percent) / 100, 1, 30) : 30;
    Totals totals;
    for (int players = 2; players <= 4; ++players)
        for (std::uint64_t seed = 1; seed <= static_cast<std::uint64_t>(per_count); ++seed)
            play_and_check(players, seed * 7919 + static_cast<std::uint64_t>(players), totals,
                           true);
    CHECK(totals.games == 3 * per_count);
    CHECK(totals.undos > totals.games * 5);
    WARN("confirm: games " << totals.games << " steps " << totals.steps << " undos "
                           << totals.undos << " blind reserves " << totals.blind << " patches "
                           << totals.patches << " resumes " << totals.resumes);
}

TEST_CASE("Splendor view JSON: a new game as docs/protocol.md shows it", "[splendor][views]") {
    auto started = splendor::new_game({.players = 3, .start_player = 2, .seed = 42});
    const protocol::SplendorGame game(std::get<State>(started));
    CHECK(game.kind() == "splendor");
    CHECK(game.status() == "playing");
    CHECK(game.in_play());
    CHECK_FALSE(game.committed());
    CHECK(game.decider() == 2);
    CHECK(game.side(1) == 1);
    CHECK(game.places().empty());
    CHECK(game.state_hash().size() == 16);
    const json spectator = json::parse(doc_text(game, *game.view(protocol::spectators)));
    const json& state = spectator["state"];
    CHECK(state["phase"] == "action");
    CHECK(state["decider"] == 2);
    CHECK(state["turn"] == 0);
    CHECK(state["players"] == 3);
    CHECK(state["start_player"] == 2);
    CHECK(state["final_round"] == false);
    CHECK(state["supply"] ==
          json::parse(R"({"white":5,"blue":5,"green":5,"red":5,"black":5,"gold":5})"));
    CHECK(state["decks"] == json::parse("[36,26,16]"));
    REQUIRE(state["rows"].size() == 3);
    for (int l = 0; l < 3; ++l) {
        REQUIRE(state["rows"][l].size() == 4);
        for (const auto& c : state["rows"][l]) {
            CHECK(c["level"] == l + 1);
            CHECK(c == card_tree(c["id"].get<int>()));
        }
    }
    CHECK(state["nobles"].size() == 4);
    REQUIRE(state["hands"].size() == 3);
    CHECK(state["hands"][0] ==
          json::parse(R"({"tokens":{"white":0,"blue":0,"green":0,"red":0,"black":0,"gold":0},
        "bonuses":{"white":0,"blue":0,"green":0,"red":0,"black":0},"points":0,"cards":0,"reserved":[],
        "nobles":[],"out":false})"));
    CHECK(state["winners"] == json::array());
    CHECK_FALSE(state.contains("legal"));
    CHECK(spectator["seats"] ==
          json::parse(
              R"([{"out":false,"points":0},{"out":false,"points":0},{"out":false,"points":0}])"));
    // The seat that decides gets its legal list; the others do not.
    const json decider = json::parse(doc_text(game, *game.view(2)));
    REQUIRE(decider["state"].contains("legal"));
    CHECK(decider["state"]["legal"].size() == game.legal().size());
    CHECK(decider["state"]["legal"][0] == protocol::step_json(game.legal()[0]));
    CHECK_FALSE(json::parse(doc_text(game, *game.view(1)))["state"].contains("legal"));
    CHECK_FALSE(json::parse(doc_text(game, *game.view(2, false)))["state"].contains("legal"));
    CHECK(game.live_fields() == json::parse(R"({"points":[0,0,0]})"));
}

TEST_CASE("a blind reserve: card null for the others, the card for its owner and the replay",
          "[splendor][views][hidden]") {
    auto started = splendor::new_game({.players = 2, .start_player = 0, .seed = 9});
    protocol::SplendorGame game(std::get<State>(started));
    const auto before = game.state();
    const int top = before.decks[1][static_cast<std::size_t>(before.deck_size[1] - 1)];
    const auto owner_before = game.view(0), other_before = game.view(1),
               watcher_before = game.view(protocol::spectators);
    auto played = game.play(json::parse(R"({"kind":"reserve","level":2})"));
    REQUIRE(std::holds_alternative<protocol::Played>(played));
    const auto& p = std::get<protocol::Played>(played);
    CHECK(p.record == R"({"kind":"reserve","level":2})");
    CHECK(p.lines[0] ==
          "reserve " + std::string("#") + std::to_string(top) + " (level 2 " +
              std::string(gem_name(card(top).bonus)) + ", " + std::to_string(card(top).points) +
              (card(top).points == 1 ? " point)" : " points)") + " from the level 2 deck");
    CHECK(p.lines[1] == "reserve from the level 2 deck");
    CHECK(p.lines[2] == "reserve from the level 2 deck");
    const json owner = json::parse(doc_text(game, *game.view(0)));
    const json other = json::parse(doc_text(game, *game.view(1)));
    const json replay = json::parse(doc_text(game, *game.view(protocol::revealed)));
    CHECK(owner["state"]["hands"][0]["reserved"] ==
          json::array({{{"card", card_tree(top)}, {"level", 2}, {"blind", true}}}));
    CHECK(replay["state"]["hands"][0]["reserved"] == owner["state"]["hands"][0]["reserved"]);
    CHECK(other["state"]["hands"][0]["reserved"] ==
          json::array({{{"card", nullptr}, {"level", 2}, {"blind", true}}}));
    CHECK(other["state"]["decks"][1] == before.deck_size[1] - 1);
    // The patches: the owner's names the card, the others' only its level.
    const std::string to_other = patch_text(game, *other_before, *game.view(1, false));
    CHECK(to_other.find("/reserved\",\"value\":[{\"card\":null,\"level\":2,\"blind\":true}]") !=
          std::string::npos);
    CHECK_FALSE(names_card_object(to_other, top));
    CHECK(names_card_object(patch_text(game, *owner_before, *game.view(0)), top));
    CHECK(patch_text(game, *watcher_before, *game.view(protocol::spectators)) == to_other);
    // The owner's view and the spectators' now differ; the other seat's is the spectators'.
    CHECK_FALSE(game.same(*game.view(0), *game.view(protocol::spectators)));
    CHECK(game.same(*game.view(1, false), *game.view(protocol::spectators)));
}
