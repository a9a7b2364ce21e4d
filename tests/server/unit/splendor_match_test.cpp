// Splendor through a real server::Match (and, for the errors, through the hub and the parser):
// whole games with 2, 3 and 4 players, the engine's own game played beside the match. At every
// version every seat's and the spectators' patched view equals a fresh snapshot at the end;
// no message any of them receives names a card another seat reserved from a deck until it is
// bought; viewers resuming from earlier versions catch up; resignations with 2 and 3 players;
// and a 3-player finish is rated by the game's places.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <map>
#include <random>
#include <set>

#include "engine/splendor/game.hpp"
#include "engine/splendor/view.hpp"
#include "protocol/splendor/json.hpp"
#include "server/match/match.hpp"
#include "server/match/match_json.hpp"
#include "server/match/replay.hpp"
#include "tests/server/support/hub_harness.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace splendor_match_test {

using namespace server;
using namespace server::test;

namespace {

json splendor_settings(int players) {
    return {{"game", "splendor"}, {"players", players}};
}

// The cards reserved from a deck in `s`, with their owners.
std::map<int, int> blind_reserves(const splendor::State& s) {
    std::map<int, int> out;
    for (int seat = 0; seat < s.players; ++seat)
        for (int r = 0; r < s.seat(seat).reserved_count; ++r)
            if (const auto& res = s.seat(seat).reserved[static_cast<std::size_t>(r)]; res.blind)
                out[res.card] = seat;
    return out;
}

// Where `message` shows card `id`: a card object ({"id":id,...,"bonus":...}), or a history
// line naming it ("#id (level ..."). Empty when nowhere.
std::string shows_card(const json& j, int id) {
    if (j.is_object()) {
        if (j.contains("bonus") && j.value("id", -1) == id) return j.dump();
        for (const auto& item : j.items())
            if (auto where = shows_card(item.value(), id); !where.empty()) return where;
    } else if (j.is_array()) {
        for (const auto& e : j)
            if (auto where = shows_card(e, id); !where.empty()) return where;
    } else if (j.is_string()) {
        const auto& text = j.get_ref<const std::string&>();
        if (text.find("#" + std::to_string(id) + " (") != std::string::npos) return text;
    }
    return {};
}

// A view rebuilt from messages as a client does: a snapshot replaces it, a patch edits it.
void apply(json& view, std::uint64_t& version, const std::vector<json>& messages) {
    for (const auto& m : messages) {
        if (m["type"] == "match.snapshot") {
            view = m["view"];
            version = m["version"];
        } else if (m["type"] == "match.patch") {
            REQUIRE(m["version"] == version + 1);
            view = view.patch(m["patch"]);
            version = m["version"];
        }
    }
}

/// A Splendor match and the engine's game beside it, with a connection per seat and one
/// spectator.
struct Table {
    boost::asio::io_context io;
    RecordingStore store;
    Metrics metrics;
    MatchOptions options;
    std::shared_ptr<Match> match;
    std::vector<std::shared_ptr<FakeParticipant>> viewers;  // seats, then the spectator
    splendor::State state;
    std::mt19937 rng;
    std::uint64_t next_connection = 1;
    int steps = 0;
    int blind = 0;

    Table(int players, std::uint64_t seed, int challenger) : rng(static_cast<unsigned>(seed)) {
        options.id = "m_splendor";
        options.settings = std::get<protocol::LobbySettings>(
            protocol::lobby_settings_from_json(splendor_settings(players)));
        for (int s = 0; s < players; ++s)
            options.seats.push_back(
                Member{"p_" + std::to_string(s), "Player " + std::to_string(s)});
        options.seed = seed;
        options.challenger = challenger;
        auto created = Match::create(io, options, store, metrics, [](auto&&...) {});
        REQUIRE(std::holds_alternative<std::shared_ptr<Match>>(created));
        match = std::get<std::shared_ptr<Match>>(created);
        auto engine =
            splendor::new_game({.players = players, .start_player = challenger, .seed = seed});
        state = std::get<splendor::State>(engine);
        for (int s = 0; s < players; ++s)
            viewers.push_back(std::make_shared<FakeParticipant>(
                options.seats[static_cast<std::size_t>(s)].id, next_connection++));
        viewers.push_back(std::make_shared<FakeParticipant>("p_watcher", next_connection++));
        for (auto& v : viewers) match->open(v, std::nullopt, {});
        settle();
        check_secrets(blind_reserves(state));
    }
    ~Table() {
        match->shutdown();
        settle();
    }
    void settle() {
        io.restart();
        io.poll();
    }
    int players() const { return state.players; }
    int viewer_of(std::size_t i) const {
        return i + 1 == viewers.size() ? splendor::spectator : static_cast<int>(i);
    }

