// A fleet's lobbies and queue places outlive the leader (docs/scaling.md, "Lobbies and queues
// survive the leader"): the leader is SIGKILLed (or stopped with SIGTERM) while a private lobby
// waits, full, with its members on the other nodes, while a public lobby waits for a guest,
// while two players wait in rated queues, and while six players sit in live matches; after the
// takeover every member and queued player, reconnected through HAProxy, is told their lobby
// (same id, code, seats) and their place (same queue, clock and joining time), the public lobby
// is listed again on every node, the private lobby starts and plays, a newcomer is paired with
// a queued player and they play, and nobody seated in a live match may queue. And a match the
// leader loses to another node (a late renewal) keeps its players seated until it is over.
// Needs SANTORINI_TEST_DATABASE_URL and haproxy, as the other fleet tests.

#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <pqxx/pqxx>
#include <string>
#include <thread>
#include <vector>

#include "tests/fleet/fleet.hpp"
#include "tests/fleet/fleet_client.hpp"
#include "tests/fleet/fleet_play.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace fleet_leader_rooms_test {

namespace {

using namespace fleet;
using namespace std::chrono_literals;

json clock_of(int base, int increment) {
    return {{"kind", "realtime"}, {"base_seconds", base}, {"increment_seconds", increment}};
}

bool is_type(const json& m, const char* type) {
    return m.value("type", "") == type;
}

/// Whether the saved rooms hold lobby `lobby` (with at least `chat_lines` lines of chat) and
/// the places of `queued`, read once.
bool saved(const std::string& url, const std::string& lobby, const std::vector<std::string>& queued,
           std::size_t chat_lines = 0) {
    pqxx::connection connection(url);
    pqxx::nontransaction work(connection);
    const auto rows = work.exec("SELECT rooms::text FROM leader_rooms");
    if (rows.empty()) return false;
    const json rooms = json::parse(rows[0][0].as<std::string>());
    bool all = false;
    for (const json& l : rooms["lobbies"])
        all = all || (l["id"] == lobby && l.value("chat", json::array()).size() >= chat_lines);
    for (const std::string& p : queued) {
        bool found = false;
        for (const json& e : rooms["queue"]) found = found || e["player"] == p;
        all = all && found;
    }
    return all;
}

/// `request` again while the answer is the error `code` (by default `unavailable`: a new leader
/// loading its rooms), up to 5 s.
json retried(Client& c, const json& request, const std::string& code = "unavailable") {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    json reply = c.request(request);
    while (reply.value("code", "") == code && std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(100ms);
        reply = c.request(request);
    }
    return reply;
}

/// How many live matches node `i` holds, as its /healthz says.
int held_by(Fleet& fleet, int i) {
    const auto response =
        test::http_request(fleet.port(i), boost::beast::http::verb::get, "/healthz", {}, 2s);
    return json::parse(response.body()).at("fleet").at("matches").get<int>();
}

/// True once GET /api/lobbies lists `lobby` on every node (up to 5 s).
bool listed_everywhere(Fleet& fleet, const std::string& lobby, const std::string& dead) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
        bool all = true;
        for (int i = 0; i < node_count; ++i) {
            if (fleet.node_id(i) == dead) continue;
            const auto response = test::http_request(fleet.port(i), boost::beast::http::verb::get,
                                                     "/api/lobbies", {}, 2s);
            const json list = json::parse(response.body(), nullptr, false);
            bool found = false;
            if (list.is_array())
                for (const json& l : list) found = found || l.value("id", "") == lobby;
            all = all && found;
        }
        if (all) return true;
        std::this_thread::sleep_for(100ms);
    }
    return false;
}

/// Makes every save of the leader's rooms take `seconds` longer (a trigger that sleeps in the
/// database), so that a leader which told its clients of a change before saving it would be
/// caught by saved() read at once.
void slow_room_saves(const std::string& url, double seconds) {
    pqxx::connection connection(url);
    pqxx::nontransaction work(connection);
    work.exec(
        "CREATE FUNCTION slow_room_save() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
        "PERFORM pg_sleep(" +
        std::to_string(seconds) + "); RETURN NEW; END $$");
    work.exec(
        "CREATE TRIGGER slow_room_save BEFORE INSERT ON leader_rooms FOR EACH ROW "
        "EXECUTE FUNCTION slow_room_save()");
}

