// Real sockets on loopback: the lists (lobbies, live matches) go out as a snapshot and then as
// coalesced changes; subscribers that never read cannot grow the server's memory; a player's
// live matches are capped; spectators coming and going cost the players nothing noticeable.
// Meanwhile honest players play on. All traffic of the e2e players passes the schemas.

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "server/net/websocket_session.hpp"
#include "tests/server/support/abuse_support.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

const json no_powers = {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"clock", {{"kind", "none"}}}};

// `list` after a `<list>.changed` event, as the browser client applies it.
json apply_changes(json list, const json& change) {
    json next = json::array();
    for (const json& entry : list)
        if (std::find(change["removed"].begin(), change["removed"].end(), entry["id"]) == change["removed"].end())
            next.push_back(entry);
    for (const json& entry : change["changed"]) {
        auto at = std::find_if(next.begin(), next.end(), [&](const json& e) { return e["id"] == entry["id"]; });
        if (at != next.end())
            *at = entry;
        else
            next.push_back(entry);
    }
    return next;
}

}  // namespace

TEST_CASE("a list goes out as a snapshot, then as coalesced changes", "[abuse][lists]") {
    server::Config config = e2e::config();
    config.list_interval = 400ms;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    e2e::Player watcher(port, traffic, "watcher");
    watcher.hello(e2e::http_guest(port, "Wes").token);
    watcher.send({{"type", "lobbies.subscribe"}, {"ref", "sub"}});
    const auto snapshot = watcher.until_type("lobbies");
    REQUIRE(snapshot);
    json list = (*snapshot)["lobbies"];
    CHECK(list == json::array());
    REQUIRE(watcher.until_reply("sub"));

    // Twelve hosts open public lobbies as fast as they can: a handful of change events at most.
    std::vector<std::unique_ptr<e2e::Player>> hosts;
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"public", true}};
    const auto start = abuse::Clock::now();
    for (int i = 0; i < 12; ++i) {
        hosts.push_back(std::make_unique<e2e::Player>(port, traffic, "host" + std::to_string(i)));
        hosts.back()->hello(e2e::http_guest(port, "Host " + std::to_string(i)).token);
        hosts.back()->send({{"type", "lobby.create"}, {"ref", "c"}, {"settings", settings}});
        REQUIRE(hosts.back()->until_reply("c"));
    }
    const auto took = abuse::Clock::now() - start;
    int events = 0;
    while (list.size() < 12) {
        const auto change = watcher.until_type("lobbies.changed", 3s);
        REQUIRE(change);
        CHECK((*change)["removed"] == json::array());
        list = apply_changes(list, *change);
        ++events;
    }
    const int bound = 2 + static_cast<int>(took / config.list_interval);
    INFO(events << " change events for 12 lobbies made in " << std::chrono::duration_cast<std::chrono::milliseconds>(took).count()
                << " ms");
    CHECK(events <= bound);
    CHECK(events < 12);
    CHECK(list == running.server().hub().public_lobbies());

    // A lobby that goes is a removal, not a new list.
    const std::string gone = list[3]["id"];
    hosts[3]->send({{"type", "lobby.leave"}, {"ref", "l"}, {"lobby", gone}});
    REQUIRE(hosts[3]->until_reply("l"));
    const auto change = watcher.until_type("lobbies.changed", 3s);
    REQUIRE(change);
    CHECK((*change)["removed"] == json::array({gone}));
    CHECK((*change)["changed"] == json::array());
    list = apply_changes(list, *change);
    CHECK(list == running.server().hub().public_lobbies());
    // Nothing more while nothing changes.
    CHECK_FALSE(watcher.until_type("lobbies.changed", 1s));
    e2e::check_traffic(traffic);
}