    /// Every message each viewer received since the last check shows no card reserved from a
    /// deck by another seat (`secret`: card -> owner).
    void check_secrets(const std::map<int, int>& secret) {
        for (std::size_t i = 0; i < viewers.size(); ++i)
            check_messages(viewers[i]->take(), viewer_of(i), secret);
    }
    static void check_messages(const std::vector<json>& messages, int viewer,
                               const std::map<int, int>& secret) {
        for (const auto& m : messages) {
            CHECK(m.value("type", "") != "error");
            for (const auto& [card, owner] : secret) {
                const std::string where = shows_card(m, card);
                if (owner == viewer) continue;
                INFO("viewer " << viewer << " sees card " << card << " reserved blind by "
                               << owner);
                CHECK(where == "");
            }
        }
    }

    /// The decider plays a step picked from its own view; the engine's game follows.
    void play_one() {
        const int decider = splendor::decider(state);
        REQUIRE(decider >= 0);
        auto& conn = viewers[static_cast<std::size_t>(decider)];
        json view = conn->view(match->id()).view;
        REQUIRE(view["state"].contains("legal"));
        // The engine's game here follows the match without undos (offered during returns and
        // noble choices; tests/integration/splendor_undo_test.cpp plays them).
        json& offered = view["state"]["legal"];
        offered.erase(std::remove(offered.begin(), offered.end(), json{{"kind", "undo"}}),
                      offered.end());
        // Now and then a reserve from a deck: the card the others must not see.
        json step = pick_step(view, rng);
        if (rng() % 8 == 0)
            for (const auto& s : view["state"]["legal"])
                if (s["kind"] == "reserve" && s.contains("level")) step = s;
        splendor::StepList legal;
        splendor::legal_steps(state, legal);
        auto read = protocol::step_from_json(legal, step);
        REQUIRE(std::holds_alternative<splendor::Step>(read));
        const splendor::Step chosen = std::get<splendor::Step>(read);
        std::map<int, int> secret = blind_reserves(state);
        if (chosen.kind == splendor::StepKind::Reserve && chosen.card < 0) ++blind;
        match->step(conn, step, json("s"));
        settle();
        splendor::apply_step(state, chosen);
        ++steps;
        for (const auto& [card, owner] : blind_reserves(state)) secret[card] = owner;
        // A card bought is public from then on: the buy's line names it to everyone.
        if (chosen.kind == splendor::StepKind::Buy) secret.erase(chosen.card);
        check_secrets(secret);
    }

    void resign(int seat) {
        REQUIRE_FALSE(splendor::concede(state, seat));
        match->resign(viewers[static_cast<std::size_t>(seat)], {});
        settle();
        check_secrets(blind_reserves(state));
    }

