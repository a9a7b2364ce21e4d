// Matches through the hub: whole games from lobby to result with the players' own views,
// the draft as steps, eliminations, teams, spectators, patches and resuming, refused steps,
// the durability gate, resign and abort.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <thread>

#include "tests/server/support/hub_harness.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace match_test {

using namespace server;
using namespace server::test;

namespace {

// Every tracked view equals the snapshot a fresh tab of the same viewer gets, all carry the
// same version, and only the decider's view lists legal steps.
void check_views(Harness& h, const std::vector<Player>& viewers, const std::string& match) {
    int deciders = 0;
    std::uint64_t version = 0;
    for (const auto& p : viewers) {
        auto tracked = p.conn->view(match);
        REQUIRE(tracked.errors == 0);
        if (version == 0) version = tracked.version;
        CHECK(tracked.version == version);
        auto tab = h.tab(p);
        h.send(tab, {{"type", "match.open"}, {"match", match}});
        auto snapshot = tab->last("match.snapshot");
        REQUIRE(snapshot.is_object());
        CHECK(snapshot["version"] == tracked.version);
        CHECK(snapshot["view"] == tracked.view);
        h.drop(tab);
        if (tracked.view["state"].contains("legal")) ++deciders;
    }
    const auto status = viewers[0].conn->view(match).view["status"];
    CHECK(deciders == (status == "finished" || status == "aborted" ? 0 : 1));
}

std::vector<int> winners_of(const json& view) {
    return view["result"]["winners"].get<std::vector<int>>();
}

void require_error(const Player& p, const std::string& code) {
    auto e = p.conn->last("error");
    INFO(e.dump());
    REQUIRE(e.is_object());
    CHECK(e["code"] == code);
}

}  // namespace

TEST_CASE("A 2-player game without powers is played from lobby to a win", "[match]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
    const auto opened_at = wes.conn->view(match).version;

    auto first = view_of(wes, match);
    CHECK(first["match"] == match);
    CHECK(first["game"] == "santorini");
    CHECK(first["status"] == "draft");
    CHECK(first["you"].is_null());
    CHECK(first["spectators"] == 1);
    CHECK(first["seats"][0]["player"]["name"] == "Ann");
    CHECK(first["seats"][1]["connected"] == true);
    CHECK(first["clock"] == json{{"kind", "none"}});
    CHECK(first["result"].is_null());
    CHECK(view_of(ann, match)["you"] == 0);
    CHECK(view_of(bob, match)["you"] == 1);

    std::mt19937 rng(7);
    const std::vector<Player> viewers{ann, bob, wes};
    const int steps = play_out(h, players, match, rng, 3000, [&] {
        check_views(h, viewers, match);
        return true;
    });
    check_views(h, viewers, match);

    auto end = view_of(wes, match);
    INFO(end.dump());
    CHECK(end["status"] == "finished");
    CHECK(winners_of(end).size() == 1);
    CHECK((end["result"]["reason"] == "win" || end["result"]["reason"] == "no_turn"));
    CHECK(end["history"].size() == static_cast<std::size_t>(steps));
    CHECK(end["history"][0].get<std::string>().rfind("start ", 0) == 0);
    CHECK(h.recording.records().size() == static_cast<std::size_t>(steps));
    CHECK(h.recording.records().back().number == static_cast<std::uint32_t>(steps));
    CHECK(h.hub.live_matches().empty());
    CHECK(h.summary(match) == end);
    CHECK(h.metrics.live_matches == 0);
    // The spectator got every version after its snapshot, one patch each.
    CHECK(wes.conn->view(match).patches ==
          static_cast<int>(wes.conn->view(match).version - opened_at));

    h.send(ann.conn, {{"type", "match.step"}, {"match", match}, {"step", {{"kind", "pass"}}}});
    require_error(ann, "wrong_phase");
}