TEST_CASE("subscribers that never read and re-subscribe are cut; memory stays bounded; the game goes on",
          "[abuse][lists]") {
    server::Config config = e2e::config();
    config.max_queued_bytes = 256 * 1024;
    config.max_live_matches_per_player = 0;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    // Forty live matches of players with long names: a list of some 6 KiB.
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    a.hello(e2e::http_guest(port, "Ann with a long name xx").token);
    b.hello(e2e::http_guest(port, "Bob with a long name yyy").token);
    std::string match;
    // Public lobbies: a private lobby's match is never in the list.
    json listed = no_powers;
    listed["public"] = true;
    for (int i = 0; i < 40; ++i) match = e2e::start_lobby_match(a, {&b}, listed).match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::sync({&a, &b}, match);
    const std::size_t list_bytes = running.server().hub().live_matches().dump().size();
    INFO("list of " << list_bytes << " bytes");
    REQUIRE(list_bytes > 4000);

    // Twenty attackers with narrow windows never read and subscribe over and over.
    std::vector<std::unique_ptr<test::WsClient>> attackers;
    for (int i = 0; i < 20; ++i) {
        attackers.push_back(std::make_unique<test::WsClient>(port, "/ws", 5s, /*receive_window=*/4096));
        REQUIRE(attackers.back()->hello(running.guest_token("reader" + std::to_string(i))));
    }
    const std::size_t memory_before = abuse::memory_in_use();
    std::atomic<bool> attacking{true};
    std::thread attack([&] {
        for (int round = 0; round < 200; ++round)
            for (auto& attacker : attackers)
                if (!attacker->ended()) attacker->send(R"({"type":"matches.subscribe"})", 200ms);
        attacking = false;
    });

    // Ann and Bob play on (and when their game is over, keep pinging); their round trips stay fast.
    const std::vector<e2e::Player*> seats = [&] {
        std::vector<e2e::Player*> out(2);
        for (e2e::Player* p : {&a, &b}) out.at(p->match(match).view["you"].get<std::size_t>()) = p;
        return out;
    }();
    std::size_t memory_peak = memory_before;
    abuse::Clock::duration slowest{};
    int steps = 0;
    int pings = 0;
    while (attacking) {
        const auto t = abuse::Clock::now();
        if (a.match(match).view["status"] != "finished") {
            e2e::play_first_legal(seats, {&a, &b}, match, ++steps);
        } else {
            a.send({{"type", "ping"}, {"ref", ++pings}});
            REQUIRE(a.until_type("pong"));
        }
        slowest = std::max(slowest, abuse::Clock::now() - t);
        memory_peak = std::max(memory_peak, abuse::memory_in_use());
        std::this_thread::sleep_for(2ms);
    }
    attack.join();
    memory_peak = std::max(memory_peak, abuse::memory_in_use());
    INFO(steps << " steps, slowest " << std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count()
               << " ms; memory before " << memory_before << ", peak " << memory_peak);
    CHECK(steps > 0);
    CHECK(slowest < (abuse::sanitized ? 2000ms : 500ms));
    // 20 queues of at most 256 KiB of shared snapshots: far below what an unbounded queue takes.
    CHECK(memory_peak - memory_before < (24u << 20));
    // Every attacker that kept subscribing was cut as too slow (and nobody else).
    int cut = 0;
    std::string codes;
    for (auto& attacker : attackers) {
        const auto code = attacker->read_close(5s);
        codes += (code ? std::to_string(*code) : std::string("none")) + (attacker->ended() ? "e " : " ");
        cut += code == std::optional<std::uint16_t>(server::close_codes::too_slow);
    }
    INFO("close codes: " << codes);
    CHECK(cut == 20);
    for (const auto& session : running.server().sessions().sessions())
        CHECK(session->peak_queued_bytes() <= config.max_queued_bytes + list_bytes + 1024);
    CHECK_FALSE(a.raw().ended());
    CHECK_FALSE(b.raw().ended());
    e2e::check_traffic(traffic);
}