    /// Every viewer's patched view is the one a new connection gets as a snapshot, and agrees
    /// with the engine's game.
    void check_views() {
        for (std::size_t i = 0; i < viewers.size(); ++i) {
            const auto tracked = viewers[i]->view(match->id());
            INFO("viewer " << viewer_of(i));
            REQUIRE(tracked.errors == 0);
            auto tab =
                std::make_shared<FakeParticipant>(viewers[i]->player_id(), next_connection++);
            match->open(tab, std::nullopt, {});
            settle();
            const auto fresh = tab->view(match->id());
            REQUIRE(fresh.snapshots == 1);
            CHECK(fresh.version == tracked.version);
            CHECK(fresh.view == tracked.view);
            match->close(tab, {});
            settle();
            const json& st = tracked.view["state"];
            CHECK(st["turn"] == state.turn);
            CHECK(st["decider"] ==
                  (splendor::decider(state) >= 0 ? json(splendor::decider(state)) : json(nullptr)));
            for (int s = 0; s < players(); ++s) {
                CHECK(tracked.view["seats"][static_cast<std::size_t>(s)]["points"] ==
                      state.seat(s).points);
                CHECK(tracked.view["seats"][static_cast<std::size_t>(s)]["out"] ==
                      state.seat(s).out);
                CHECK(st["hands"][static_cast<std::size_t>(s)]["tokens"] ==
                      protocol::tokens_json(state.seat(s).tokens));
            }
        }
    }
};

struct Saved {
    std::size_t viewer;
    std::uint64_t version;
    json view;
};

int play_whole_game(int players, std::uint64_t seed) {
    INFO("players " << players << " seed " << seed);
    Table t(players, seed, static_cast<int>(seed % static_cast<std::uint64_t>(players)));
    CHECK(t.viewers[0]->view(t.match->id()).view["game"] == "splendor");
    CHECK(t.viewers[0]->view(t.match->id()).view["status"] == "playing");
    std::vector<Saved> saved;
    std::mt19937 pick(static_cast<unsigned>(seed) + 1);
    int resumes = 0;
    while (splendor::decider(t.state) >= 0 && t.steps < 3000) {
        t.play_one();
        if (pick() % 9 == 0) {
            const std::size_t i = pick() % t.viewers.size();
            const auto tracked = t.viewers[i]->view(t.match->id());
            saved.push_back({i, tracked.version, tracked.view});
        }
        // Resuming from a saved version: the missed patches (or a snapshot) catch up.
        if (pick() % 13 == 0 || splendor::decider(t.state) < 0) {
            for (const auto& s : saved) {
                auto tab = std::make_shared<FakeParticipant>(t.viewers[s.viewer]->player_id(),
                                                             t.next_connection++);
                t.match->open(tab, s.version, {});
                t.settle();
                const auto messages = tab->take();
                Table::check_messages(messages, t.viewer_of(s.viewer), blind_reserves(t.state));
                json view = s.view;
                std::uint64_t version = s.version;
                apply(view, version, messages);
                INFO("resume of viewer " << t.viewer_of(s.viewer) << " from version " << s.version);
                CHECK(version == t.viewers[s.viewer]->view(t.match->id()).version);
                CHECK(view == t.viewers[s.viewer]->view(t.match->id()).view);
                t.match->close(tab, {});
                t.settle();
                ++resumes;
            }
            saved.clear();
        }
    }
    REQUIRE(splendor::decider(t.state) < 0);
    t.check_views();
    const json end = t.viewers.back()->view(t.match->id()).view;
    CHECK(end["status"] == "finished");
    json winners = json::array();
    for (int s = 0; s < players; ++s)
        if (t.state.winners >> s & 1u) winners.push_back(s);
    CHECK(end["result"] == json{{"winners", winners}, {"reason", "win"}});
    CHECK(end["state"]["winners"] == winners);
    CHECK_FALSE(end["state"].contains("legal"));
    const auto records = t.store.records();
    REQUIRE(records.size() == static_cast<std::size_t>(t.steps));
    REQUIRE(records.back().finish);
    CHECK(records.back().finish->pool == "splendor");
    CHECK(resumes > 0);
    return t.blind;
}

}  // namespace

TEST_CASE("Splendor matches play to the end: patched views, hidden reserves, resumes",
          "[match][splendor]") {
    int blind = 0;
    for (int players = 2; players <= 4; ++players)
        for (std::uint64_t seed = 1; seed <= 3; ++seed)
            blind += play_whole_game(players, seed * 7001 + static_cast<std::uint64_t>(players));
    // The games above reserve from decks: the hidden-card checks had something to check.
    CHECK(blind > 10);
}

