// A fleet end to end (docs/scaling.md): three santorini-server nodes on one PostgreSQL schema
// with HAProxy in front of them, all child processes of the test (tests/fleet/fleet.hpp), and
// players connected directly to the nodes or through HAProxy. Needs SANTORINI_TEST_DATABASE_URL
// (scripts/with-postgres) and Debian's haproxy.
//
// Each TEST_CASE starts its own fleet (about a second) so one failure does not hide the others.

#include <algorithm>
#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <map>
#include <pqxx/pqxx>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/fleet/fleet.hpp"
#include "tests/fleet/fleet_client.hpp"
#include "tests/fleet/fleet_play.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace fleet_e2e_test {

namespace {

using namespace fleet;
using namespace std::chrono_literals;
namespace http = boost::beast::http;

constexpr int max_steps = 400;  // a Santorini game with integration::pick ends well before

json get_json(std::uint16_t port, const std::string& target) {
    const auto response = test::http_request(port, http::verb::get, target, {}, 2s);
    INFO("GET " << target << " on port " << port << ": " << response.body());
    REQUIRE(response.result() == http::status::ok);
    return json::parse(response.body());
}

/// One request to 127.0.0.1:`port` with `Authorization: Bearer <token>` (the account routes).
test::HttpResponse bearer_request(std::uint16_t port, http::verb verb, const std::string& target,
                                  const std::string& token, const json& body = nullptr) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    http::request<http::string_body> request{verb, target, 11};
    request.set(http::field::host, "127.0.0.1");
    request.set(http::field::authorization, "Bearer " + token);
    if (!body.is_null()) {
        request.set(http::field::content_type, "application/json");
        request.body() = body.dump();
    }
    request.prepare_payload();
    http::write(socket, request);
    boost::beast::flat_buffer buffer;
    test::HttpResponse response;
    http::read(socket, buffer, response);
    return response;
}

/// Waits (up to 5 s) until `client`'s connection ends; its close code then, if any.
std::optional<std::uint16_t> closed_with(Client& client) {
    if (client.connected()) (void)client.until([](const json&) { return false; }, 5s);
    if (client.connected()) return std::nullopt;
    return client.close_code();
}

/// The live list of every node and of HAProxy, once they agree on an entry for `match` with
/// `spectators` spectators (they are replicated: give them up to 5 s). REQUIREs it.
json agreed_live_list(Fleet& fleet, const std::string& match, int spectators) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    std::vector<json> lists;
    while (true) {
        lists.clear();
        for (int i = 0; i < node_count; ++i)
            lists.push_back(get_json(fleet.port(i), "/api/matches"));
        // Through HAProxy as many times as there are nodes: round robin asks each of them.
        for (int i = 0; i < node_count; ++i)
            lists.push_back(get_json(fleet.proxy_port(), "/api/matches"));
        bool agreed = true;
        for (const json& list : lists) {
            agreed = agreed && list == lists[0];
            const auto entry = std::find_if(list.begin(), list.end(),
                                            [&](const json& e) { return e["id"] == match; });
            agreed = agreed && entry != list.end() && entry->value("spectators", -1) == spectators;
        }
        if (agreed) return lists[0];
        if (std::chrono::steady_clock::now() > deadline) break;
        std::this_thread::sleep_for(100ms);
    }
    for (std::size_t i = 0; i < lists.size(); ++i)
        UNSCOPED_INFO(
            (i < node_count ? fleet.node_id(static_cast<int>(i)) : std::string("via haproxy"))
            << ": " << lists[i].dump());
    FAIL("the live lists do not agree on " << match << " with " << spectators << " spectator(s)");
    return {};
}

/// Waits (up to 5 s) until the database says every match of `games` is finished: the last
/// step's acknowledgement may arrive before the result's row is written.
void wait_finished_in_database(const std::string& url, const std::vector<Game>& games) {
    pqxx::connection connection(url);
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (std::chrono::steady_clock::now() < deadline) {
        pqxx::nontransaction work(connection);
        int live = 0;
        for (const Game& game : games)
            live += work.exec_params1("SELECT status = 'live' FROM matches WHERE id = $1",
                                      game.match)[0]
                        .as<bool>();
        if (live == 0) return;
        std::this_thread::sleep_for(100ms);
    }
}