/// The scenario of this file; `stop(index)` stops the leader's node.
template <typename Stop>
void rooms_survive(Fleet& fleet, Stop stop) {
    const std::string old_leader = fleet.leader();
    REQUIRE(fleet.index_of(old_leader) >= 0);
    // Everyone at home on the two nodes that will survive: their connections are registered
    // with the leader from another node, as most are in a fleet.
    std::vector<std::uint16_t> homes;
    for (int i = 0; i < node_count; ++i)
        if (fleet.node_id(i) != old_leader) homes.push_back(fleet.port(i));
    REQUIRE(homes.size() == 2);
    std::vector<std::unique_ptr<Client>> people;
    auto person = [&](const std::string& name, std::size_t home) -> Client& {
        people.push_back(
            std::make_unique<Client>(name, integration::new_guest(homes[home % 2], name)));
        people.back()->connect(homes[home % 2]);
        return *people.back();
    };

    // Six players seated in three live matches, spread by the leader over the three nodes.
    std::vector<Game> seated;
    for (int g = 0; g < 3; ++g) {
        Client& a = person("S" + std::to_string(2 * g), 0);
        Client& b = person("S" + std::to_string(2 * g + 1), 1);
        seated.push_back(start_lobby_game(a, b, plain_settings(), 40 + static_cast<unsigned>(g)));
        play_strict(seated.back());
    }
    std::map<std::string, int> owners;
    for (const Game& game : seated) ++owners[owner_of(fleet.url(), game.match)];
    WARN("seated matches per owner: " << owners.size() << " owners");

    // A private lobby, full: host on one node, guest on the other.
    Client& host = person("Host", 0);
    Client& guest = person("Guest", 1);
    json private_settings = plain_settings();
    private_settings["public"] = false;
    json reply = host.request({{"type", "lobby.create"}, {"settings", private_settings}});
    REQUIRE(reply["type"] == "ack");
    auto created = host.take([](const json& m) { return is_type(m, "lobby"); });
    REQUIRE(created);
    const std::string lobby_id = (*created)["lobby"]["id"];
    const std::string code = (*created)["lobby"]["code"];
    reply = guest.request({{"type", "lobby.join"}, {"code", code}});
    REQUIRE(reply["type"] == "ack");
    auto full = host.take(
        [](const json& m) { return is_type(m, "lobby") && m["lobby"]["status"] == "full"; });
    REQUIRE(full);
    const json seats_before = (*full)["lobby"]["seats"];
    // A word from each member: the lobby's chat goes with it to the next leader.
    for (Client* c : {&host, &guest}) {
        reply = c->request(
            {{"type", "lobby.chat"}, {"lobby", lobby_id}, {"text", "hi from " + c->label()}});
        REQUIRE(reply["type"] == "ack");
    }
    auto chatted =
        host.take([](const json& m) { return is_type(m, "lobby.chat") && m["line"]["n"] == 2; });
    REQUIRE(chatted);
    // A public lobby waiting for a guest.
    Client& solo = person("Solo", 1);
    reply = solo.request({{"type", "lobby.create"}, {"settings", plain_settings()}});
    REQUIRE(reply["type"] == "ack");
    auto open_lobby = solo.take([](const json& m) { return is_type(m, "lobby"); });
    REQUIRE(open_lobby);
    const std::string public_id = (*open_lobby)["lobby"]["id"];

    // Two queued players who cannot be paired with each other (two clocks).
    Client& q1 = person("Q1", 0);
    Client& q2 = person("Q2", 1);
    std::map<Client*, json> waiting;
    for (auto [c, clock] : {std::pair{&q1, clock_of(180, 2)}, std::pair{&q2, clock_of(300, 3)}}) {
        reply = c->request({{"type", "queue.join"}, {"queue", "santorini"}, {"clock", clock}});
        INFO(c->label() << " queue.join: " << reply.dump());
        REQUIRE(reply["type"] == "ack");
        auto w = c->take(
            [](const json& m) { return is_type(m, "queue") && m.value("state", "") == "waiting"; });
        REQUIRE(w);
        waiting[c] = *w;
    }
    // The leader told nobody of a change before it was saved: what every client was told is
    // in the database already, without waiting (server/fleet/leader_rooms.hpp).
    REQUIRE(saved(fleet.url(), lobby_id, {q1.id(), q2.id()}, 2));
    REQUIRE(saved(fleet.url(), public_id, {}));

    // The leader goes.
    for (const auto& p : people) p->forget_events();
    stop(fleet.index_of(old_leader));
    std::string leader;
    for (int i = 0; i < 50 && (leader.empty() || leader == old_leader); ++i) {
        std::this_thread::sleep_for(100ms);
        leader = fleet.leader();
    }
    INFO("leader after the kill: '" << leader << "'");
    REQUIRE((!leader.empty() && leader != old_leader));

    // Every connection was registered with the old leader: its home restarts it (1012) once it
    // counts the leader dead; the client comes back through HAProxy and says hello.
    for (const auto& p : people) {
        if (p->connected()) (void)p->until([](const json&) { return false; }, 2 * lease + 1s);
        INFO(p->label());
        CHECK_FALSE(p->connected());
        p->connect_retrying(fleet.proxy_port());
    }

    // The lobby is back for both members, as it was, its chat included.
    for (Client* c : {&host, &guest}) {
        INFO(c->label());
        auto back = c->take(
            [&](const json& m) { return is_type(m, "lobby") && m["lobby"]["id"] == lobby_id; });
        REQUIRE(back);
        CHECK((*back)["lobby"]["code"] == code);
        CHECK((*back)["lobby"]["seats"] == seats_before);
        CHECK((*back)["lobby"]["status"] == "full");
        const json chat = (*back)["lobby"].value("chat", json::array());
        REQUIRE(chat.size() == 2);
        CHECK(chat[0]["text"] == "hi from " + host.label());
        CHECK(chat[1]["text"] == "hi from " + guest.label());
        CHECK(chat[1]["n"] == 2);
    }
    auto solo_back = solo.take(
        [&](const json& m) { return is_type(m, "lobby") && m["lobby"]["id"] == public_id; });
    CHECK(solo_back);
    CHECK(listed_everywhere(fleet, public_id, old_leader));
    // The queue places are back, with the time each player joined.
    for (Client* c : {&q1, &q2}) {
        INFO(c->label());
        auto back = c->take(
            [](const json& m) { return is_type(m, "queue") && m.value("state", "") == "waiting"; });
        REQUIRE(back);
        CHECK((*back)["queue"] == waiting[c]["queue"]);
        CHECK((*back)["clock"] == waiting[c]["clock"]);
        CHECK((*back)["since"] == waiting[c]["since"]);
    }
    // Nobody seated in a live match may queue on the new leader, whichever node holds it.
    for (const Game& game : seated)
        for (Client* c : game.seats) {
            const json r = retried(
                *c, {{"type", "queue.join"}, {"queue", "santorini"}, {"clock", clock_of(180, 2)}});
            INFO(c->label() << " (seated in " << game.match << ") queue.join: " << r.dump());
            CHECK(r.value("code", "") == "already_in_game");
        }
    // The queued player still waits: a newcomer at the same clock is paired with them.
    Client& q3 = person("Q3", 0);
    q3.connect_retrying(fleet.proxy_port());
    reply =
        retried(q3, {{"type", "queue.join"}, {"queue", "santorini"}, {"clock", clock_of(180, 2)}});
    INFO("Q3 queue.join: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    auto matched = [](const json& m) {
        return is_type(m, "queue") && m.value("state", "") == "matched";
    };
    auto m1 = q1.take(matched, 10s);
    auto m3 = q3.take(matched, 10s);
    REQUIRE(m1);
    REQUIRE(m3);
    REQUIRE((*m1)["match"] == (*m3)["match"]);
    Game paired;
    paired.match = (*m1)["match"];
    paired.rng.seed(61);
    paired.seats.assign(2, nullptr);
    for (Client* c : {&q1, &q3}) {
        REQUIRE(c->open(paired.match)["type"] == "ack");
        paired.seats.at(c->match(paired.match).view["you"].get<std::size_t>()) = c;
    }
    REQUIRE(paired.seats[0] != paired.seats[1]);
    for (int n = 0; n < 4; ++n) play_strict(paired);

    // The lobby starts, and its game plays.
    reply = retried(host, {{"type", "lobby.start"}, {"lobby", lobby_id}});
    INFO("lobby.start: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    auto closed = [](const json& m) { return is_type(m, "lobby.closed") && m.contains("match"); };
    auto h = host.take(closed);
    auto g = guest.take(closed);
    REQUIRE(h);
    REQUIRE(g);
    CHECK((*h)["match"] == (*g)["match"]);
    Game lobby_game;
    lobby_game.match = (*h)["match"];
    lobby_game.rng.seed(62);
    lobby_game.seats.assign(2, nullptr);
    for (Client* c : {&host, &guest}) {
        REQUIRE(c->open(lobby_game.match)["type"] == "ack");
        lobby_game.seats.at(c->match(lobby_game.match).view["you"].get<std::size_t>()) = c;
    }
    REQUIRE(lobby_game.seats[0] != lobby_game.seats[1]);
    for (int n = 0; n < 4; ++n) play_strict(lobby_game);

    // Q2 still waits, at its own clock, on the new leader: its place leaves only when asked.
    reply = q2.request({{"type", "queue.leave"}});
    CHECK(reply["type"] == "ack");
    CHECK(q2.take(
        [](const json& m) { return is_type(m, "queue") && m.value("state", "") == "left"; }));
}

}  // namespace

