// The hub's own duties: guests and tokens, dispatch, errors to the sender only, the HTTP
// getters, disconnects and shutdown.

#include <boost/asio/executor_work_guard.hpp>
#include <catch2/catch_test_macros.hpp>
#include <set>
#include <thread>

#include "server/app/ids.hpp"
#include "tests/server/support/hub_harness.hpp"

using namespace server;
using namespace server::test;

TEST_CASE("Guests get an id and a 128-bit token that authenticates them", "[hub][identity]") {
    Harness h;
    auto ann = h.hub.create_guest("Ann");
    REQUIRE(ann);
    CHECK(ann->id.rfind("p_", 0) == 0);
    CHECK(ann->id.size() == 18);
    CHECK(ann->name == "Ann");
    CHECK(ann->token.size() == 32);
    CHECK(ann->token.find_first_not_of("0123456789abcdef") == std::string::npos);
    auto again = h.hub.authenticate(ann->token);
    REQUIRE(again);
    CHECK(again->id == ann->id);
    CHECK(again->name == "Ann");
    CHECK_FALSE(h.hub.authenticate("0123456789abcdef0123456789abcdef"));
    CHECK_FALSE(h.hub.authenticate(""));
    auto ann2 = h.hub.create_guest("Ann");  // names need not be unique; ids and tokens are
    REQUIRE(ann2);
    CHECK(ann2->id != ann->id);
    CHECK(ann2->token != ann->token);
}

TEST_CASE("Guest names are 1-24 printable characters", "[hub][identity]") {
    Harness h;
    CHECK(h.hub.create_guest("A"));
    CHECK(h.hub.create_guest(std::string(24, 'x')));
    CHECK(h.hub.create_guest("Zoë Ωmega"));                 // UTF-8 counts characters, not bytes
    CHECK(h.hub.create_guest("ÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅ"));  // 24 characters, 48 bytes
    CHECK_FALSE(h.hub.create_guest(""));
    CHECK_FALSE(h.hub.create_guest("   "));
    CHECK_FALSE(h.hub.create_guest(std::string(25, 'x')));
    CHECK_FALSE(h.hub.create_guest("tab\there"));
    CHECK_FALSE(h.hub.create_guest("line\n"));
    CHECK_FALSE(h.hub.create_guest("\xC3"));          // cut short
    CHECK_FALSE(h.hub.create_guest("\xC0\xAF"));      // overlong
    CHECK_FALSE(h.hub.create_guest("\xED\xA0\x80"));  // surrogate
}

TEST_CASE("Random ids, invite codes and tokens do not repeat", "[hub][identity]") {
    std::set<std::string> ids, codes, tokens;
    for (int i = 0; i < 1000; ++i) {
        ids.insert(random_id("m_"));
        codes.insert(invite_code());
        tokens.insert(secret_token());
    }
    CHECK(ids.size() == 1000);
    CHECK(codes.size() == 1000);
    CHECK(tokens.size() == 1000);
    for (const auto& c : codes) CHECK(c.find_first_of("01IO") == std::string::npos);
    std::set<int> seats;
    for (int i = 0; i < 200; ++i) seats.insert(random_below(4));
    CHECK(seats == std::set<int>{0, 1, 2, 3});
}

TEST_CASE("Ping gets pong; hello again and unknown matches are errors to the sender", "[hub]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    h.send(ann.conn, {{"type", "ping"}, {"ref", 5}});
    CHECK(ann.conn->messages().back() == json{{"type", "pong"}, {"ref", 5}});

    h.send(ann.conn, {{"type", "hello"}, {"protocol", 1}, {"token", "x"}});
    CHECK(ann.conn->last("error")["code"] == "wrong_phase");

    for (const char* type : {"match.open", "match.close", "match.resign", "match.abort"}) {
        h.send(ann.conn, {{"type", type}, {"match", "m_nothing"}, {"ref", type}});
        auto e = ann.conn->last("error");
        CHECK(e["code"] == "unknown_match");
        CHECK(e["ref"] == type);
    }
    CHECK(bob.conn->messages().empty());
    CHECK(h.metrics.render().find("unknown_match") != std::string::npos);
}