/// Guests (made over HTTP on node 0) as clients; client i connects to `ports[i % size]`.
std::vector<std::unique_ptr<Client>> clients(Fleet& fleet, int count,
                                             const std::vector<std::uint16_t>& ports) {
    std::vector<std::unique_ptr<Client>> out;
    for (int i = 0; i < count; ++i) {
        const std::string name = "P" + std::to_string(i);
        out.push_back(std::make_unique<Client>(name, integration::new_guest(fleet.port(0), name)));
        out.back()->connect(ports[static_cast<std::size_t>(i) % ports.size()]);
    }
    return out;
}

}  // namespace

TEST_CASE("a fleet of three nodes and HAProxy starts, serves and stops", "[fleet]") {
    Fleet fleet("start", steady_lease);
    fleet.start();
    for (int i = 0; i < node_count; ++i)
        CHECK(get_json(fleet.port(i), "/healthz")["status"] == "ok");
    // Round robin: several requests in a row through HAProxy all answer.
    for (int i = 0; i < 2 * node_count; ++i)
        CHECK(get_json(fleet.proxy_port(), "/healthz")["status"] == "ok");
    // A game on one node, through HAProxy's WebSocket tunnel and directly.
    Client ann("ann", integration::new_guest(fleet.port(0), "Ann"));
    Client bob("bob", integration::new_guest(fleet.port(0), "Bob"));
    ann.connect(fleet.port(0));
    bob.connect(fleet.port(0));
    Game game = start_lobby_game(ann, bob, plain_settings(), 7);
    for (int n = 0; n < 6; ++n) play_strict(game);
    CHECK(game.acked.size() == 6);
    // HAProxy tunnels WebSockets (which node it picks is its business: the match lives on n1).
    Client vic("vic", integration::new_guest(fleet.proxy_port(), "Vic"));
    vic.connect(fleet.proxy_port());
    CHECK(vic.request({{"type", "ping"}})["type"] == "pong");
    vic.connect(fleet.port(0));
    REQUIRE(vic.open(game.match)["type"] == "ack");
    CHECK(vic.match(game.match).view["history"].size() == 6);
}

TEST_CASE("a lobby game across nodes: players on n1 and n2, a spectator on n3", "[fleet]") {
    Fleet fleet("lobby", steady_lease);
    fleet.start();
    Client ann("ann@n1", integration::new_guest(fleet.port(0), "Ann"));
    Client bob("bob@n2", integration::new_guest(fleet.port(1), "Bob"));
    Client sue("sue@n3", integration::new_guest(fleet.port(2), "Sue"));
    ann.connect(fleet.port(0));
    bob.connect(fleet.port(1));
    sue.connect(fleet.port(2));

    Game game = start_lobby_game(ann, bob, plain_settings(), 11);
    const json opened = sue.open(game.match);
    INFO("spectator's match.open: " << opened.dump());
    REQUIRE(opened["type"] == "ack");
    game.watchers.push_back(&sue);
    CHECK(sue.match(game.match).view["you"].is_null());

    // The live list is the same on every node and through HAProxy, spectator counted.
    const json list = agreed_live_list(fleet, game.match, 1);
    CHECK(list.size() == 1);
    // The players' views count the spectator too (she watches on the owner, wherever that is).
    for (Client* c : game.seats) {
        INFO(c->label());
        auto counted = [&](const json&) { return c->match(game.match).view["spectators"] == 1; };
        CHECK((counted({}) || c->until(counted, 3s)));
    }

    while (!game.over) {
        REQUIRE(game.acked.size() < max_steps);
        play_strict(game);
    }
    // Everyone saw every version in order, from one snapshot.
    for (Client* c : everyone(game)) {
        const MatchView& m = c->match(game.match);
        INFO(c->label());
        CHECK(m.snapshots == 1);
        CHECK(m.gaps == 0);
        CHECK(m.duplicates == 0);
        CHECK(m.bad_patches == 0);
        CHECK(m.view["status"] == "finished");
        CHECK(m.view["result"] == ann.match(game.match).view["result"]);
        CHECK(m.view["history"] == ann.match(game.match).view["history"]);
    }
    wait_finished_in_database(fleet.url(), {game});
    check_database(fleet.url(), {game});
    // Every node heard the others through signed messages, and refused none of them.
    for (int i = 0; i < node_count; ++i) {
        const std::string metrics =
            test::http_request(fleet.port(i), boost::beast::http::verb::get, "/metrics", {}, 1s)
                .body();
        INFO("n" << i + 1);
        CHECK(metrics.find("santorini_broker_messages_total{outcome=\"rejected\"} 0\n") !=
              std::string::npos);
        CHECK(metrics.find("santorini_broker_messages_total{outcome=\"received\"} 0\n") ==
              std::string::npos);
    }
}

