// Real sockets on loopback: a chat flood (docs/protocol.md, "Chat" and "Limits and close
// codes"). A seated player writes chat lines as fast as its socket takes them, never reading:
// the chat's own rate serves a handful and refuses the rest, the connection's message budget
// runs out and it is closed with 1008, its opponent is shown only the lines that were served,
// and meanwhile another game's steps stay fast (the slowest round trip is measured and printed,
// as the hardening tests do).

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "tests/server/support/abuse_support.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

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

const auto step_bound = abuse::sanitized ? 1000ms : 250ms;

}  // namespace

TEST_CASE("a chat flood is refused by the chat's rate, then closed with 1008, while another game "
          "plays on fast",
          "[abuse][chat]") {
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
    CHECK(slowest < step_bound);
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
