// Quick play through the hub with fake connections: joining tells the player `queue` waiting,
// two players are matched into one rated match with the queue's settings, who may not queue,
// leaving, disconnecting, and a new tab learning its player's queue at once.

#include <catch2/catch_test_macros.hpp>
#include <random>

#include "tests/server/support/hub_harness.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace queue_test {

using namespace server;
using namespace server::test;

namespace {

json clock_of(int base, int increment) {
    return {{"kind", "realtime"}, {"base_seconds", base}, {"increment_seconds", increment}};
}

json join(const std::string& queue, int base = 180, int increment = 2, json ref = "q") {
    return {{"type", "queue.join"}, {"queue", queue}, {"clock", clock_of(base, increment)}, {"ref", ref}};
}

json leave(json ref = "l") {
    return {{"type", "queue.leave"}, {"ref", ref}};
}

void require_error(const FakeParticipant& conn, const std::string& code, const json& ref) {
    auto e = conn.last("error");
    INFO(e.dump());
    REQUIRE(e.is_object());
    CHECK(e["code"] == code);
    CHECK(e["ref"] == ref);
}

std::size_t waiting_in(const Harness& h, const std::string& queue, int base, int increment) {
    for (const auto& q : h.hub.queues())
        if (q["queue"] == queue && q["clock"] == clock_of(base, increment))
            return q["waiting"].get<std::size_t>();
    FAIL("queue not listed");
    return 0;
}

}  // namespace

TEST_CASE("Joining a queue: waiting event, ack, and the count in GET /api/queues", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann");
    auto list = h.hub.queues();
    REQUIRE(list.size() == 12);  // 4 queues x 3 clocks
    for (const auto& q : list) CHECK(q["waiting"] == 0);
    CHECK(list[0] == json{{"queue", "santorini"}, {"clock", clock_of(180, 2)}, {"waiting", 0}});

    h.send(ann.conn, join("santorini_simple", 300, 3));
    auto messages = ann.conn->take();
    REQUIRE(messages.size() == 2);
    const json& waiting = messages[0];
    CHECK(waiting["type"] == "queue");
    CHECK(waiting["state"] == "waiting");
    CHECK(waiting["queue"] == "santorini_simple");
    CHECK(waiting["clock"] == clock_of(300, 3));
    CHECK(waiting["since"].is_number_integer());
    CHECK(waiting["since"].get<std::int64_t>() > 1'700'000'000'000);
    CHECK(messages[1] == json{{"type", "ack"}, {"ref", "q"}});
    CHECK(waiting_in(h, "santorini_simple", 300, 3) == 1);
    CHECK(waiting_in(h, "santorini", 300, 3) == 0);

    // Every tab of the player hears it; a tab that says hello later is told at once.
    auto tab = h.tab(ann);
    h.hub.connected(tab);
    h.settle();
    auto told = tab->last("queue");
    REQUIRE(told.is_object());
    CHECK(told["state"] == "waiting");
    CHECK(told["since"] == waiting["since"]);
}

