// Lobby rules through the hub: create, join (by id or invite code), leave, kick, start, and the
// public list with its live subscription. Errors go to the sender only and change nothing.

#include "server/rooms/lobby.hpp"

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <thread>

#include "server/app/ids.hpp"
#include "tests/server/support/hub_harness.hpp"

using namespace server;
using namespace server::test;

namespace {

std::string create_lobby(Harness& h, const Player& host, json settings = settings_json(2)) {
    h.send(host.conn, {{"type", "lobby.create"}, {"settings", std::move(settings)}, {"ref", 1}});
    auto lobby = host.conn->last("lobby");
    REQUIRE(lobby.is_object());
    return lobby["lobby"]["id"];
}

void require_error(const FakeParticipant& conn, const std::string& code) {
    auto e = conn.last("error");
    INFO(e.dump());
    REQUIRE(e.is_object());
    CHECK(e["code"] == code);
}

}  // namespace

TEST_CASE("Creating a lobby seats the host and tells only the host the invite code", "[lobby]") {
    Harness h;
    auto host = h.guest("Ann");
    auto watcher = h.guest("Wes");
    h.send(watcher.conn, {{"type", "lobbies.subscribe"}, {"ref", "s"}});
    REQUIRE(watcher.conn->last("lobbies")["lobbies"] == json::array());
    CHECK(watcher.conn->last("ack")["ref"] == "s");

    const auto id = create_lobby(h, host);
    auto lobby = host.conn->last("lobby")["lobby"];
    CHECK(id.rfind("l_", 0) == 0);
    CHECK(id.size() == 18);
    CHECK(lobby["host"] == host.id);
    CHECK(lobby["code"].get<std::string>().size() == 8);
    CHECK(lobby["seats"].size() == 2);
    CHECK(lobby["seats"][0]["player"] == json{{"id", host.id}, {"name", "Ann"}});
    CHECK(lobby["seats"][1].is_null());
    CHECK(lobby["status"] == "waiting");
    CHECK(lobby["settings"]["players"] == 2);
    CHECK(host.conn->last("ack")["ref"] == 1);

    // The public list (HTTP and subscription) has the lobby without its code.
    auto listed = subscribed_list(*watcher.conn, "lobbies");
    REQUIRE(listed.size() == 1);
    CHECK(listed[0]["id"] == id);
    CHECK_FALSE(listed[0].contains("code"));
    CHECK(h.hub.public_lobbies() == listed);
    CHECK(h.metrics.open_lobbies == 1);
}

TEST_CASE("Players join by id, private lobbies by invite code, and a full lobby refuses more",
          "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cid = h.guest("Cid");
    json settings = settings_json(2);
    settings["public"] = false;
    const auto id = create_lobby(h, ann, settings);
    const std::string code = ann.conn->last("lobby")["lobby"]["code"];
    CHECK(h.hub.public_lobbies().empty());

    SECTION("by invite code, typed in lower case") {
        std::string lower = code;
        for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        h.send(bob.conn, {{"type", "lobby.join"}, {"code", lower}});
    }
    SECTION("by id, even though private") {
        h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});
    }

    auto lobby = bob.conn->last("lobby")["lobby"];
    CHECK(lobby["seats"][1]["player"]["id"] == bob.id);
    CHECK(lobby["status"] == "full");
    CHECK(lobby["code"] == code);  // members see the code
    CHECK(ann.conn->last("lobby")["lobby"] == lobby);

    ann.conn->clear();
    h.send(cid.conn, {{"type", "lobby.join"}, {"lobby", id}, {"ref", 7}});
    require_error(*cid.conn, "lobby_full");
    CHECK(cid.conn->last("error")["ref"] == 7);
    CHECK(ann.conn->messages().empty());  // an error goes to the sender only

    h.send(cid.conn, {{"type", "lobby.join"}, {"code", "ZZZZZZZZ"}});
    require_error(*cid.conn, "unknown_lobby");
    h.send(cid.conn, {{"type", "lobby.join"}, {"lobby", "l_nothing"}});
    require_error(*cid.conn, "unknown_lobby");
}

TEST_CASE("A player waiting in one lobby may not create or join another", "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    create_lobby(h, ann);
    const auto second = create_lobby(h, bob);
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}});
    require_error(*ann.conn, "already_in_game");
    h.send(ann.conn, {{"type", "lobby.join"}, {"lobby", second}});
    require_error(*ann.conn, "already_in_game");
    CHECK(h.hub.public_lobbies().size() == 2);
}