TEST_CASE("Splendor: the card reserved from a deck, in each viewer's messages",
          "[match][splendor]") {
    Table t(3, 4242, 0);
    // Seat 0 reserves the top of the level 2 deck.
    const int top = t.state.decks[1][static_cast<std::size_t>(t.state.deck_size[1] - 1)];
    t.match->step(t.viewers[0], json{{"kind", "reserve"}, {"level", 2}}, json("r"));
    t.settle();
    splendor::apply_step(t.state, splendor::Step{.kind = splendor::StepKind::Reserve, .level = 2});
    const auto owner = t.viewers[0]->take(), other = t.viewers[1]->take(),
               watcher = t.viewers[3]->take();
    REQUIRE(!owner.empty());
    bool owner_sees = false;
    for (const auto& m : owner) owner_sees |= !shows_card(m, top).empty();
    CHECK(owner_sees);
    for (const auto* messages : {&other, &watcher})
        for (const auto& m : *messages) CHECK(shows_card(m, top) == "");
    const json seen_by_other = t.viewers[1]->view(t.match->id()).view;
    CHECK(seen_by_other["state"]["hands"][0]["reserved"] ==
          json::parse(R"([{"card":null,"level":2,"blind":true}])"));
    CHECK(seen_by_other["history"].back() == "reserve from the level 2 deck");
    const json seen_by_owner = t.viewers[0]->view(t.match->id()).view;
    CHECK(seen_by_owner["state"]["hands"][0]["reserved"][0]["card"]["id"] == top);
    CHECK(seen_by_owner["history"].back().get<std::string>().starts_with(
        "reserve #" + std::to_string(top) + " ("));
    // The store keeps the step as sent, without the card: a replay draws it again.
    CHECK(t.store.records().back().step_json == R"({"kind":"reserve","level":2})");
}

TEST_CASE("Splendor resignations: with 2 players the other wins; with 3 the seat is out",
          "[match][splendor][resign]") {
    SECTION("2 players") {
        Table t(2, 5, 0);
        for (int i = 0; i < 6; ++i) t.play_one();
        t.resign(0);
        const json end = t.viewers[1]->view(t.match->id()).view;
        CHECK(end["status"] == "finished");
        CHECK(end["result"] == json{{"winners", {1}}, {"reason", "resign"}});
        CHECK(end["seats"][0]["out"] == t.state.seat(0).out);
        CHECK(end["state"]["winners"] == json{1});
        CHECK(end["state"]["decider"] == nullptr);
        const auto last = t.store.records().back();
        CHECK(last.step_json == R"({"kind":"resign","seat":0})");
        REQUIRE(last.finish);
        CHECK(last.finish->pool == "splendor");
        t.check_views();
    }
    SECTION("3 players") {
        Table t(3, 6, 1);
        for (int i = 0; i < 5; ++i) t.play_one();
        // A seat that is not deciding resigns: it is out, the game goes on without it.
        int seat = (splendor::decider(t.state) + 1) % 3;
        t.resign(seat);
        json view = t.viewers.back()->view(t.match->id()).view;
        CHECK(view["status"] == "playing");
        CHECK(view["result"] == nullptr);
        CHECK(view["seats"][static_cast<std::size_t>(seat)]["out"] == true);
        CHECK(view["state"]["hands"][static_cast<std::size_t>(seat)]["out"] == true);
        CHECK_FALSE(t.store.records().back().finish);
        t.check_views();
        // Its resign request again is refused; the others play on to the end, never it.
        t.match->resign(t.viewers[static_cast<std::size_t>(seat)], json("again"));
        t.settle();
        CHECK(t.viewers[static_cast<std::size_t>(seat)]->last("error")["code"] == "wrong_phase");
        t.viewers[static_cast<std::size_t>(seat)]->take();
        while (splendor::decider(t.state) >= 0) {
            CHECK(splendor::decider(t.state) != seat);
            t.play_one();
        }
        t.check_views();
        view = t.viewers.back()->view(t.match->id()).view;
        CHECK(view["status"] == "finished");
        CHECK_FALSE(view["result"]["winners"].get<std::vector<int>>().empty());
        for (int w : view["result"]["winners"].get<std::vector<int>>()) CHECK(w != seat);
        REQUIRE(t.store.records().back().finish);
    }
    SECTION("3 players: two resign, the last seat still in wins") {
        Table t(3, 7, 2);
        for (int i = 0; i < 4; ++i) t.play_one();
        t.resign(splendor::decider(t.state));  // on its own turn: the next seat plays
        REQUIRE(splendor::decider(t.state) >= 0);
        const int next = splendor::decider(t.state);
        t.check_views();
        t.play_one();
        t.resign(next);
        const json end = t.viewers.back()->view(t.match->id()).view;
        CHECK(end["status"] == "finished");
        REQUIRE(end["result"]["winners"].size() == 1);
        CHECK(end["result"]["reason"] == "resign");
        CHECK(t.state.winners == 1u << end["result"]["winners"][0].get<int>());
        t.check_views();
    }
}