TEST_CASE("Two players of a queue are matched into one rated match with its settings", "[queue]") {
    struct Case {
        std::string queue;
        bool powers;
    };
    for (const auto& c : {Case{"santorini", false}, Case{"santorini_simple", true},
                          Case{"santorini_gods", true}}) {
        INFO(c.queue);
        Harness h;
        auto ann = h.guest("Ann"), bob = h.guest("Bob");
        auto ann_tab = h.tab(ann);
        h.hub.connected(ann_tab);
        h.send(ann.conn, join(c.queue, 600, 5, 1));
        CHECK(ann.conn->last("queue")["state"] == "waiting");
        h.send(bob.conn, join(c.queue, 600, 5, 2));

        auto a = ann.conn->last("queue"), b = bob.conn->last("queue"), t = ann_tab->last("queue");
        INFO(a.dump() << " " << b.dump());
        REQUIRE(a["state"] == "matched");
        REQUIRE(b["state"] == "matched");
        CHECK(t == a);  // every tab is taken to the match
        CHECK(a["match"] == b["match"]);
        CHECK(a["queue"] == c.queue);
        CHECK(a["clock"] == clock_of(600, 5));
        const std::string match = a["match"];
        CHECK(match.rfind("m_", 0) == 0);
        CHECK(bob.conn->last("ack")["ref"] == 2);
        CHECK(waiting_in(h, c.queue, 600, 5) == 0);

        // The match exists, both are seated in it, and it is played as the queue says.
        CHECK(h.summary(match));
        h.send(ann.conn, {{"type", "match.open"}, {"match", match}});
        h.send(bob.conn, {{"type", "match.open"}, {"match", match}});
        auto view = view_of(ann, match);
        REQUIRE(view.is_object());
        CHECK(view["you"].is_number_integer());
        CHECK(view_of(bob, match)["you"] != view["you"]);
        CHECK(view["clock"]["kind"] == "realtime");
        REQUIRE(view["clock"]["remaining_ms"].size() == 2);
        for (const auto& ms : view["clock"]["remaining_ms"]) {  // the clock runs: real time
            CHECK(ms.get<int>() <= 600000);
            CHECK(ms.get<int>() > 590000);
        }
        const json& powers = view["state"]["powers"];
        REQUIRE(powers.size() == 2);
        for (const auto& p : powers) CHECK(p.is_string() == c.powers);
        CHECK(view["status"] == "draft");  // the challenger names the start player

        // A match in progress keeps its players out of the queues.
        h.send(ann.conn, join("santorini", 180, 2, "again"));
        require_error(*ann.conn, "already_in_game", "again");

        // It is played to the end; then both may queue again.
        std::mt19937 rng(7);
        play_out(h, {ann, bob}, match, rng, 2000);
        CHECK(view_of(ann, match)["status"] == "finished");
        h.send(ann.conn, join("santorini", 180, 2, "after"));
        CHECK(ann.conn->last("ack")["ref"] == "after");
        CHECK(ann.conn->last("queue")["state"] == "waiting");
    }
}

TEST_CASE("A finished queue match is recorded with a rating update", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    h.send(ann.conn, join("santorini"));
    h.send(bob.conn, join("santorini"));
    const std::string match = ann.conn->last("queue")["match"];
    h.send(ann.conn, {{"type", "match.open"}, {"match", match}});
    h.send(bob.conn, {{"type", "match.open"}, {"match", match}});
    std::mt19937 rng(11);
    play_out(h, {ann, bob}, match, rng, 2000);
    REQUIRE(view_of(ann, match)["status"] == "finished");
    auto records = h.recording.records();
    REQUIRE_FALSE(records.empty());
    REQUIRE(records.back().finish);
    CHECK(records.back().finish->pool == "santorini");
    CHECK(records.back().finish->rate);  // rated
}

TEST_CASE("Who may not join a queue, and the error each gets", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");

    h.send(ann.conn, join("chess", 180, 2, 1));
    require_error(*ann.conn, "unknown_queue", 1);
    h.send(ann.conn, join("santorini", 180, 3, 2));  // not an offered clock
    require_error(*ann.conn, "invalid_field", 2);
    CHECK(ann.conn->last("error")["message"].get<std::string>().find("3+2, 5+3, 10+5") !=
          std::string::npos);
    CHECK(ann.conn->of_type("queue").empty());

    // Queued once: the same queue, another queue or another clock is refused.
    h.send(ann.conn, join("santorini", 180, 2, 3));
    REQUIRE(ann.conn->last("ack")["ref"] == 3);
    h.send(ann.conn, join("santorini", 180, 2, 4));
    require_error(*ann.conn, "already_queued", 4);
    h.send(ann.conn, join("santorini_gods", 600, 5, 5));
    require_error(*ann.conn, "already_queued", 5);
    CHECK(waiting_in(h, "santorini", 180, 2) == 1);
    CHECK(waiting_in(h, "santorini_gods", 600, 5) == 0);

    // Queued players do not sit in lobbies.
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}, {"ref", 6}});
    require_error(*ann.conn, "already_queued", 6);
    h.send(bob.conn, {{"type", "lobby.create"}, {"settings", settings_json(2)}, {"ref", 7}});
    const std::string lobby = bob.conn->last("lobby")["lobby"]["id"];
    h.send(ann.conn, {{"type", "lobby.join"}, {"lobby", lobby}, {"ref", 8}});
    require_error(*ann.conn, "already_queued", 8);
    CHECK(h.hub.public_lobbies()[0]["seats"][1].is_null());

    // ... and lobby players do not queue.
    h.send(bob.conn, join("santorini", 180, 2, 9));
    require_error(*bob.conn, "already_in_game", 9);
    CHECK(waiting_in(h, "santorini", 180, 2) == 1);  // Ann still waits, alone
}

