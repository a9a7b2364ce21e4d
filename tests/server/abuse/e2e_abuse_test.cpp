// End to end over real sockets: clients that misbehave are cut off without hurting anyone else.
// A seated player who floods messages gets rate_limited errors, then close 1008, while two other
// players finish their game without a single error; it comes back and resumes its match. A
// spectator that stops reading while a busy server keeps sending it patches and lobby lists is
// closed with 4000 with its queue and the process's memory bounded; it comes back and resumes
// from the last version it read. A chat flood is refused by the chat's own rate, then closed
// with 1008, while another game's steps stay fast (docs/protocol.md, "Chat"). All traffic is
// validated against the schemas.

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstddef>
#include <fstream>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/net/websocket_session.hpp"
#include "tests/server/support/e2e_support.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace e2e_abuse_test {

#if defined(__SANITIZE_ADDRESS__)
#define E2E_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define E2E_ASAN 1
#endif
#endif
#ifdef E2E_ASAN
// From libasan (declared here: not every toolchain ships <sanitizer/allocator_interface.h>).
extern "C" std::size_t __sanitizer_get_current_allocated_bytes();
#endif

using e2e::json;
using namespace std::chrono_literals;

namespace {

// Memory the process holds now, in bytes: the resident set (VmRSS) normally; under ASan, whose
// quarantine keeps every freed block resident for a while, the live heap instead.
std::size_t memory_in_use() {
#ifdef E2E_ASAN
    return __sanitizer_get_current_allocated_bytes();
#else
    std::ifstream status("/proc/self/status");
    std::string key;
    while (status >> key) {
        if (key == "VmRSS:") {
            std::size_t kib = 0;
            status >> kib;
            return kib * 1024;
        }
        status.ignore(4096, '\n');
    }
    FAIL("no VmRSS in /proc/self/status");
    return 0;
#endif
}

// The live session of the player with `player_id` (null if it has none).
std::shared_ptr<server::WebsocketSession> session_of(server::Server& server,
                                                     const std::string& player_id) {
    for (const auto& session : server.sessions().sessions())
        if (session->player_id() == player_id) return session;
    return nullptr;
}

// Seats of `match` by the players' views.
std::vector<e2e::Player*> seats_of(const std::string& match, std::vector<e2e::Player*> players) {
    std::vector<e2e::Player*> out(players.size(), nullptr);
    for (e2e::Player* p : players) out.at(p->match(match).view["you"].get<std::size_t>()) = p;
    return out;
}

int errors_in(e2e::Player& p) {
    int errors = 0;
    for (const json& m : p.received()) errors += m.value("type", "") == "error";
    return errors;
}

const json no_powers = {
    {"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"clock", {{"kind", "none"}}}};

}  // namespace

TEST_CASE("a flooding player is cut with 1008 while another game plays on, then resumes", "[e2e]") {
    server::Config config = e2e::config();
    // A slow refill, so that even a sanitizer build's slower flood outruns it by far: the flood
    // must meet the limit before its unread replies fill the outgoing queue (max_queued_messages),
    // or it would be cut as a slow reader (4000) instead.
    config.messages_per_second = 20;
    config.message_burst = 100;
    config.rate_strikes_before_close = 20;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    const e2e::Guest flo = e2e::http_guest(port, "Flo");
    const e2e::Guest gus = e2e::http_guest(port, "Gus");
    const e2e::Guest cat = e2e::http_guest(port, "Cat");
    const e2e::Guest dan = e2e::http_guest(port, "Dan");
    auto f = std::make_unique<e2e::Player>(port, traffic, "flooder");
    e2e::Player g(port, traffic, "gus");
    e2e::Player c(port, traffic, "cat");
    e2e::Player d(port, traffic, "dan");
    f->hello(flo.token);
    g.hello(gus.token);
    c.hello(cat.token);
    d.hello(dan.token);

    // Game A: the flooder against Gus, under way. Game B: Cat against Dan, placed and playing.
    const std::string game_a = e2e::start_private_match(*f, g, no_powers).match;
    e2e::open_match(*f, game_a);
    e2e::open_match(g, game_a);
    e2e::sync({f.get(), &g}, game_a);
    const std::string game_b = e2e::start_private_match(c, d, no_powers).match;
    e2e::open_match(c, game_b);
    e2e::open_match(d, game_b);
    e2e::sync({&c, &d}, game_b);
    int steps = 0;
    for (int i = 0; i < 7; ++i)
        e2e::play_first_legal(seats_of(game_a, {f.get(), &g}), {f.get(), &g}, game_a, ++steps);
    const std::vector<e2e::Player*> seats_b = seats_of(game_b, {&c, &d});
    while (c.match(game_b).view["status"] != "playing")
        e2e::play_first_legal(seats_b, {&c, &d}, game_b, ++steps);
    const int flooder_seat = f->match(game_a).view["you"].get<int>();
    const std::uint64_t flooder_had = f->version_of(game_a);
    const e2e::MatchView flooder_view = f->match(game_a);
    REQUIRE(g.version_of(game_a) == flooder_had);
    const int errors_before = errors_in(c) + errors_in(d);

    // The flooder sends pings as fast as it can on its own thread, never reading, then reads
    // what came back up to the close. (No assertions off the test thread: Catch2 is not
    // thread-safe; the Traffic log is.)
    constexpr int flood = 1500;
    int sent = 0;
    std::vector<std::string> replies;
    std::optional<std::uint16_t> flood_close;
    std::thread flooder([&] {
        test::WsClient& raw = f->raw();
        for (int i = 0; i < flood; ++i) {
            const json ping = {{"type", "ping"}, {"ref", i}};
            if (!raw.send_json(ping, 2s)) break;
            traffic.add("client", ping);
            ++sent;
        }
        flood_close = raw.read_close(8s, &replies);
    });

    // Meanwhile Cat and Dan play their game to the end: every step acknowledged, every version
    // seen by both, no error.
    while (c.match(game_b).view["status"] != "finished") {
        REQUIRE(steps < 1500);
        e2e::play_first_legal(seats_b, {&c, &d}, game_b, ++steps);
    }
    flooder.join();
    CHECK(errors_in(c) + errors_in(d) == errors_before);
    CHECK(c.match(game_b).view["result"].is_object());
    CHECK(d.match(game_b).view["result"] == c.match(game_b).view["result"]);

    // The flood: served up to the bucket, then rate_limited errors (a token that refills in
    // between serves one more ping and starts the count again), the last `strikes` of them in a
    // row, then 1008.
    INFO("sent " << sent << ", replies " << replies.size());
    CHECK(sent == flood);
    CHECK(flood_close == std::optional<std::uint16_t>(1008));
    int pongs = 0, limited = 0, others = 0, in_a_row = 0;
    for (const std::string& text : replies) {
        const json reply = json::parse(text);
        traffic.add("server", reply);
        if (reply["type"] == "pong") {
            ++pongs;
            in_a_row = 0;
        } else if (reply["type"] == "error" && reply["code"] == "rate_limited") {
            ++limited;
            ++in_a_row;
            CHECK_FALSE(reply.contains("ref"));  // the message was dropped unread
        } else {
            ++others;
        }
    }
    // The bucket, less the tokens the flooder spent setting its game up (hello, lobby, open, its
    // steps: about ten) and not yet refilled at this slow rate.
    CHECK(pongs >= static_cast<int>(config.message_burst) - 20);
    CHECK(pongs <= static_cast<int>(config.message_burst) + 20);
    CHECK(pongs < flood - config.rate_strikes_before_close);
    CHECK(limited >= config.rate_strikes_before_close);
    CHECK(in_a_row == config.rate_strikes_before_close);
    CHECK(others == 0);
    CHECK(running.server().metrics().render().find(
              "santorini_rejected_messages_total{reason=\"rate_limited\"} " +
              std::to_string(limited) + "\n") != std::string::npos);

    // Gus sees the flooder's seat go away: one version, nothing else changed.
    REQUIRE(g.until_version(game_a, flooder_had + 1));
    CHECK(g.match(game_a).view["seats"][static_cast<std::size_t>(flooder_seat)]["connected"] ==
          false);
    CHECK(g.match(game_a).view["status"] == "playing");
    CHECK(errors_in(g) == 0);

    // The flooder comes back and resumes from the last version it had: its own disconnection
    // and reconnection, as patches.
    f = std::make_unique<e2e::Player>(port, traffic, "flooder-again");
    f->hello(flo.token);
    f->match(game_a) = flooder_view;
    const std::vector<json> missed = e2e::open_match(*f, game_a, flooder_had, "resume");
    std::vector<std::uint64_t> versions;
    for (const json& m : missed) {
        CHECK(m["type"] == "match.patch");
        versions.push_back(m.value("version", std::uint64_t{0}));
    }
    CHECK(versions == std::vector<std::uint64_t>{flooder_had + 1, flooder_had + 2});
    REQUIRE(g.until_version(game_a, flooder_had + 2));
    CHECK(g.match(game_a).view["seats"][static_cast<std::size_t>(flooder_seat)]["connected"] ==
          true);

    // And game A goes on to its end.
    const std::vector<e2e::Player*> seats_a = seats_of(game_a, {f.get(), &g});
    while (g.match(game_a).view["status"] != "finished") {
        REQUIRE(steps < 3000);
        e2e::play_first_legal(seats_a, {f.get(), &g}, game_a, ++steps);
    }
    CHECK(f->match(game_a).view == [&] {
        e2e::Player tab(port, traffic, "flooder-tab");
        tab.hello(flo.token);
        e2e::open_match(tab, game_a);
        return tab.match(game_a).view;
    }());
    CHECK(errors_in(*f) == 0);
    CHECK(errors_in(g) == 0);

    e2e::check_traffic(traffic);
}

TEST_CASE("a spectator that stops reading is cut with 4000, memory bounded, and resumes", "[e2e]") {
    server::Config config = e2e::config();
    config.max_queued_messages = 64;
    // Every lobby change goes out as its own `lobbies.changed` (no coalescing): the most
    // messages for Sue's queue.
    config.list_interval = std::chrono::milliseconds(1);
    config.spectators_interval = std::chrono::milliseconds(1000);  // coalesced, as in production
    // Sue resumes by patches below: the history may hold all of them (its byte bound is
    // tested in match_test).
    config.history_bytes_per_viewer = 1 << 20;
    // A small, fixed kernel send buffer: left to itself, Linux grows the server side's buffer
    // of her socket to hundreds of KB, which can absorb the whole churn below before her
    // queue overflows (it did in sanitizer runs).
    config.socket_send_buffer = 8 * 1024;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    // Forty public lobbies waiting for players make every lobby list some 15 KiB.
    const json pool = {"Apollo",     "Artemis", "Athena",   "Atlas", "Demeter",
                       "Hephaestus", "Hermes",  "Minotaur", "Pan",   "Prometheus"};
    const json lobby_settings = {{"game", "santorini"}, {"players", 2},    {"powers", "custom"},
                                 {"pool", pool},        {"draft", "full"}, {"public", true}};
    std::vector<std::unique_ptr<e2e::Player>> hosts;
    for (int i = 0; i < 40; ++i) {
        const std::string name = "Waiting host number " + std::to_string(100 + i);
        hosts.push_back(std::make_unique<e2e::Player>(port, traffic, name));
        hosts.back()->hello(e2e::http_guest(port, name).token);
        hosts.back()->send({{"type", "lobby.create"}, {"ref", "c"}, {"settings", lobby_settings}});
        auto ack = hosts.back()->until_reply("c");
        REQUIRE(ack);
        REQUIRE((*ack)["type"] == "ack");
    }
    const std::size_t list_bytes = running.server().hub().public_lobbies().dump().size();
    INFO("lobby list of " << list_bytes << " bytes");
    REQUIRE(list_bytes > 12 * 1024);

    // A game between Ann and Bob, and Sue who watches it and the lobby list.
    const e2e::Guest ann = e2e::http_guest(port, "Ann");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const e2e::Guest sue = e2e::http_guest(port, "Sue");
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    auto s = std::make_unique<e2e::Player>(port, traffic, "sue", 4096);
    a.hello(ann.token);
    b.hello(bob.token);
    s->hello(sue.token);
    const std::string match = e2e::start_private_match(a, b, no_powers).match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::open_match(*s, match);
    s->send({{"type", "lobbies.subscribe"}, {"ref", "sub"}});
    REQUIRE(s->until_reply("sub"));
    e2e::sync({&a, &b, s.get()}, match);
    const std::vector<e2e::Player*> seats = seats_of(match, {&a, &b});
    const std::shared_ptr<server::WebsocketSession> stalled = session_of(running.server(), sue.id);
    REQUIRE(stalled);

    // Sue stops reading. Kim keeps the lobby list changing (creating a public lobby and leaving
    // it: two changes of one lobby each time) and Ann and Bob keep playing, until Sue's queue
    // overflows, or until far more was sent to her than the memory bound below (so a queue
    // that grew without bound would fail both checks).
    const e2e::Guest kim_guest = e2e::http_guest(port, "Kim");
    e2e::Player kim(port, traffic, "kim");
    kim.hello(kim_guest.token);
    // Kim watches the lobby list too, and makes each change only once the one before has
    // reached him (and so Sue's queue): every change goes out alone however late the list's
    // timer fires (a sanitizer build, a busy io thread), not only when it fires within a sleep.
    kim.send({{"type", "lobbies.subscribe"}, {"ref", "ks"}});
    REQUIRE(kim.until_reply("ks"));
    // Reads until the reply to `ref` and a list change have both come (in either order).
    auto until_listed = [&kim](const std::string& ref, std::optional<json>* lobby) {
        bool replied = false, listed = false;
        return kim
            .until(
                [&](const json& m) {
                    const std::string type = m.value("type", "");
                    if (type == "lobby" && lobby) *lobby = m;
                    if ((type == "ack" || type == "error") && m.contains("ref") && m["ref"] == ref) replied = true;
                    if (type == "lobbies.changed") listed = true;
                    return replied && listed && (!lobby || lobby->has_value());
                },
                10s)
            .has_value();
    };
    constexpr std::size_t memory_bound = 24u << 20;
    const std::size_t budget = 4 * memory_bound;
    const std::size_t memory_before = memory_in_use();
    std::size_t memory_peak = memory_before;
    std::size_t sent_to_sue = 0;
    std::size_t queue_peak = 0;
    int cycles = 0;
    int steps = 0;
    auto churn = [&] {
        kim.send({{"type", "lobby.create"}, {"ref", "k1"}, {"settings", lobby_settings}});
        std::optional<json> lobby;
        REQUIRE(until_listed("k1", &lobby));
        kim.send({{"type", "lobby.leave"}, {"ref", "k2"}, {"lobby", (*lobby)["lobby"]["id"]}});
        REQUIRE(until_listed("k2", nullptr));
        sent_to_sue += 2 * list_bytes / 40;
        if (++cycles % 4 == 0 && a.match(match).view["status"] != "finished")
            e2e::play_first_legal(seats, {&a, &b}, match, ++steps);
        queue_peak = std::max(queue_peak, stalled->queued());
        memory_peak = std::max(memory_peak, memory_in_use());
    };
    // Her queue grows once the kernel's buffers for her socket are full (both small here).
    // The churn stops after 20 s whatever happens: the waiting hosts, who read nothing, are cut
    // for silence after 30 s.
    const auto churn_until = std::chrono::steady_clock::now() + 20s;
    while (stalled->peak_queued() <= config.max_queued_messages && sent_to_sue < budget &&
           std::chrono::steady_clock::now() < churn_until)
        churn();
    INFO("cycles " << cycles << ", steps " << steps << ", sent to Sue " << sent_to_sue << " bytes");
    REQUIRE(stalled->peak_queued() > config.max_queued_messages);
    CHECK(steps > 0);  // the match moved on while she was not reading
    CHECK(stalled->peak_queued() == config.max_queued_messages + 1);
    // Once cut, nothing more is queued for her however much goes on. For a few seconds only:
    // the server waits 10 s (WebsocketSession::handshake_timeout) for her to read her close
    // frame before it drops the socket, and she must read it below (a slow sanitizer build
    // takes far longer per cycle).
    const auto cut_at = std::chrono::steady_clock::now();
    for (int i = 0; i < 40 && std::chrono::steady_clock::now() - cut_at < 3s; ++i) churn();
    CHECK(stalled->queued() == 0);
    CHECK(queue_peak <= config.max_queued_messages + 1);  // the one that overflowed, for a moment
    INFO("memory before " << memory_before << ", peak " << memory_peak);
    CHECK(memory_peak - memory_before < memory_bound);
    CHECK(running.server().metrics().render().find(
              "santorini_rejected_messages_total{reason=\"busy\"} 1\n") != std::string::npos);
    // Nobody else was cut or refused anything.
    CHECK(errors_in(a) + errors_in(b) + errors_in(kim) == 0);
    CHECK(session_of(running.server(), ann.id));
    CHECK(session_of(running.server(), kim_guest.id));

    // Sue reads again: what was already on the wire, in order and without gaps (the Player
    // checks every version), then the close.
    const std::uint64_t sue_had = s->version_of(match);
    while (s->next(3s)) {
    }
    REQUIRE(s->raw().ended());
    CHECK(s->raw().close_code() == std::optional<std::uint16_t>(server::close_codes::too_slow));
    const std::uint64_t sue_last = s->version_of(match);
    const e2e::MatchView sue_view = s->match(match);
    // Her connection is gone for the match too: the spectator count drops, a new version.
    CHECK(test::eventually([&] { return !session_of(running.server(), sue.id); }));
    REQUIRE(a.until([&](const json&) { return a.match(match).view["spectators"] == 0; }));
    const std::uint64_t now = e2e::sync({&a, &b}, match);
    INFO("Sue had version " << sue_had << ", read up to " << sue_last << ", the match is at "
                            << now);
    CHECK(sue_last >= sue_had);
    CHECK(sue_last < now);
    REQUIRE(now - sue_last < config.history_per_match);

    // She comes back and resumes from the last version she read: exactly the missed patches.
    s = std::make_unique<e2e::Player>(port, traffic, "sue-again");
    s->hello(sue.token);
    s->match(match) = sue_view;
    const std::vector<json> missed = e2e::open_match(*s, match, sue_last, "resume");
    REQUIRE_FALSE(missed.empty());
    for (const json& m : missed) CHECK(m["type"] == "match.patch");
    CHECK(missed.front()["version"] == sue_last + 1);
    CHECK(missed.size() == now - sue_last);
    // Her return shows in the spectator count within a second (coalesced), not at once.
    REQUIRE(a.until([&](const json&) { return a.match(match).view["spectators"] == 1; }));
    e2e::sync({&a, &b, s.get()}, match);
    e2e::Player tab(port, traffic, "sue-tab");
    tab.hello(sue.token);
    e2e::open_match(tab, match);
    CHECK(tab.version_of(match) == s->version_of(match));
    CHECK(tab.match(match).view == s->match(match).view);
    // And the list again.
    s->send({{"type", "lobbies.subscribe"}, {"ref", "sub"}});
    auto list = s->until_type("lobbies");
    REQUIRE(list);
    CHECK((*list)["lobbies"].size() == 40);

    e2e::check_traffic(traffic);
}

TEST_CASE("a chat flood is refused by the chat's rate, then closed with 1008, while another game "
          "plays on fast",
          "[e2e][abuse][chat]") {
    server::Config config = e2e::config();
    // The connection's budget as the e2e flood test sets it: small enough that the flood meets
    // it long before its unread replies fill the outgoing queue.
    config.messages_per_second = 20;
    config.message_burst = 100;
    config.rate_strikes_before_close = 20;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;

    auto f = std::make_unique<e2e::Player>(port, traffic, "flooder");
    e2e::Player g(port, traffic, "gus");
    e2e::Player c(port, traffic, "cat");
    e2e::Player d(port, traffic, "dan");
    e2e::sign_in(*f, port, "Flo");
    e2e::sign_in(g, port, "Gus");
    e2e::sign_in(c, port, "Cat");
    e2e::sign_in(d, port, "Dan");

    // Game A: the flooder against Gus. Game B: Cat against Dan, placed and playing.
    const std::string game_a = e2e::start_private_match(*f, g, no_powers).match;
    e2e::open_match(*f, game_a);
    e2e::open_match(g, game_a);
    e2e::sync({f.get(), &g}, game_a);
    const std::string game_b = e2e::start_private_match(c, d, no_powers).match;
    e2e::open_match(c, game_b);
    e2e::open_match(d, game_b);
    e2e::sync({&c, &d}, game_b);
    int steps = 0;
    const std::vector<e2e::Player*> seats_b = seats_of(game_b, {&c, &d});
    while (c.match(game_b).view["status"] != "playing")
        e2e::play_first_legal(seats_b, {&c, &d}, game_b, ++steps);
    const int errors_before = errors_in(c) + errors_in(d);

    // The flooder writes lines with refs on its own thread, never reading, then reads what came
    // back up to the close. (No assertions off the test thread: Catch2 is not thread-safe; the
    // Traffic log is.)
    constexpr int flood = 1500;
    int sent = 0;
    std::atomic<bool> flooding{true};
    std::vector<std::string> replies;
    std::optional<std::uint16_t> flood_close;
    std::thread flooder([&] {
        test::WsClient& raw = f->raw();
        for (int i = 0; i < flood; ++i) {
            const json line = {{"type", "match.chat"},
                               {"ref", i},
                               {"match", game_a},
                               {"text", "spam " + std::to_string(i)}};
            if (!raw.send_json(line, 2s)) break;
            traffic.add("client", line);
            ++sent;
        }
        flood_close = raw.read_close(8s, &replies);
        flooding = false;
    });

    // Meanwhile Cat and Dan play on: every step acknowledged and seen by both, the slowest timed.
    auto slowest = std::chrono::steady_clock::duration::zero();
    int timed = 0;
    while (c.match(game_b).view["status"] == "playing" && (timed < 12 || flooding)) {
        REQUIRE(steps < 1500);
        const auto start = std::chrono::steady_clock::now();
        e2e::play_first_legal(seats_b, {&c, &d}, game_b, ++steps);
        slowest = std::max(slowest, std::chrono::steady_clock::now() - start);
        ++timed;
    }
    flooder.join();
    const auto slowest_ms = std::chrono::duration_cast<std::chrono::milliseconds>(slowest).count();
    WARN("chat flood: another game's slowest step round trip " << slowest_ms << " ms over "
                                                               << timed << " steps");
#ifdef E2E_ASAN
    CHECK(slowest < 1000ms);
#else
    CHECK(slowest < 250ms);
#endif
    CHECK(errors_in(c) + errors_in(d) == errors_before);

    // The flood: a few lines served (acks), the chat's rate refusing the rest (rate_limited with
    // the line's ref), then the connection's budget gone (rate_limited without a ref, dropped
    // unread) and 1008.
    INFO("sent " << sent << ", replies " << replies.size());
    CHECK(flood_close == std::optional<std::uint16_t>(1008));
    int acks = 0, chat_limited = 0, budget_limited = 0;
    for (const std::string& text : replies) {
        const json reply = json::parse(text);
        traffic.add("server", reply);
        const std::string type = reply.value("type", "");
        if (type == "ack") ++acks;
        if (type == "error" && reply["code"] == "rate_limited")
            ++(reply.contains("ref") ? chat_limited : budget_limited);
    }
    INFO(acks << " served, " << chat_limited << " refused by the chat's rate, " << budget_limited
              << " by the connection's budget");
    CHECK(acks >= 1);
    CHECK(acks <= 5 + 3);  // the chat's burst, and at most a few refills while the flood lasts
    CHECK(chat_limited > 50);
    CHECK(budget_limited >= config.rate_strikes_before_close);

    // Gus was shown exactly the served lines, nothing of the rest.
    e2e::drain(g, 300ms);
    int shown = 0;
    for (const json& line : g.match(game_a).view["chat"]) shown += line["player"] == f->player_id();
    CHECK(shown == acks);
    CHECK(errors_in(g) == 0);

    e2e::check_traffic(traffic);
}

}  // namespace e2e_abuse_test