TEST_CASE("A 3-player Splendor finish is rated by the game's places", "[match][splendor][rating]") {
    int checked = 0;
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        Table t(3, seed * 31, static_cast<int>(seed % 3));
        const bool with_resignation = seed % 2 == 0;
        int resigned = -1;
        while (splendor::decider(t.state) >= 0) {
            if (with_resignation && resigned < 0 && t.steps == 10) {
                resigned = (splendor::decider(t.state) + 2) % 3;
                t.resign(resigned);
                continue;
            }
            t.play_one();
        }
        const auto last = t.store.records().back();
        REQUIRE(last.finish);
        REQUIRE(last.finish->rate);
        const auto rated =
            last.finish->rate({RatingValue{}, RatingValue{}, RatingValue{}}, 1'800'000'000'000);
        REQUIRE(rated.size() == 3);
        // The places the match rates by: the engine's, the seat that went out last of all.
        auto places = splendor::places(t.state);
        INFO("seed " << seed << " places " << places[0] << "," << places[1] << "," << places[2]
                     << " resigned " << resigned);
        if (resigned >= 0) {
            for (int s = 0; s < 3; ++s)
                if (s != resigned) CHECK(places[static_cast<std::size_t>(s)] <= 2);
            for (int s = 0; s < 3; ++s)
                if (s != resigned)
                    CHECK(rated[static_cast<std::size_t>(s)].rating >
                          rated[static_cast<std::size_t>(resigned)].rating);
        }
        for (int a = 0; a < 3; ++a)
            for (int b = 0; b < 3; ++b) {
                if (a == resigned || b == resigned) continue;
                const auto pa = places[static_cast<std::size_t>(a)],
                           pb = places[static_cast<std::size_t>(b)];
                const double ra = rated[static_cast<std::size_t>(a)].rating,
                             rb = rated[static_cast<std::size_t>(b)].rating;
                if (pa < pb) CHECK(ra > rb);
                if (pa == pb) CHECK(ra == rb);
            }
        for (int s = 0; s < 3; ++s)
            if (t.state.winners >> s & 1u) CHECK(places[static_cast<std::size_t>(s)] == 1);
        ++checked;
    }
    CHECK(checked == 6);
}