TEST_CASE("Leaving a queue, at any moment, and leaving when not queued", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    h.send(ann.conn, join("santorini_gods", 300, 3));
    ann.conn->take();
    h.send(ann.conn, leave("l1"));
    auto messages = ann.conn->take();
    REQUIRE(messages.size() == 2);
    CHECK(messages[0] == json{{"type", "queue"}, {"state", "left"}, {"reason", "left"}});
    CHECK(messages[1] == json{{"type", "ack"}, {"ref", "l1"}});
    CHECK(waiting_in(h, "santorini_gods", 300, 3) == 0);

    // Bob joins: Ann is gone, so he waits.
    h.send(bob.conn, join("santorini_gods", 300, 3));
    CHECK(bob.conn->last("queue")["state"] == "waiting");

    // Not queued: still an ack and a `left` (a stale tab learns it is not waiting).
    h.send(ann.conn, leave("l2"));
    messages = ann.conn->take();
    REQUIRE(messages.size() == 2);
    CHECK(messages[0]["state"] == "left");
    CHECK(messages[1]["ref"] == "l2");

    // Ann may join again at once, and is paired with Bob.
    h.send(ann.conn, join("santorini_gods", 300, 3));
    CHECK(ann.conn->last("queue")["state"] == "matched");
    CHECK(bob.conn->last("queue")["match"] == ann.conn->last("queue")["match"]);
}

TEST_CASE("Losing the last connection leaves the queue; another tab keeps the place", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    auto tab = h.tab(ann);
    h.hub.connected(ann.conn);
    h.hub.connected(tab);
    h.send(ann.conn, join("santorini"));
    h.drop(ann.conn);
    CHECK(waiting_in(h, "santorini", 180, 2) == 1);  // the tab is still there
    h.drop(tab);
    CHECK(waiting_in(h, "santorini", 180, 2) == 0);

    // Nobody is paired with the absent player.
    h.send(bob.conn, join("santorini"));
    CHECK(bob.conn->last("queue")["state"] == "waiting");
    CHECK(waiting_in(h, "santorini", 180, 2) == 1);
}

TEST_CASE("Queues and clocks are separate lines", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), cid = h.guest("Cid");
    h.send(ann.conn, join("santorini", 180, 2));
    h.send(bob.conn, join("santorini", 300, 3));
    h.send(cid.conn, join("santorini_simple", 180, 2));
    for (const auto* p : {&ann, &bob, &cid}) CHECK(p->conn->last("queue")["state"] == "waiting");
    CHECK(waiting_in(h, "santorini", 180, 2) == 1);
    CHECK(waiting_in(h, "santorini", 300, 3) == 1);
    CHECK(waiting_in(h, "santorini_simple", 180, 2) == 1);
}

TEST_CASE("After shutdown queue requests are refused", "[queue]") {
    Harness h;
    auto ann = h.guest("Ann");
    h.hub.shutdown();
    h.settle();
    h.send(ann.conn, join("santorini"));
    require_error(*ann.conn, "unavailable", "q");
}

}  // namespace queue_test