TEST_CASE("Leaving frees the seat; the host leaving closes the lobby for everyone", "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cid = h.guest("Cid");
    const auto id = create_lobby(h, ann, settings_json(3, "simple"));
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});
    h.send(cid.conn, {{"type", "lobby.join"}, {"lobby", id}});

    h.send(bob.conn, {{"type", "lobby.leave"}, {"lobby", id}});
    CHECK(bob.conn->last("lobby.closed") ==
          json{{"type", "lobby.closed"}, {"lobby", id}, {"reason", "left"}});
    auto lobby = ann.conn->last("lobby")["lobby"];
    CHECK(lobby["seats"][1]["player"]["id"] == cid.id);  // seats stay in join order
    CHECK(lobby["seats"][2].is_null());
    CHECK(cid.conn->last("lobby")["lobby"] == lobby);

    h.send(bob.conn, {{"type", "lobby.leave"}, {"lobby", id}});
    require_error(*bob.conn, "not_authorized");

    h.send(ann.conn, {{"type", "lobby.leave"}, {"lobby", id}});
    CHECK(ann.conn->last("lobby.closed")["reason"] == "left");
    CHECK(cid.conn->last("lobby.closed")["reason"] == "host_left");
    CHECK(h.hub.public_lobbies().empty());
    CHECK(h.metrics.open_lobbies == 0);
    // Everyone is free again.
    create_lobby(h, cid);
}

TEST_CASE("A player gone longer than the grace period gives up the lobby seat; one back in time keeps it",
          "[lobby]") {
    Config config;
    config.lobby_seat_grace = std::chrono::milliseconds(30);
    Harness h(config);
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cid = h.guest("Cid");
    const auto id = create_lobby(h, ann, settings_json(3, "simple"));
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});
    h.send(cid.conn, {{"type", "lobby.join"}, {"lobby", id}});

    // Bob closes his only tab; Cid reloads (a new connection speaks before the grace ends).
    h.drop(bob.conn);
    h.drop(cid.conn);
    auto cid_again = h.tab(cid);
    h.send(cid_again, {{"type", "ping"}});
    std::this_thread::sleep_for(std::chrono::milliseconds(80));
    h.settle();
    auto lobby = ann.conn->last("lobby")["lobby"];
    CHECK(lobby["seats"][1]["player"]["id"] == cid.id);
    CHECK(lobby["seats"][2].is_null());
    CHECK(cid_again->last("lobby")["lobby"] == lobby);
    CHECK(h.hub.public_lobbies()[0]["seats"][1]["player"]["id"] == cid.id);

    // The host going away for good closes the lobby for the others, who learn why.
    h.drop(ann.conn);
    std::this_thread::sleep_for(std::chrono::milliseconds(80));
    h.settle();
    CHECK(cid_again->last("lobby.closed")["reason"] == "disconnected");
    CHECK(h.hub.public_lobbies().empty());
    // Bob is free to host again when he comes back.
    create_lobby(h, Player{h.tab(bob), bob.id, bob.name});
}

TEST_CASE("Only the host may kick, and the kicked player is told", "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    const auto id = create_lobby(h, ann);
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});

    h.send(bob.conn, {{"type", "lobby.kick"}, {"lobby", id}, {"player", ann.id}});
    require_error(*bob.conn, "not_authorized");
    h.send(ann.conn, {{"type", "lobby.kick"}, {"lobby", id}, {"player", "p_nobody"}});
    require_error(*ann.conn, "invalid_field");

    h.send(ann.conn, {{"type", "lobby.kick"}, {"lobby", id}, {"player", bob.id}, {"ref", "k"}});
    CHECK(bob.conn->last("lobby.closed")["reason"] == "kicked");
    CHECK(ann.conn->last("lobby")["lobby"]["seats"][1].is_null());
    CHECK(ann.conn->last("ack")["ref"] == "k");
}