TEST_CASE(
    "Splendor steps through the hub: malformed, another game's, illegal, not your turn, abort",
    "[match][splendor][errors]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::string match = h.start_match({ann, bob}, splendor_settings(2));
    const json view = ann.conn->view(match).view;
    REQUIRE(view["game"] == "splendor");
    const bool ann_first = view["state"]["decider"] == 0;
    const Player& first = ann_first ? ann : bob;
    const Player& second = ann_first ? bob : ann;
    auto error_of = [&](const Player& p, const json& step) {
        p.conn->take();
        h.send(p.conn, {{"type", "match.step"}, {"match", match}, {"step", step}, {"ref", 1}});
        return p.conn->last("error");
    };
    // A step no game has: malformed, with the Splendor reason.
    json e = error_of(first, {{"kind", "take"}, {"gems", {"gold"}}});
    CHECK(e["code"] == "invalid_field");
    CHECK(e["message"].get<std::string>().starts_with("invalid field 'step': field 'gems'"));
    CHECK(e["ref"] == 1);
    // A Santorini step: malformed for a Splendor match.
    e = error_of(first, {{"kind", "move"}, {"from", "B2"}, {"to", "C3"}});
    CHECK(e["code"] == "invalid_field");
    CHECK(e["message"] == "invalid field 'step': unknown step kind 'move'");
    // Well formed, not legal now.
    e = error_of(first, {{"kind", "return"}, {"gem", "red"}});
    CHECK(e["code"] == "illegal_step");
    CHECK(e["message"] == "not legal now: return red");
    // The other seat.
    e = error_of(second, first.conn->view(match).view["state"]["legal"][0]);
    CHECK(e["code"] == "not_your_turn");
    // Nothing was stored; an abort is still allowed before the first step, not after it.
    CHECK(h.recording.records().empty());
    std::mt19937 rng(1);
    h.send(first.conn, {{"type", "match.step"},
                        {"match", match},
                        {"step", pick_step(first.conn->view(match).view, rng)},
                        {"ref", 2}});
    CHECK(first.conn->last("ack")["ref"] == 2);
    h.send(second.conn, {{"type", "match.abort"}, {"match", match}, {"ref", 3}});
    CHECK(second.conn->last("error")["code"] == "wrong_phase");
    // The live list names the game and shows the points.
    h.send(ann.conn, {{"type", "matches.subscribe"}});
    const json list = ann.conn->last("matches");
    REQUIRE(list.is_object());
    REQUIRE(list["matches"].size() == 1);
    CHECK(list["matches"][0]["game"] == "splendor");
    CHECK(list["matches"][0]["points"] == json{0, 0});
    CHECK(list["matches"][0]["status"] == "playing");
    // Played out through the hub: both views end alike.
    play_out(h, {ann, bob}, match, rng, 3000);
    const json end = ann.conn->view(match).view;
    CHECK(end["status"] == "finished");
    // (Their states differ where each sees its own reserves from the decks.)
    CHECK(end["result"] == bob.conn->view(match).view["result"]);
    CHECK(end["state"]["winners"] == bob.conn->view(match).view["state"]["winners"]);
    CHECK(end["result"]["reason"] == "win");
    CHECK(ann.conn->view(match).errors == 0);
}

TEST_CASE("An unplayed Splendor match may be aborted", "[match][splendor][errors]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cy = h.guest("Cy");
    const std::string match = h.start_match({ann, bob, cy}, splendor_settings(3));
    h.send(cy.conn, {{"type", "match.abort"}, {"match", match}, {"ref", "a"}});
    CHECK(cy.conn->last("ack")["ref"] == "a");
    const json end = ann.conn->view(match).view;
    CHECK(end["status"] == "aborted");
    CHECK_FALSE(end["state"].contains("legal"));
}