TEST_CASE("signing out, or a password change, on one node closes the revoked sessions on every "
          "node",
          "[fleet]") {
    Fleet fleet("revoked", steady_lease);
    fleet.start();
    // An account made on n1; two devices signed in; the guest token it started with.
    const integration::Player guest = integration::new_guest(fleet.port(0), "Rev");
    const json credentials = {{"username", "revokee"}, {"password", "a long enough password"}};
    REQUIRE(bearer_request(fleet.port(0), http::verb::post, "/api/accounts", guest.token,
                           credentials)
                .result() == http::status::created);
    auto sign_in = [&] {
        const auto response = test::http_request(fleet.port(0), http::verb::post, "/api/sessions",
                                                 credentials.dump());
        REQUIRE(response.result() == http::status::created);
        return json::parse(response.body())["token"].get<std::string>();
    };
    const std::string phone = sign_in();
    const std::string laptop = sign_in();
    Client phone_n2("phone@n2", integration::Player{guest.id, phone, nullptr});
    Client laptop_n3("laptop@n3", integration::Player{guest.id, laptop, nullptr});
    Client first_tab_n2("guest-token@n2", integration::Player{guest.id, guest.token, nullptr});
    phone_n2.connect(fleet.port(1));  // n2 and n3 now know these tokens
    laptop_n3.connect(fleet.port(2));
    first_tab_n2.connect(fleet.port(1));

    // Signing the phone out on n1 closes its socket on n2, and only that one.
    REQUIRE(bearer_request(fleet.port(0), http::verb::delete_, "/api/sessions/current", phone)
                .result() == http::status::no_content);
    CHECK(closed_with(phone_n2) == std::optional<std::uint16_t>(4001));
    CHECK(laptop_n3.request({{"type", "ping"}})["type"] == "pong");
    CHECK(first_tab_n2.request({{"type", "ping"}})["type"] == "pong");
    // n2 had the token in memory: it must not take it again.
    CHECK_THROWS(phone_n2.connect(fleet.port(1)));

    // A password change on n1 with the laptop's token revokes every other one, fleet-wide.
    REQUIRE(bearer_request(fleet.port(0), http::verb::post, "/api/accounts/password", laptop,
                           {{"old_password", "a long enough password"},
                            {"new_password", "another long password"}})
                .result() == http::status::ok);
    CHECK(closed_with(first_tab_n2) == std::optional<std::uint16_t>(4001));
    CHECK_THROWS(first_tab_n2.connect(fleet.port(1)));
    CHECK(laptop_n3.request({{"type", "ping"}})["type"] == "pong");
    Client laptop_n2("laptop@n2", integration::Player{guest.id, laptop, nullptr});
    laptop_n2.connect(fleet.port(1));
    CHECK(laptop_n2.request({{"type", "ping"}})["type"] == "pong");
}