TEST_CASE("The HTTP getters see lobbies and matches as they change", "[hub]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    CHECK(h.hub.public_lobbies() == json::array());
    CHECK(h.hub.live_matches() == json::array());
    CHECK_FALSE(h.summary("m_nothing"));
    const auto match = h.start_match({ann, bob}, settings_json(2));
    auto summary = h.summary(match);
    REQUIRE(summary);
    CHECK((*summary)["you"].is_null());
    CHECK_FALSE((*summary)["state"].contains("legal"));
    CHECK((*summary)["seats"][0]["connected"] == true);
    CHECK(h.hub.live_matches().size() == 1);
}

TEST_CASE("A player's tabs all hear about their lobby", "[hub]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    auto ann_tab = h.tab(ann);
    h.send(ann_tab, {{"type", "ping"}});  // the hub knows a tab once it has spoken
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}});
    const std::string id = ann.conn->last("lobby")["lobby"]["id"];
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});
    CHECK(ann_tab->last("lobby")["lobby"]["status"] == "full");

    h.drop(ann_tab);
    h.send(bob.conn, {{"type", "lobby.leave"}, {"lobby", id}});
    CHECK(ann_tab->last("lobby")["lobby"]["status"] == "full");  // gone: told nothing more
    CHECK(ann.conn->last("lobby")["lobby"]["status"] == "waiting");
}

TEST_CASE("A tab that connects later is told its player's lobby at once, code included", "[hub]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    auto settings = settings_json(2);
    settings["public"] = false;
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings}});
    const json lobby = ann.conn->last("lobby")["lobby"];
    REQUIRE(lobby.contains("code"));

    auto ann_phone = h.tab(ann);
    h.hub.connected(ann_phone);  // what the transport does after its welcome
    h.settle();
    CHECK(ann_phone->last("lobby")["lobby"] == lobby);

    auto bob_tab = h.tab(bob);  // Bob sits in no lobby: told nothing
    h.hub.connected(bob_tab);
    h.settle();
    CHECK(bob_tab->last("lobby").is_null());
}

TEST_CASE("A disconnected player keeps the seat; the match goes on", "[hub]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    h.drop(ann.conn);
    CHECK(view_of(bob, match)["seats"][0]["connected"] == false);
    auto back = h.tab(ann);
    h.send(back, {{"type", "match.open"}, {"match", match}});
    CHECK(back->view(match).view["you"] == 0);
    CHECK(view_of(bob, match)["seats"][0]["connected"] == true);
}

TEST_CASE("After shutdown the hub refuses new work", "[hub]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const auto match = h.start_match({ann, bob}, settings_json(2));
    h.hub.shutdown();
    h.settle();
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}});
    CHECK(ann.conn->last("error")["code"] == "unavailable");
    h.send(ann.conn, {{"type", "match.resign"}, {"match", match}});
    CHECK(ann.conn->last("error")["code"] == "unavailable");
    CHECK(view_of(bob, match)["status"] == "draft");
}