TEST_CASE("A god pair is drafted through the match: offer, choose, start player",
          "[match][draft]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2, "simple", "full"));
    auto view = view_of(ann, match);
    CHECK(view["status"] == "draft");
    CHECK(view["state"]["phase"] == "offer");
    const int challenger = view["state"]["draft"]["challenger"];
    const Player& chal = challenger == 0 ? ann : bob;
    const Player& other = challenger == 0 ? bob : ann;
    auto step = [&](const Player& p, json s) {
        h.send(p.conn, {{"type", "match.step"}, {"match", match}, {"step", s}, {"ref", "d"}});
        REQUIRE(p.conn->last("ack")["ref"] == "d");
    };
    step(chal, {{"kind", "offer"}, {"power", "Apollo"}});
    step(chal, {{"kind", "offer"}, {"power", "Pan"}});
    CHECK(view_of(other, match)["state"]["phase"] == "choose");
    step(other, {{"kind", "choose"}, {"power", "Pan"}});
    view = view_of(ann, match);
    CHECK(view["seats"][challenger]["power"] == "Apollo");
    CHECK(view["seats"][1 - challenger]["power"] == "Pan");
    CHECK(view["state"]["phase"] == "start_player");
    step(chal, {{"kind", "start_player"}, {"seat", 1 - challenger}});
    view = view_of(bob, match);
    CHECK(view["status"] == "placement");
    CHECK(view["history"] ==
          json{"offer Apollo", "offer Pan", "choose Pan", challenger == 0 ? "start B" : "start A"});
    CHECK(h.hub.live_matches()[0]["powers"][challenger] == "Apollo");

    std::mt19937 rng(11);
    play_out(h, players, match, rng, 3000);
    CHECK(view_of(ann, match)["status"] == "finished");
}

TEST_CASE("A 3-player game goes on after an elimination", "[match][3p]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cid = h.guest("Cid");
    const std::vector<Player> players{ann, bob, cid};
    const auto match = h.start_match(players, settings_json(3, "simple"));
    std::mt19937 rng(3);
    play_out(h, players, match, rng, 200,
             [&] { return view_of(ann, match)["status"] != "playing"; });
    REQUIRE(view_of(ann, match)["status"] == "playing");

    // The seat to move resigns: it is out, its workers leave, the next seat moves.
    int out = view_of(ann, match)["state"]["decider"];
    h.send(players[static_cast<std::size_t>(out)].conn,
           {{"type", "match.resign"}, {"match", match}, {"ref", "r"}});
    CHECK(players[static_cast<std::size_t>(out)].conn->last("ack")["ref"] == "r");
    auto view = view_of(cid, match);
    CHECK(view["status"] == "playing");
    CHECK(view["result"].is_null());
    CHECK(view["seats"][out]["out"] == true);
    CHECK(view["state"]["out"][out] == true);
    CHECK(view["state"]["decider"] != out);
    h.send(players[static_cast<std::size_t>(out)].conn,
           {{"type", "match.resign"}, {"match", match}});
    require_error(players[static_cast<std::size_t>(out)], "wrong_phase");

    play_out(h, players, match, rng, 3000);
    view = view_of(ann, match);
    INFO(view.dump());
    CHECK(view["status"] == "finished");
    auto winners = winners_of(view);
    REQUIRE(winners.size() == 1);
    CHECK(winners[0] != out);
}

TEST_CASE("A 4-player team game ends with both players of a team winning", "[match][4p]") {
    Harness h;
    std::vector<Player> players{h.guest("Ann"), h.guest("Bob"), h.guest("Cid"), h.guest("Dee")};
    const auto match = h.start_match(players, settings_json(4, "simple"));
    auto view = view_of(players[0], match);
    CHECK(view["seats"][0]["side"] == 0);
    CHECK(view["seats"][1]["side"] == 1);
    CHECK(view["seats"][2]["side"] == 0);
    std::mt19937 rng(5);
    play_out(h, players, match, rng, 4000);
    view = view_of(players[3], match);
    INFO(view.dump());
    CHECK(view["status"] == "finished");
    auto winners = winners_of(view);
    REQUIRE(winners.size() == 2);
    CHECK(winners[1] - winners[0] == 2);
}