TEST_CASE("a lobby's chat across nodes: members on n1 and n2, a stranger on n3", "[fleet]") {
    Fleet fleet("lobbychat", steady_lease);
    fleet.start();
    Client ann("ann@n1", integration::new_guest(fleet.port(0), "Ann"));
    Client bob("bob@n2", integration::new_guest(fleet.port(1), "Bob"));
    Client sue("sue@n3", integration::new_guest(fleet.port(2), "Sue"));
    ann.connect(fleet.port(0));
    bob.connect(fleet.port(1));
    sue.connect(fleet.port(2));

    // The lobby lives on the leader, whichever node that is: at least one member is remote.
    json reply = ann.request({{"type", "lobby.create"}, {"settings", plain_settings()}});
    REQUIRE(reply["type"] == "ack");
    auto lobby = ann.take([](const json& m) { return m.value("type", "") == "lobby"; });
    REQUIRE(lobby);
    const std::string id = (*lobby)["lobby"]["id"];
    reply = bob.request({{"type", "lobby.join"}, {"code", (*lobby)["lobby"]["code"]}});
    REQUIRE(reply["type"] == "ack");

    auto line_saying = [](const std::string& text) {
        return [text](const json& m) {
            return m.value("type", "") == "lobby.chat" && m["line"]["text"] == text;
        };
    };
    reply = ann.request({{"type", "lobby.chat"}, {"lobby", id}, {"text", "hi from n1"}});
    INFO("ann's lobby.chat: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    reply = bob.request({{"type", "lobby.chat"}, {"lobby", id}, {"text", "hi from n2"}});
    INFO("bob's lobby.chat: " << reply.dump());
    REQUIRE(reply["type"] == "ack");
    for (Client* c : {&ann, &bob}) {
        INFO(c->label());
        CHECK(c->take(line_saying("hi from n1")));
        CHECK(c->take(line_saying("hi from n2")));
    }
    reply = sue.request({{"type", "lobby.chat"}, {"lobby", id}, {"text", "me too"}});
    CHECK(reply["code"] == "not_authorized");
    CHECK_FALSE(sue.take(line_saying("hi from n1"), 300ms));

    // Bob comes back through another node: his `lobby` event carries the conversation.
    bob.drop();
    bob.connect(fleet.port(2));
    // (The events of his first connection are still kept: the one wanted holds both lines.)
    auto again = bob.take([](const json& m) {
        return m.value("type", "") == "lobby" && m["lobby"]["chat"].size() == 2;
    });
    REQUIRE(again);
    CHECK((*again)["lobby"]["chat"][0]["text"] == "hi from n1");
    CHECK((*again)["lobby"]["chat"][1]["text"] == "hi from n2");
}

TEST_CASE("a rated queue pairs players of two nodes; the rating is written once", "[fleet]") {
    Fleet fleet("queue", steady_lease);
    fleet.start();
    Client xia("xia@n2", integration::new_guest(fleet.port(1), "Xia"));
    Client yan("yan@n3", integration::new_guest(fleet.port(2), "Yan"));
    xia.connect(fleet.port(1));
    yan.connect(fleet.port(2));
    const json blitz = {{"kind", "realtime"}, {"base_seconds", 180}, {"increment_seconds", 2}};
    for (Client* c : {&xia, &yan}) {
        const json reply =
            c->request({{"type", "queue.join"}, {"queue", "santorini"}, {"clock", blitz}});
        INFO(c->label() << " queue.join: " << reply.dump());
        REQUIRE(reply["type"] == "ack");
    }
    auto matched = [](const json& m) {
        return m.value("type", "") == "queue" && m.value("state", "") == "matched";
    };
    auto x = xia.take(matched, 10s);
    auto y = yan.take(matched, 10s);
    REQUIRE(x);
    REQUIRE(y);
    Game game;
    game.match = (*x)["match"];
    CHECK((*y)["match"] == game.match);
    game.rng.seed(23);
    game.seats.assign(2, nullptr);
    for (Client* c : {&xia, &yan}) {
        REQUIRE(c->open(game.match)["type"] == "ack");
        game.seats.at(c->match(game.match).view["you"].get<std::size_t>()) = c;
    }
    REQUIRE(game.seats[0] != game.seats[1]);
    while (!game.over) {
        REQUIRE(game.acked.size() < max_steps);
        play_strict(game);
    }
    wait_finished_in_database(fleet.url(), {game});
    check_database(fleet.url(), {game});
    pqxx::connection connection(fleet.url());
    pqxx::nontransaction work(connection);
    for (Client* c : {&xia, &yan}) {
        INFO(c->label());
        CHECK(work.exec_params1(
                      "SELECT count(*) FROM rating_history WHERE match_id = $1 AND player_id = $2",
                      game.match, c->id())[0]
                  .as<long>() == 1);
        CHECK(work.exec_params1("SELECT games FROM ratings WHERE player_id = $1", c->id())[0]
                  .as<long>() == 1);
    }
}

namespace {

/// Which node an outage stops.
enum class Victim { Leader, NotLeader };

/// Several games at once, players spread over the nodes and HAProxy; once each game has a few
/// acknowledged steps, `stop(victim)` stops a node owning some of them (the leader, or a node
/// that is not: `which`; the other kind only if that one owns none); then every game is played
/// to its end through whatever is left. Returns the games (the database is checked) and
/// how long each game of the victim waited for its first acknowledged step after the stop.
struct Outage {
    std::vector<Game> games;
    std::string victim;
    std::vector<std::chrono::milliseconds> waits;  ///< the victim's games
    Trouble trouble;
};

template <typename Stop>
Outage play_through_outage(Fleet& fleet, std::vector<std::unique_ptr<Client>>& players,
                           int game_count, Victim which, Stop stop) {
    Outage out;
    for (int g = 0; g < game_count; ++g)
        out.games.push_back(start_lobby_game(*players[static_cast<std::size_t>(2 * g)],
                                             *players[static_cast<std::size_t>(2 * g + 1)],
                                             plain_settings(), 100 + static_cast<unsigned>(g)));
    std::map<std::string, int> owned;
    std::vector<std::string> owners;
    for (const Game& game : out.games) {
        owners.push_back(owner_of(fleet.url(), game.match));
        ++owned[owners.back()];
    }
    for (const auto& [node, count] : owned) {
        INFO("matches.owner_node: '" << node << "' holds " << count << " of " << game_count);
        REQUIRE(fleet.index_of(node) >= 0);  // every match has a node of the fleet as its owner
    }
    const std::string leader = fleet.leader();
    for (const auto& [node, count] : owned)
        if ((node == leader) == (which == Victim::Leader)) out.victim = node;
    if (out.victim.empty()) {
        out.victim = owned.begin()->first;
        WARN("no node of the kind asked for owns a game: stopping " << out.victim);
    }
    // The leader places each new match on the live node holding the fewest (docs/scaling.md,
    // "New matches"): the games are spread, so some go on untouched by the stop.
    CHECK(owned.size() > 1);
    // Bounded: a lease (2 s) and a takeover scan are the only waits the design allows.
    const auto deadline = std::chrono::steady_clock::now() + 45s;
    auto all_over = [&] {
        return std::all_of(out.games.begin(), out.games.end(),
                           [](const Game& g) { return g.over; });
    };
    // A few steps in every game, then the stop, then to the end.
    for (int round = 0; round < 4; ++round)
        for (Game& game : out.games)
            while (!game.over && game.acked.size() < static_cast<std::size_t>(round + 1)) {
                REQUIRE(std::chrono::steady_clock::now() < deadline);
                play_resilient(game, fleet.proxy_port(), out.trouble);
            }
    const auto stopped_at = std::chrono::steady_clock::now();
    stop(fleet.index_of(out.victim));
    std::vector<std::size_t> acked_before;
    for (const Game& game : out.games) acked_before.push_back(game.acked.size());
    std::vector<bool> waited(out.games.size(), false);
    while (!all_over()) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        for (std::size_t g = 0; g < out.games.size(); ++g) {
            Game& game = out.games[g];
            if (game.over) continue;
            play_resilient(game, fleet.proxy_port(), out.trouble);
            if (owners[g] == out.victim && !waited[g] && game.acked.size() > acked_before[g]) {
                waited[g] = true;
                out.waits.push_back(std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::steady_clock::now() - stopped_at));
            }
        }
    }
    wait_finished_in_database(fleet.url(), out.games);
    check_database(fleet.url(), out.games);
    // The victim's matches moved to a live node.
    for (std::size_t g = 0; g < out.games.size(); ++g)
        if (owners[g] == out.victim) CHECK(owner_of(fleet.url(), out.games[g].match) != out.victim);
    // A patch that arrives in order must apply, whatever node sent it. (Gaps may happen around
    // the stop: the client resyncs with since, as the protocol says.)
    int gaps = 0;
    for (const Game& game : out.games)
        for (Client* c : game.seats) {
            INFO(c->label() << " in " << game.match);
            CHECK(c->match(game.match).bad_patches == 0);
            gaps += c->match(game.match).gaps;
        }
    // Every request is answered, or its connection closed (1012) when the node it depends on
    // is dead: a request the fleet drops costs the client its whole timeout.
    for (const auto& p : players) {
        INFO(p->label() << " (FLEET_TRACE=1 shows which request)");
        CHECK(p->unanswered() == 0);
    }
    int resent = 0, stored_unacked = 0;
    std::map<std::string, int> errors;
    for (const Game& game : out.games) {
        resent += game.resent;
        stored_unacked += game.stored_unacked;
        for (const auto& [code, n] : game.errors) errors[code] += n;
    }
    std::string waits;
    for (auto w : out.waits) waits += std::to_string(w.count()) + " ms ";
    std::string error_text;
    for (const auto& [code, n] : errors) error_text += code + " x" + std::to_string(n) + " ";
    WARN("victim " << out.victim << (out.victim == leader ? " (the leader)" : "") << " owned "
                   << owned[out.victim] << " of " << game_count
                   << " games; first step after the stop: " << waits << "; lost "
                   << out.trouble.lost << ", reconnects " << out.trouble.reconnects
                   << ", 1012 closes " << out.trouble.closed_1012 << ", dropped "
                   << out.trouble.dropped << ", resent " << resent << ", stored unacknowledged "
                   << stored_unacked << ", version gaps " << gaps << ", step errors "
                   << error_text);
    return out;
}

}  // namespace