TEST_CASE("a player's live matches are capped: too_many_matches", "[abuse][lists]") {
    server::Config config = e2e::config();
    config.max_live_matches_per_player = 3;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    a.hello(e2e::http_guest(port, "Ann").token);
    b.hello(e2e::http_guest(port, "Bob").token);
    std::vector<std::string> matches;
    // Public lobbies: the hub's live list (checked below) never holds a private lobby's match.
    json listed = no_powers;
    listed["public"] = true;
    for (int i = 0; i < 3; ++i) matches.push_back(e2e::start_lobby_match(a, {&b}, listed).match);

    // The fourth lobby fills but does not start; nothing changes.
    json settings = no_powers;
    settings["public"] = false;
    a.send({{"type", "lobby.create"}, {"ref", "c4"}, {"settings", settings}});
    const auto lobby = a.until_type("lobby");
    REQUIRE(lobby);
    REQUIRE(a.until_reply("c4"));
    b.send({{"type", "lobby.join"}, {"ref", "j4"}, {"code", (*lobby)["lobby"]["code"]}});
    REQUIRE(b.until_reply("j4"));
    a.send({{"type", "lobby.start"}, {"ref", "s4"}, {"lobby", (*lobby)["lobby"]["id"]}});
    const auto refused = a.until_reply("s4");
    REQUIRE(refused);
    CHECK((*refused)["type"] == "error");
    CHECK((*refused)["code"] == "too_many_matches");
    CHECK(running.server().hub().live_matches().size() == 3);

    // Once one of them ends, the lobby starts.
    e2e::open_match(a, matches[0]);
    a.send({{"type", "match.resign"}, {"ref", "r"}, {"match", matches[0]}});
    REQUIRE(a.until_reply("r"));
    REQUIRE(test::eventually([&] { return running.server().hub().live_matches().size() == 2; }));
    a.send({{"type", "lobby.start"}, {"ref", "s5"}, {"lobby", (*lobby)["lobby"]["id"]}});
    const auto started = a.until_reply("s5");
    REQUIRE(started);
    CHECK((*started)["type"] == "ack");
    e2e::check_traffic(traffic);
}

TEST_CASE("spectators coming and going cost the players at most one patch a second", "[abuse][lists]") {
    server::Config config = e2e::config();
    config.spectators_interval = std::chrono::milliseconds(1000);
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "sue");
    a.hello(e2e::http_guest(port, "Ann").token);
    b.hello(e2e::http_guest(port, "Bob").token);
    s.hello(e2e::http_guest(port, "Sue").token);
    const std::string match = e2e::start_private_match(a, b, no_powers).match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    const std::uint64_t before = e2e::sync({&a, &b}, match);
    const std::size_t received_before = a.received().size();

    // Sue opens and closes the match as a spectator, over and over, for about two seconds.
    const auto start = abuse::Clock::now();
    int churns = 0;
    while (abuse::Clock::now() - start < 2s) {
        std::this_thread::sleep_for(20ms);
        e2e::open_match(s, match, std::nullopt, "o" + std::to_string(churns));
        s.send({{"type", "match.close"}, {"ref", "x"}, {"match", match}});
        REQUIRE(s.until_reply("x"));
        ++churns;
    }
    const double seconds = std::chrono::duration<double>(abuse::Clock::now() - start).count();
    // Ann reads what came: at most one presence patch a second (plus one at the edge).
    e2e::drain(a, 1500ms);
    const std::uint64_t after = a.version_of(match);
    const std::size_t messages = a.received().size() - received_before;
    INFO(churns << " opens and closes in " << seconds << " s; Ann's versions " << before << " -> " << after);
    CHECK(churns > 10);
    CHECK(after - before <= static_cast<std::uint64_t>(seconds) + 2);
    CHECK(messages <= static_cast<std::size_t>(seconds) + 2);
    CHECK(a.match(match).view["spectators"] == 0);
    for (const json& m : a.received()) CHECK(m.value("type", "") != "error");
    e2e::check_traffic(traffic);
}