TEST_CASE("Reopening with since gets the missed patches, or a snapshot when they are gone",
          "[match][resume]") {
    Config config;
    config.history_per_match = 4;
    Harness h(config);
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    std::mt19937 rng(1);
    play_out(h, players, match, rng, 1);
    const auto seen = ann.conn->view(match);  // the view a tab had before going away

    play_out(h, players, match, rng, 3);
    auto tab = h.tab(ann);
    h.send(tab, {{"type", "match.open"}, {"match", match}, {"since", seen.version}, {"ref", 1}});
    auto patches = tab->of_type("match.patch");
    REQUIRE(patches.size() == 3);
    CHECK(tab->of_type("match.snapshot").empty());
    json rebuilt = seen.view;
    for (std::size_t i = 0; i < patches.size(); ++i) {
        CHECK(patches[i]["version"] == seen.version + i + 1);
        rebuilt = rebuilt.patch(patches[i]["patch"]);
    }
    CHECK(rebuilt == ann.conn->view(match).view);
    CHECK(tab->messages().back() == json{{"type", "ack"}, {"ref", 1}});

    // Up to date: just the ack.
    auto current = h.tab(ann);
    h.send(current, {{"type", "match.open"},
                     {"match", match},
                     {"since", ann.conn->view(match).version},
                     {"ref", 2}});
    std::vector<json> replies;  // the `playing` event after hello is the connection's, not this match's
    for (const json& m : current->messages())
        if (m.value("type", "") != "playing") replies.push_back(m);
    CHECK(replies == std::vector<json>{json{{"type", "ack"}, {"ref", 2}}});

    // Further back than the history reaches, or from the future: a snapshot.
    play_out(h, players, match, rng, 4);
    for (std::uint64_t since : {seen.version, std::uint64_t{9999}}) {
        auto late = h.tab(ann);
        h.send(late, {{"type", "match.open"}, {"match", match}, {"since", since}});
        CHECK(late->of_type("match.patch").empty());
        REQUIRE(late->of_type("match.snapshot").size() == 1);
        CHECK(late->view(match).view == ann.conn->view(match).view);
    }
}

TEST_CASE("The resume history is bounded in bytes: past the bound a resume gets a snapshot",
          "[match][resume]") {
    Config config;
    config.history_per_match = 1000;
    config.history_bytes_per_viewer = 1500;  // a few patches: the legal steps weigh most
    Harness h(config);
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    std::mt19937 rng(3);
    play_out(h, players, match, rng, 1);
    const auto seen = ann.conn->view(match);

    // The newest patch is always kept, whatever its size.
    play_out(h, players, match, rng, 1);
    auto one_back = h.tab(ann);
    h.send(one_back, {{"type", "match.open"}, {"match", match}, {"since", seen.version}});
    CHECK(one_back->of_type("match.patch").size() == 1);

    // Many patches later their bytes passed the bound: the oldest are gone.
    std::size_t bytes = 0;
    const auto before = ann.conn->messages().size();
    play_out(h, players, match, rng, 12);
    const auto all = ann.conn->messages();
    for (std::size_t i = before; i < all.size(); ++i)
        if (all[i]["type"] == "match.patch") bytes += all[i].dump().size();
    REQUIRE(bytes > config.history_bytes_per_viewer);
    auto late = h.tab(ann);
    h.send(late, {{"type", "match.open"}, {"match", match}, {"since", seen.version}});
    CHECK(late->of_type("match.patch").empty());
    REQUIRE(late->of_type("match.snapshot").size() == 1);
    CHECK(late->view(match).view == ann.conn->view(match).view);
}

TEST_CASE("Refused steps change nothing: wrong seat, spectator, illegal, unknown match",
          "[match]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
    std::mt19937 rng(2);
    play_out(h, players, match, rng, 3);  // start player and some placement
    const Player& mover = decides(*ann.conn, match) ? ann : bob;
    const Player& waiter = decides(*ann.conn, match) ? bob : ann;
    const auto version = wes.conn->view(match).version;
    const json legal = view_of(mover, match)["state"]["legal"][0];

    h.send(waiter.conn, {{"type", "match.step"}, {"match", match}, {"step", legal}, {"ref", 9}});
    require_error(waiter, "not_your_turn");
    CHECK(waiter.conn->last("error")["ref"] == 9);
    h.send(wes.conn, {{"type", "match.step"}, {"match", match}, {"step", legal}});
    require_error(wes, "not_authorized");
    h.send(mover.conn, {{"type", "match.step"},
                        {"match", match},
                        {"step", {{"kind", "move"}, {"from", "A1"}, {"to", "E5"}}}});
    require_error(mover, "illegal_step");
    // What no game could read passes the parser; the match's game finds it malformed.
    h.send(mover.conn, {{"type", "match.step"}, {"match", match}, {"step", {{"kind", "jump"}}}});
    require_error(mover, "invalid_field");
    // So does a step of the other game.
    h.send(mover.conn, {{"type", "match.step"},
                        {"match", match},
                        {"step", {{"kind", "take"}, {"gems", {"red", "red"}}}}});
    require_error(mover, "invalid_field");
    h.send(mover.conn, {{"type", "match.step"}, {"match", "m_unknown"}, {"step", legal}});
    require_error(mover, "unknown_match");
    h.send(wes.conn, {{"type", "match.abort"}, {"match", match}});
    require_error(wes, "not_authorized");

    for (const auto& p : {ann, bob, wes}) CHECK(p.conn->view(match).version == version);
    CHECK(h.recording.records().size() == 3);
    CHECK(h.metrics.render().find("not_your_turn") != std::string::npos);
}