TEST_CASE("kill -9 of a node mid-game: every game finishes, nothing acknowledged is lost",
          "[fleet]") {
    Fleet fleet("kill");
    fleet.start();
    // Homes: n1, n2, n3, HAProxy, in turn.
    auto players =
        clients(fleet, 12, {fleet.port(0), fleet.port(1), fleet.port(2), fleet.proxy_port()});
    const Outage out = play_through_outage(fleet, players, 6, Victim::NotLeader,
                                           [&](int victim) { fleet.node(victim).kill_now(); });
    CHECK(out.waits.size() >= 1);
    // The design's bound (docs/scaling.md, failure cases): a lease until the others count the
    // node dead, a third of one until the takeover scan; then the clients' reconnect. Twice
    // the lease leaves room for a slow machine, and catches a request the fleet drops (the
    // client then waits its whole timeout).
    for (auto wait : out.waits) CHECK(wait < 2 * lease);
}

TEST_CASE("kill -9 of the leader mid-game: another node leads, every game finishes", "[fleet]") {
    Fleet fleet("killleader");
    fleet.start();
    auto players =
        clients(fleet, 12, {fleet.port(0), fleet.port(1), fleet.port(2), fleet.proxy_port()});
    const Outage out = play_through_outage(fleet, players, 6, Victim::Leader,
                                           [&](int victim) { fleet.node(victim).kill_now(); });
    CHECK(out.waits.size() >= 1);
    // The design's bound (docs/scaling.md, failure cases): a lease until the others count the
    // node dead, a third of one until the takeover scan; then the clients' reconnect. Twice
    // the lease leaves room for a slow machine, and catches a request the fleet drops (the
    // client then waits its whole timeout).
    for (auto wait : out.waits) CHECK(wait < 2 * lease);
    // A new leader within a few heartbeats, and a lobby works again.
    std::string leader;
    for (int i = 0; i < 40 && (leader.empty() || leader == out.victim); ++i) {
        std::this_thread::sleep_for(100ms);
        leader = fleet.leader();
    }
    INFO("leader after the kill: '" << leader << "'");
    CHECK((!leader.empty() && leader != out.victim));
    Client ann("ann", integration::new_guest(fleet.proxy_port(), "Ann"));
    Client bob("bob", integration::new_guest(fleet.proxy_port(), "Bob"));
    ann.connect(fleet.proxy_port());
    bob.connect(fleet.proxy_port());
    Game game = start_lobby_game(ann, bob, plain_settings(), 5);
    for (int n = 0; n < 4; ++n) play_strict(game);
}

TEST_CASE("SIGTERM of a node mid-game: its games go on without waiting for the lease", "[fleet]") {
    Fleet fleet("term");
    fleet.start();
    auto players =
        clients(fleet, 8, {fleet.port(0), fleet.port(1), fleet.port(2), fleet.proxy_port()});
    int victim = -1;
    const Outage out = play_through_outage(fleet, players, 4, Victim::NotLeader, [&](int v) {
        victim = v;
        fleet.node(v).terminate();  // not waiting: its clients must read their close frames
    });
    REQUIRE(victim >= 0);
    const std::string victim_id = fleet.node_id(victim);
    // It exits by itself once its sessions are closed (the games took a few seconds at most).
    CHECK(fleet.node(victim).wait_exit(5s));
    // A node that stops gracefully deletes its row.
    pqxx::connection connection(fleet.url());
    pqxx::nontransaction work(connection);
    CHECK(work.exec_params1("SELECT count(*) FROM nodes WHERE id = $1", victim_id)[0].as<long>() ==
          0);
    REQUIRE(out.waits.size() >= 1);
    for (auto wait : out.waits) CHECK(wait < lease);
}

}  // namespace fleet_e2e_test