TEST_CASE("Only the host starts, only when full; members learn the match and the lobby goes",
          "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), wes = h.guest("Wes");
    h.send(wes.conn, {{"type", "matches.subscribe"}});
    CHECK(wes.conn->last("matches")["matches"] == json::array());
    const auto id = create_lobby(h, ann);

    h.send(ann.conn, {{"type", "lobby.start"}, {"lobby", id}});
    require_error(*ann.conn, "wrong_phase");
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", id}});
    h.send(bob.conn, {{"type", "lobby.start"}, {"lobby", id}});
    require_error(*bob.conn, "not_authorized");

    h.send(ann.conn, {{"type", "lobby.start"}, {"lobby", id}, {"ref", 3}});
    auto closed = ann.conn->last("lobby.closed");
    CHECK(closed["reason"] == "started");
    const std::string match = closed["match"];
    CHECK(match.rfind("m_", 0) == 0);
    CHECK(bob.conn->last("lobby.closed") == closed);
    CHECK(h.hub.public_lobbies().empty());

    auto live = h.hub.live_matches();
    REQUIRE(live.size() == 1);
    CHECK(live[0]["id"] == match);
    CHECK(live[0]["players"] == json{"Ann", "Bob"});
    CHECK(live[0]["game"] == "santorini");
    CHECK(live[0]["status"] == "draft");  // no powers: the challenger names the start player
    CHECK(live[0]["spectators"] == 0);
    CHECK(subscribed_list(*wes.conn, "matches") == live);
    CHECK(h.metrics.live_matches == 1);

    h.send(ann.conn, {{"type", "lobby.start"}, {"lobby", id}});
    require_error(*ann.conn, "unknown_lobby");
}

TEST_CASE("Settings the engine refuses come back as invalid_field and create nothing", "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann");
    protocol::LobbySettings settings;
    settings.players = 3;
    settings.powers = "none";  // 3 players must play with powers
    h.hub.handle(ann.conn, protocol::ClientMessage{protocol::LobbyCreate{settings}, json("c")});
    h.settle();
    require_error(*ann.conn, "invalid_field");
    CHECK(ann.conn->last("error")["ref"] == "c");
    CHECK(ann.conn->of_type("lobby").empty());
    CHECK(h.hub.public_lobbies().empty());

    // The parser refuses bad settings before the hub sees them.
    auto parsed = protocol::parse_client_message(
        json{{"type", "lobby.create"}, {"settings", settings_json(5)}}.dump());
    REQUIRE(std::holds_alternative<protocol::ProtocolError>(parsed));
}

TEST_CASE("Subscribers get the public list, then its changes, until they unsubscribe or go",
          "[lobby]") {
    Harness h;
    auto ann = h.guest("Ann"), wes = h.guest("Wes");
    auto tab = h.tab(wes);
    h.send(wes.conn, {{"type", "lobbies.subscribe"}});
    h.send(tab, {{"type", "lobbies.subscribe"}});
    const auto id = create_lobby(h, ann);
    CHECK(wes.conn->of_type("lobbies").size() == 1);
    CHECK(wes.conn->of_type("lobbies.changed").size() == 1);
    CHECK(tab->of_type("lobbies.changed").size() == 1);
    CHECK(subscribed_list(*tab, "lobbies") == h.hub.public_lobbies());

    h.send(wes.conn, {{"type", "lobbies.unsubscribe"}});
    h.drop(tab);
    h.send(ann.conn, {{"type", "lobby.leave"}, {"lobby", id}});
    CHECK(wes.conn->of_type("lobbies.changed").size() == 1);
    CHECK(tab->of_type("lobbies.changed").size() == 1);
}

TEST_CASE("Lobby book: invite codes are normalized and ids are unguessable", "[lobby]") {
    CHECK(normalize_invite_code("abcd2345") == "ABCD2345");
    CHECK(normalize_invite_code("ABCD0345").empty());  // 0 is not in the alphabet
    CHECK(normalize_invite_code("ABC").empty());
    LobbyBook book;
    auto a = book.create(Member{"p_a", "A"}, protocol::LobbySettings{});
    auto b = book.create(Member{"p_b", "B"}, protocol::LobbySettings{});
    REQUIRE(std::holds_alternative<const Lobby*>(a));
    REQUIRE(std::holds_alternative<const Lobby*>(b));
    CHECK(std::get<const Lobby*>(a)->id != std::get<const Lobby*>(b)->id);
    CHECK(std::get<const Lobby*>(a)->code != std::get<const Lobby*>(b)->code);
    CHECK(book.lobby_of("p_a") == std::get<const Lobby*>(a));
    Lobby taken = book.take(std::get<const Lobby*>(a)->id);
    CHECK(book.lobby_of("p_a") == nullptr);
    CHECK(book.size() == 1);
}