TEST_CASE("Nothing is broadcast before the store has the step; a failed store changes nothing",
          "[match][durability]") {
    HoldingStore store;
    Harness h(Config{}, &store);
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    const Player& mover = decides(*ann.conn, match) ? ann : bob;
    const Player& other = decides(*ann.conn, match) ? bob : ann;
    const auto version = ann.conn->view(match).version;
    const json step = view_of(mover, match)["state"]["legal"][0];

    h.send(mover.conn, {{"type", "match.step"}, {"match", match}, {"step", step}, {"ref", "s1"}});
    REQUIRE(store.waiting() == 1);
    CHECK(mover.conn->of_type("ack").empty());
    CHECK(ann.conn->view(match).version == version);
    CHECK(bob.conn->view(match).version == version);

    // While it is stored, the match takes no other action.
    h.send(mover.conn, {{"type", "match.step"}, {"match", match}, {"step", step}});
    require_error(mover, "busy");
    h.send(other.conn, {{"type", "match.abort"}, {"match", match}});
    require_error(other, "busy");

    auto record = store.answer(true);
    h.settle();
    CHECK(record.match_id == match);
    CHECK(record.number == 1);
    CHECK(record.player_id == mover.id);
    CHECK(json::parse(record.step_json) == step);
    CHECK(mover.conn->last("ack")["ref"] == "s1");
    CHECK(ann.conn->view(match).version == version + 1);
    CHECK(view_of(bob, match)["history"].size() == 1);

    // The store fails: the sender hears unavailable, nobody else hears anything.
    const Player& next = decides(*ann.conn, match) ? ann : bob;
    const json step2 = view_of(next, match)["state"]["legal"][0];
    h.send(next.conn, {{"type", "match.step"}, {"match", match}, {"step", step2}, {"ref", "s2"}});
    store.answer(false);
    h.settle();
    require_error(next, "unavailable");
    CHECK(next.conn->last("error")["ref"] == "s2");
    CHECK(ann.conn->view(match).version == version + 1);
    CHECK(view_of(bob, match)["history"].size() == 1);

    // And the same step goes through once the store works again, with the same number.
    h.send(next.conn, {{"type", "match.step"}, {"match", match}, {"step", step2}});
    CHECK(store.answer(true).number == 2);
    h.settle();
    CHECK(ann.conn->view(match).version == version + 2);
}

TEST_CASE("Resigning in play loses; resigning in the draft aborts", "[match][resign]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));

    SECTION("in play") {
        std::mt19937 rng(4);
        play_out(h, players, match, rng, 200,
                 [&] { return view_of(ann, match)["status"] != "playing"; });
        h.send(bob.conn, {{"type", "match.resign"}, {"match", match}});
        auto view = view_of(ann, match);
        CHECK(view["status"] == "finished");
        CHECK(view["result"] == json{{"winners", {0}}, {"reason", "resign"}});
        CHECK(h.recording.records().back().step_json == R"({"kind":"resign","seat":1})");
    }
    SECTION("in the draft") {
        h.send(bob.conn, {{"type", "match.resign"}, {"match", match}});
        auto view = view_of(ann, match);
        CHECK(view["status"] == "aborted");
        CHECK(view["result"] == json{{"winners", json::array()}, {"reason", "aborted"}});
    }
    CHECK(h.hub.live_matches().empty());
    h.send(ann.conn, {{"type", "match.resign"}, {"match", match}});
    require_error(ann, "wrong_phase");
}