TEST_CASE("Many matches are played at once on a multi-threaded io_context", "[hub][threads]") {
    Harness h;
    auto work = boost::asio::make_work_guard(h.io);
    std::vector<std::thread> threads;
    for (int i = 0; i < 4; ++i) threads.emplace_back([&] { h.io.run(); });
    // Messages go straight to the hub from this thread while the strands run on the others.
    auto send = [&](const Player& p, const json& message) {
        auto parsed = protocol::parse_client_message(message.dump());
        REQUIRE(std::holds_alternative<protocol::ClientMessage>(parsed));
        h.hub.handle(p.conn, std::get<protocol::ClientMessage>(std::move(parsed)));
    };
    auto wait_for = [](const std::function<bool()>& done) {
        for (int i = 0; i < 20000 && !done(); ++i)
            std::this_thread::sleep_for(std::chrono::microseconds(500));
        return done();
    };

    constexpr int pairs = 6;
    std::vector<std::vector<Player>> tables;
    std::vector<std::string> matches;
    auto wes = h.guest("Wes");
    send(wes, {{"type", "matches.subscribe"}});
    for (int t = 0; t < pairs; ++t) {
        std::vector<Player> table{h.guest("A" + std::to_string(t)),
                                  h.guest("B" + std::to_string(t))};
        send(table[0], {{"type", "lobby.create"}, {"settings", settings_json(2)}});
        REQUIRE(wait_for([&] { return table[0].conn->last("lobby").is_object(); }));
        send(table[1],
             {{"type", "lobby.join"}, {"lobby", table[0].conn->last("lobby")["lobby"]["id"]}});
        REQUIRE(
            wait_for([&] { return table[0].conn->last("lobby")["lobby"]["status"] == "full"; }));
        send(table[0],
             {{"type", "lobby.start"}, {"lobby", table[0].conn->last("lobby")["lobby"]["id"]}});
        REQUIRE(wait_for([&] { return table[1].conn->last("lobby.closed").is_object(); }));
        matches.push_back(table[1].conn->last("lobby.closed")["match"]);
        for (const auto& p : table) send(p, {{"type", "match.open"}, {"match", matches.back()}});
        send(wes, {{"type", "match.open"}, {"match", matches.back()}});
        tables.push_back(std::move(table));
    }

    std::mt19937 rng(13);
    // History length when each table's last step was sent: presence changes also bump the
    // version, so only a longer history tells that the step was played.
    std::vector<std::ptrdiff_t> sent_at(pairs, -1);
    auto all_over = [&] {
        for (int t = 0; t < pairs; ++t)
            if (view_of(tables[static_cast<std::size_t>(t)][0],
                        matches[static_cast<std::size_t>(t)])["status"] != "finished")
                return false;
        return true;
    };
    for (int round = 0; round < 100000 && !all_over(); ++round) {
        for (int t = 0; t < pairs; ++t) {
            const auto& m = matches[static_cast<std::size_t>(t)];
            for (const auto& p : tables[static_cast<std::size_t>(t)]) {
                auto tracked = p.conn->view(m);
                // One step at a time: the next is sent once this player has seen the last.
                const auto played = static_cast<std::ptrdiff_t>(tracked.view["history"].size());
                if (played <= sent_at[static_cast<std::size_t>(t)] ||
                    !tracked.view["state"].contains("legal"))
                    continue;
                sent_at[static_cast<std::size_t>(t)] = played;
                send(
                    p,
                    {{"type", "match.step"}, {"match", m}, {"step", pick_step(tracked.view, rng)}});
            }
        }
        std::this_thread::sleep_for(std::chrono::microseconds(200));
    }
    const bool finished = all_over();
    REQUIRE(wait_for([&] { return h.hub.live_matches().empty(); }));
    // The list subscriber's last change arrives on its own strand after the matches left the
    // live list: wait for it before shutdown stops delivery.
    CHECK(wait_for([&] { return subscribed_list(*wes.conn, "matches") == json::array(); }));
    h.hub.shutdown();  // cancels the timers that would keep finished matches for a while
    work.reset();
    for (auto& t : threads) t.join();

    CHECK(finished);
    for (int t = 0; t < pairs; ++t) {
        const auto& m = matches[static_cast<std::size_t>(t)];
        const auto spectator = wes.conn->view(m);
        CHECK(spectator.errors == 0);
        CHECK(h.summary(m) == spectator.view);
        for (const auto& p : tables[static_cast<std::size_t>(t)]) {
            CHECK(p.conn->view(m).errors == 0);
            CHECK(p.conn->view(m).version == spectator.version);
            for (const auto& e : p.conn->of_type("error")) FAIL_CHECK(e.dump());
        }
    }
}

TEST_CASE("Match requests go through the connection's own handle", "[hub][handles]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    // Opening a match leaves a handle with the connection (no hub lookup for what follows).
    for (const auto& p : players) {
        auto& opened = p.conn->hub_state().opened;
        REQUIRE(opened.count(match) == 1);
        CHECK_FALSE(opened.at(match).expired());
    }
    std::mt19937 rng(3);
    CHECK(play_out(h, players, match, rng, 4) == 4);  // steps routed through the handles

    // Closing drops the handle; a request for a match not opened still finds it in the hub.
    h.send(bob.conn, {{"type", "match.close"}, {"match", match}, {"ref", 1}});
    CHECK(bob.conn->hub_state().opened.count(match) == 0);
    auto bob_other = h.tab(bob);  // never opened it
    h.send(bob_other, {{"type", "match.resign"}, {"match", match}, {"ref", 2}});
    CHECK(bob_other->last("ack")["ref"] == 2);
    CHECK(view_of(ann, match)["status"] == "aborted");  // resigned during the setup

    // A dropped connection leaves the matches it had open through its handles.
    auto wes = h.guest("Wes");
    h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
    CHECK(view_of(ann, match)["spectators"] == 1);
    h.drop(wes.conn);
    CHECK(wes.conn->hub_state().opened.empty());
    CHECK(h.summary(match).value()["spectators"] == 0);
}