TEST_CASE("A stored Splendor match replays through its Game: hashes, the API's views, secrets",
          "[match][splendor][replay]") {
    Table t(3, 2024, 1);
    while (splendor::decider(t.state) >= 0 && t.blind < 2) t.play_one();
    REQUIRE(t.blind >= 1);
    while (splendor::decider(t.state) >= 0) t.play_one();
    const auto records = t.store.records();
    store::StoredMatch m;
    m.id = t.options.id;
    m.game = "splendor";
    m.settings_json = json{{"lobby", protocol::lobby_settings_json(t.options.settings)},
                           {"challenger", t.options.challenger}}
                          .dump();
    m.seed = t.options.seed;
    m.created_at_ms = 1732380000000;
    for (int s = 0; s < 3; ++s)
        m.seats.push_back(store::StoredSeat{s, t.options.seats[static_cast<std::size_t>(s)].id,
                                            t.options.seats[static_cast<std::size_t>(s)].name, "",
                                            std::nullopt, std::nullopt, std::nullopt, std::nullopt,
                                            std::nullopt});
    std::vector<std::string> texts;
    for (const auto& r : records) {
        m.steps.push_back(
            store::StoredStep{r.number, r.player_id, r.step_json, r.at_ms, r.state_hash});
        texts.push_back(r.step_json);
    }
    m.step_count = static_cast<std::uint32_t>(m.steps.size());
    const auto settings = std::get<StoredSettings>(read_stored_settings(m.settings_json));

    // Every prefix replays to the state the match stored the hash of.
    for (std::size_t n = 1; n <= texts.size(); n += 7) {
        auto at = replay(settings, m.seed, texts, n);
        REQUIRE(std::holds_alternative<ReplayPosition>(at));
        CHECK(std::get<ReplayPosition>(at).game->state_hash() == records[n - 1].state_hash);
    }
    auto all = replay(settings, m.seed, texts, texts.size());
    REQUIRE(std::holds_alternative<ReplayPosition>(all));
    const ReplayPosition& end = std::get<ReplayPosition>(all);
    CHECK(end.game->over());
    CHECK(end.game->state_hash() == records.back().state_hash);

    const auto secret = blind_reserves(t.state);
    for (const std::string status : {"live", "finished"}) {
        INFO(status);
        m.status = status;
        m.finished_at_ms = status == "live" ? 0 : 1732380060000;
        m.result_json = status == "live" ? "" : R"({"winners":[0],"reason":"win"})";
        const json header = match_header(m, end.game.get());
        CHECK(header["game"] == "splendor");
        CHECK(header["pool"] == "splendor");
        for (const auto& seat : header["seats"]) {
            CHECK(seat["power"] == nullptr);
            CHECK(seat["points"] == t.state.seat(seat["seat"].get<int>()).points);
        }
        const json view = view_after_json(m, end);
        CHECK(view["game"] == "splendor");
        REQUIRE(view["seats"].size() == 3);
        for (int s = 0; s < 3; ++s) {
            CHECK(view["seats"][static_cast<std::size_t>(s)]["points"] == t.state.seat(s).points);
            CHECK(view["seats"][static_cast<std::size_t>(s)]["out"] == false);
        }
        CHECK_FALSE(view["state"].contains("legal"));
        CHECK(view["history"].size() == texts.size());
        const json replayed = replay_json(m, &end);
        // While live, spectators' eyes: no blind reserve anywhere; once over, all of them.
        for (const auto& [card, owner] : secret) {
            INFO("card " << card << " of seat " << owner);
            if (status == "live") {
                CHECK(shows_card(view, card) == "");
                CHECK(shows_card(replayed, card) == "");
            } else {
                CHECK(shows_card(view["state"], card) != "");
            }
        }
    }
}

TEST_CASE("The splendor queue pairs two players into a rated Splendor match",
          "[match][splendor][queue]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const json clock = {{"kind", "realtime"}, {"base_seconds", 300}, {"increment_seconds", 3}};
    h.send(ann.conn, {{"type", "queue.join"}, {"queue", "splendor"}, {"clock", clock}, {"ref", 1}});
    CHECK(ann.conn->last("queue")["state"] == "waiting");
    h.send(bob.conn, {{"type", "queue.join"}, {"queue", "splendor"}, {"clock", clock}, {"ref", 2}});
    const json matched = bob.conn->last("queue");
    REQUIRE(matched["state"] == "matched");
    const std::string match = matched["match"];
    h.send(ann.conn, {{"type", "match.open"}, {"match", match}});
    h.send(bob.conn, {{"type", "match.open"}, {"match", match}});
    const json view = ann.conn->view(match).view;
    CHECK(view["game"] == "splendor");
    CHECK(view["status"] == "playing");
    CHECK(view["clock"]["kind"] == "realtime");
    CHECK(view["state"]["players"] == 2);
    std::mt19937 rng(3);
    play_out(h, {ann, bob}, match, rng, 3000);
    CHECK(ann.conn->view(match).view["status"] == "finished");
    const auto records = h.recording.records();
    REQUIRE_FALSE(records.empty());
    REQUIRE(records.back().finish);
    CHECK(records.back().finish->pool == "splendor");
    CHECK(records.back().finish->rate);
}

}  // namespace splendor_match_test