TEST_CASE(
    "kill -9 of the leader: its lobbies and queue places come back, seated players may "
    "not queue",
    "[fleet]") {
    Fleet fleet("leaderrooms");
    fleet.start();
    slow_room_saves(fleet.url(), 0.2);
    rooms_survive(fleet, [&](int leader) { fleet.node(leader).kill_now(); });
}

TEST_CASE("SIGTERM of the leader: its lobbies and queue places come back", "[fleet]") {
    Fleet fleet("leaderroomsterm");
    fleet.start();
    rooms_survive(fleet, [&](int leader) { fleet.node(leader).terminate(); });
}

// A leader that renews its leases late (a busy machine) loses its matches to the other nodes'
// takeover scans. The players of such a match still play it, elsewhere: the leader must go on
// counting them seated until the match is over. (It forgot them once: CI, 2026-12-02, where
// four seated players were let into the queue after a leader's failover.)
TEST_CASE("a match the leader loses to another node: its viewers reconnect to it, its players "
          "may not queue until it is over",
          "[fleet]") {
    Fleet fleet("leaderlost");
    fleet.start();
    const std::string leader = fleet.leader();
    const int at = fleet.index_of(leader);
    REQUIRE(at >= 0);
    const int other_index = (at + 1) % node_count;
    const std::string other = fleet.node_id(other_index);

    // A live match the leader holds (a new match goes to the least loaded node: at most one
    // lands elsewhere before one lands on the leader).
    std::vector<std::unique_ptr<Client>> people;
    std::optional<Game> game;
    for (int g = 0; g < node_count && !game; ++g) {
        for (const char* who : {"A", "B"}) {
            const std::string name = who + std::to_string(g);
            people.push_back(
                std::make_unique<Client>(name, integration::new_guest(fleet.port(at), name)));
            people.back()->connect(fleet.port(at));
        }
        Game made = start_lobby_game(*people[people.size() - 2], *people.back(), plain_settings(),
                                     70 + static_cast<unsigned>(g));
        play_strict(made);
        if (owner_of(fleet.url(), made.match) == leader) game = std::move(made);
    }
    REQUIRE(game);
    const int held_before = held_by(fleet, at);
    REQUIRE(held_before >= 1);
    // A spectator homed on the third node watches it (a remote viewer on the leader).
    const int third = (at + 2) % node_count;
    Client watcher("W", integration::new_guest(fleet.port(third), "W"));
    watcher.connect(fleet.port(third));
    REQUIRE(watcher.open(game->match)["type"] == "ack");

    // Another node takes it over, as its scan does once the leader's lease ran out.
    {
        pqxx::connection c(fleet.url());
        pqxx::work w(c);
        w.exec_params(
            "UPDATE matches SET owner_node = $1, lease_until = now() + interval '1 "
            "hour' WHERE id = $2",
            other, game->match);
        w.commit();
    }
    // The leader's next renewal finds the match gone and lets it go.
    const auto deadline = std::chrono::steady_clock::now() + 2 * lease + 2s;
    while (held_by(fleet, at) == held_before && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(50ms);
    REQUIRE(held_by(fleet, at) == held_before - 1);

    // Every connection that had it open there, its players' on the leader and the spectator's
    // on the third node (told by a `restart` fleet message), is closed with 1012 (service
    // restart): a client reconnects, and opens the match at its new owner below.
    std::vector<Client*> viewers(game->seats.begin(), game->seats.end());
    viewers.push_back(&watcher);
    for (Client* c : viewers) {
        const auto until = std::chrono::steady_clock::now() + 5s;
        while (c->connected() && std::chrono::steady_clock::now() < until) (void)c->next(100ms);
        INFO(c->label() << " after the match was lost");
        CHECK_FALSE(c->connected());
        CHECK(c->close_code() == std::optional<std::uint16_t>(1012));
        c->connect_retrying(c->port());
    }

    // Its players still sit in it.
    const json join = {{"type", "queue.join"}, {"queue", "santorini"}, {"clock", clock_of(180, 2)}};
    for (Client* c : game->seats) {
        const json r = c->request(join);
        INFO(c->label() << " queue.join: " << r.dump());
        CHECK(r.value("code", "") == "already_in_game");
    }

    // It plays on at its new owner, which is asked for it now; once it is over (a
    // resignation), the owner says so and its players may queue again.
    for (Client* c : viewers) REQUIRE(c->open(game->match)["type"] == "ack");
    play_strict(*game);
    // The spectator follows the game at its new owner.
    const std::uint64_t last = game->seats[0]->version_of(game->match);
    REQUIRE(watcher.until_version(game->match, last));
    const json resigned =
        game->seats[0]->request({{"type", "match.resign"}, {"match", game->match}});
    INFO("match.resign: " << resigned.dump());
    REQUIRE(resigned["type"] == "ack");
    for (Client* c : game->seats) {
        // The owner's word that it is over reaches the leader a moment after the ack.
        const json r = retried(*c, join, "already_in_game");
        INFO(c->label() << " queue.join after the match: " << r.dump());
        CHECK(r["type"] == "ack");
    }
}

}  // namespace fleet_leader_rooms_test