TEST_CASE("A finished match leaves the hub and memory; without a database a few stay",
          "[hub][finished]") {
    Config config;
    config.finished_match_keep = std::chrono::milliseconds(20);
    config.finished_matches_in_memory = 1;
    Harness h(config);
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    auto play_and_resign = [&] {
        const auto match = h.start_match({ann, bob}, settings_json(2));
        h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
        h.send(ann.conn, {{"type", "match.resign"}, {"match", match}});
        REQUIRE(view_of(wes, match)["status"] == "aborted");
        return match;
    };
    auto wait_out_keep = [&] {
        std::this_thread::sleep_for(std::chrono::milliseconds(60));
        h.settle();
    };
    const auto first = play_and_resign();
    CHECK(h.summary(first).has_value());  // within finished_match_keep
    wait_out_keep();
    CHECK(h.summary(first).has_value());  // kept: the one finished match memory mode keeps

    const auto second = play_and_resign();
    wait_out_keep();
    CHECK(h.summary(second).has_value());
    // The oldest went: not in the hub, and gone from memory (every handle to it expired, even
    // those of connections that still have it open).
    CHECK_FALSE(h.summary(first).has_value());
    for (const auto& conn : {ann.conn, bob.conn, wes.conn})
        CHECK(conn->hub_state().opened.at(first).expired());
    h.send(wes.conn, {{"type", "match.open"}, {"match", first}, {"ref", "late"}});
    CHECK(wes.conn->last("error")["code"] == "unknown_match");
    CHECK(wes.conn->last("error")["ref"] == "late");
    // The failed open dropped the expired handle.
    CHECK(wes.conn->hub_state().opened.count(first) == 0);
    CHECK(h.hub.live_matches().empty());
}

TEST_CASE("The spectator view of GET /api/matches/{id} comes from the match's strand",
          "[hub][summary]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    bool answered = false;
    h.hub.match_summary("m_nothing", [&](std::optional<json> view) {
        answered = true;
        CHECK_FALSE(view);
    });
    CHECK(answered);  // unknown: at once

    const auto match = h.start_match({ann, bob}, settings_json(2));
    h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
    std::optional<json> summary;
    h.hub.match_summary(match, [&](std::optional<json> view) { summary = std::move(view); });
    CHECK_FALSE(summary);  // asked of the match's strand: nothing until it runs
    h.settle();
    REQUIRE(summary);
    CHECK(*summary == view_of(wes, match));
    CHECK((*summary)["you"].is_null());
}

TEST_CASE("The live list changes only when an entry does; watchers hear each change once",
          "[hub][live]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    h.send(wes.conn, {{"type", "matches.subscribe"}, {"ref", 1}});
    const std::vector<Player> players{ann, bob};
    const auto match = h.start_match(players, settings_json(2));
    std::mt19937 rng(5);
    play_out(h, players, match, rng, 12);
    // A snapshot on subscribing, then changes only (each one different from the last).
    CHECK(wes.conn->of_type("matches").size() == 1);
    CHECK(wes.conn->of_type("matches").front()["matches"] == json::array());
    const auto events = wes.conn->of_type("matches.changed");
    REQUIRE(events.size() >= 1);
    for (std::size_t i = 1; i < events.size(); ++i) CHECK(events[i] != events[i - 1]);
    const json list = h.hub.live_matches();
    REQUIRE(list.size() == 1);
    CHECK(subscribed_list(*wes.conn, "matches") == list);
    CHECK(list[0]["id"] == match);
    CHECK(list[0].size() ==
          6);  // an entry, not a view: id, game, players, powers, status, spectators
    CHECK(list[0]["game"] == "santorini");
}