TEST_CASE("A match can be aborted before the first move, not after", "[match][abort]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    std::mt19937 rng(6);

    SECTION("during placement") {
        play_out(h, players, match, rng, 2);
        h.send(ann.conn, {{"type", "match.abort"}, {"match", match}, {"ref", "a"}});
        CHECK(ann.conn->last("ack")["ref"] == "a");
        auto view = view_of(bob, match);
        CHECK(view["status"] == "aborted");
        CHECK(view["result"].is_null());
        CHECK_FALSE(view["state"].contains("legal"));
        CHECK(h.hub.live_matches().empty());
    }
    SECTION("after the first move") {
        auto no_move_yet = [&] {
            const json view = view_of(ann, match);
            for (const auto& text : view["history"])
                if (text.get<std::string>().rfind("move", 0) == 0) return false;
            return true;
        };
        play_out(h, players, match, rng, 200, no_move_yet);
        REQUIRE_FALSE(no_move_yet());
        const auto version = ann.conn->view(match).version;
        h.send(bob.conn, {{"type", "match.abort"}, {"match", match}});
        require_error(bob, "wrong_phase");
        CHECK(ann.conn->view(match).version == version);
        CHECK(view_of(ann, match)["status"] == "playing");
    }
}

TEST_CASE("Connections come and go: seats show connected, spectators are counted once each",
          "[match][presence]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    const auto match = h.start_match({ann, bob}, settings_json(2));
    auto wes_tab = h.tab(wes);
    h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
    h.send(wes_tab, {{"type", "match.open"}, {"match", match}});
    CHECK(view_of(ann, match)["spectators"] == 1);
    CHECK(h.hub.live_matches()[0]["spectators"] == 1);

    const auto version = ann.conn->view(match).version;
    h.drop(bob.conn);
    CHECK(view_of(ann, match)["seats"][1]["connected"] == false);
    CHECK(ann.conn->view(match).version == version + 1);
    CHECK(wes_tab->view(match).version == version + 1);  // both spectator tabs get every patch

    // Bob comes back in a new connection with the view he had: he gets what he missed,
    // including his own return.
    auto bob_again = h.tab(bob);
    h.send(bob_again, {{"type", "match.open"}, {"match", match}, {"since", version}});
    CHECK(view_of(ann, match)["seats"][1]["connected"] == true);
    auto missed = bob_again->of_type("match.patch");
    REQUIRE(missed.size() == 2);
    CHECK(bob_again->of_type("match.snapshot").empty());
    json rebuilt = view_of(bob, match);
    for (const auto& p : missed) rebuilt = rebuilt.patch(p["patch"]);
    CHECK(rebuilt["seats"][1]["connected"] == true);
    CHECK(rebuilt["you"] == 1);

    h.send(wes.conn, {{"type", "match.close"}, {"match", match}});
    h.send(wes_tab, {{"type", "match.close"}, {"match", match}});
    CHECK(view_of(ann, match)["spectators"] == 0);
    const auto closed_at = wes.conn->view(match).version;
    h.send(ann.conn, {{"type", "match.resign"}, {"match", match}});
    CHECK(wes.conn->view(match).version == closed_at);  // closed: no more patches
}

TEST_CASE("A finished match is kept for a while, then forgotten", "[match]") {
    Config config;
    config.finished_match_keep = std::chrono::milliseconds(30);
    config.finished_matches_in_memory = 0;  // as with a database: nothing kept after the delay
    Harness h(config);
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    h.send(bob.conn, {{"type", "match.resign"}, {"match", match}});
    REQUIRE(h.summary(match).has_value());  // right after the end: still there
    CHECK((*h.summary(match))["status"] == "aborted");

    std::this_thread::sleep_for(std::chrono::milliseconds(80));
    h.settle();
    CHECK_FALSE(h.summary(match).has_value());
    h.send(ann.conn, {{"type", "match.open"}, {"match", match}, {"ref", "late"}});
    CHECK(ann.conn->last("error")["code"] == "unknown_match");
}

}  // namespace match_test
