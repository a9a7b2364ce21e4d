// FleetStore against a real PostgreSQL: heartbeats, leases and claims, the takeover scan under
// concurrency, the pairing authority's lock, statement deadlines, and PgStepStore's fence.

#include "protocol/json/basic_json.hpp"
#include "server/store/fleet_store.hpp"

#include <algorithm>
#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <future>
#include <latch>
#include <set>
#include <thread>
#include <vector>

#include "server/store/pg_step_store.hpp"
#include "test_database.hpp"

using namespace std::chrono_literals;
using server::MatchCreation;
using server::MatchFinish;
using server::StepRecord;
using store::Claim;
using store::FleetStore;
using store::Ownership;
using store::PgStepStore;
using store::StoreError;
using store_test::TestSchema;

namespace {

// One node's FleetStore, with an application_name of its own so a test can find (and
// terminate) exactly its sessions.
struct Node {
    Node(const TestSchema& s, const std::string& id, std::chrono::milliseconds lease = 10s,
         std::chrono::milliseconds deadline = 2s)
        : app(store_test::unique_name("fleet_" + id + "_")), fleet([&] {
              store::FleetStoreOptions o;
              o.url = store_test::with_schema(store_test::database_url(), s.name(), app);
              o.node = id;
              o.node_url = "http://" + id;
              o.lease = lease;
              o.deadline = deadline;
              return o;
          }()) {}
    std::string app;
    FleetStore fleet;
};

void exec(const TestSchema& s, const std::string& sql) {
    pqxx::connection c(s.url());
    pqxx::nontransaction n(c);
    n.exec(sql);
}

void expire(const TestSchema& s, const std::string& match) {
    exec(s,
         "UPDATE matches SET lease_until = now() - interval '1 second' WHERE id = '" + match + "'");
}

// Milliseconds left on a match's lease, by the database clock.
double lease_left_ms(const TestSchema& s, const std::string& match) {
    return std::stod(
        s.scalar("SELECT extract(epoch FROM lease_until - now()) * 1000 FROM "
                 "matches WHERE id = '" +
                 match + "'"));
}

// Terminates the sessions of `app` (all, or only the one holding an advisory lock); returns
// how many, after waiting until they are gone.
int terminate(const TestSchema& s, const std::string& app, bool only_lock_holder) {
    const std::string which =
        only_lock_holder
            ? "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND pid IN "
              "(SELECT pid FROM pg_stat_activity WHERE application_name = '" +
                  app + "')"
            : "SELECT pid FROM pg_stat_activity WHERE application_name = '" + app + "'";
    const int n =
        std::stoi(s.scalar("SELECT count(pg_terminate_backend(pid)) FROM (" + which + ") AS t"));
    for (int i = 0; i < 100; ++i) {
        if (s.scalar("SELECT count(*) FROM (" + which + ") AS t") == "0") break;
        std::this_thread::sleep_for(20ms);
    }
    return n;
}

template <class F>
bool eventually(F&& f, std::chrono::milliseconds limit = 5s) {
    const auto end = std::chrono::steady_clock::now() + limit;
    for (;;) {
        if (f()) return true;
        if (std::chrono::steady_clock::now() > end) return false;
        std::this_thread::sleep_for(20ms);
    }
}

std::set<std::string> ids_of(const std::vector<store::NodeInfo>& nodes) {
    std::set<std::string> ids;
    for (const auto& n : nodes) ids.insert(n.id);
    return ids;
}

StepRecord step(const std::string& match, std::uint32_t number, const std::string& player) {
    StepRecord r;
    r.match_id = match;
    r.number = number;
    r.player_id = player;
    r.step_json = R"({"kind":"move","to":"c3"})";
    r.at_ms = store_test::now_ms();
    return r;
}

MatchCreation creation(const std::string& id, const std::string& owner = "") {
    MatchCreation m;
    m.id = id;
    m.settings_json = "{}";
    m.seed = 7;
    m.owner_node = owner;
    m.created_at_ms = store_test::now_ms();
    m.seats = {{0, "pa", "", std::nullopt}, {1, "pb", "", std::nullopt}};
    return m;
}

// An answer to come (a StepStore done callback), with a bounded wait.
struct Answer {
    std::shared_ptr<std::promise<bool>> promise = std::make_shared<std::promise<bool>>();
    std::future<bool> future = promise->get_future();
    std::function<void(bool)> done() {
        return [p = promise](bool ok) { p->set_value(ok); };
    }
    std::optional<bool> get(std::chrono::milliseconds limit = 10s) {
        if (future.wait_for(limit) != std::future_status::ready) return std::nullopt;
        return future.get();
    }
};

store::PgStepStoreOptions fleet_step_store(const TestSchema& s, const std::string& node) {
    store::PgStepStoreOptions o;
    o.url = s.url();
    o.node = node;
    o.lease = 10s;
    o.min_backoff = 20ms;
    o.max_backoff = 200ms;
    return o;
}

std::optional<bool> create_and_wait(PgStepStore& store, MatchCreation m) {
    Answer a;
    store.create(std::move(m), a.done());
    return a.get();
}

std::optional<bool> append_and_wait(PgStepStore& store, StepRecord r) {
    Answer a;
    store.append(std::move(r), a.done());
    return a.get();
}

}  // namespace

TEST_CASE("heartbeats: a node is alive while its heartbeat is younger than the given age",
          "[fleet]") {
    TestSchema s;
    Node a(s, "A"), b(s, "B");

    auto first = a.fleet.heartbeat(3, 5s);
    REQUIRE(first.ok());
    REQUIRE(first->size() == 1);
    CHECK((*first)[0].id == "A");
    CHECK((*first)[0].url == "http://A");
    CHECK((*first)[0].matches == 3);
    CHECK_FALSE((*first)[0].leader);
    CHECK((*first)[0].age_ms < 1000);

    auto both = b.fleet.heartbeat(0, 5s);
    REQUIRE(both.ok());
    CHECK(ids_of(*both) == std::set<std::string>{"A", "B"});

    // A's last heartbeat 10 s ago by the database clock: dead within 5 s, alive within 20 s.
    exec(s, "UPDATE nodes SET heartbeat_at = now() - interval '10 seconds' WHERE id = 'A'");
    auto alone = b.fleet.heartbeat(0, 5s);
    REQUIRE(alone.ok());
    CHECK(ids_of(*alone) == std::set<std::string>{"B"});
    auto wide = b.fleet.heartbeat(0, 20s);
    REQUIRE(wide.ok());
    REQUIRE(wide->size() == 2);
    const auto& old = (*wide)[0].id == "A" ? (*wide)[0] : (*wide)[1];
    CHECK(old.age_ms >= 9900);
    CHECK(old.age_ms < 12000);

    // A heartbeat brings it back, with its new count and its leadership.
    REQUIRE(a.fleet.try_lead());
    REQUIRE(a.fleet.heartbeat(4, 5s).ok());
    CHECK(s.scalar("SELECT matches || ',' || leader FROM nodes WHERE id = 'A'") == "4,true");
    CHECK(s.scalar("SELECT count(*) FROM nodes") == "2");

    // A graceful stop deletes the row at once.
    REQUIRE(a.fleet.leave().ok());
    auto after = b.fleet.heartbeat(0, 5s);
    REQUIRE(after.ok());
    CHECK(ids_of(*after) == std::set<std::string>{"B"});
}

TEST_CASE("claim: an unowned, an own and an expired match are claimed; a valid lease is not",
          "[fleet]") {
    TestSchema s;
    for (auto id : {"m1", "m2", "m3"}) store_test::add_match(s, id, "pa", "pb");
    Node a(s, "A"), b(s, "B");

    // Unowned (owner_node NULL): claimed, with a lease of 10 s on the database clock.
    Ownership seen;
    auto c = a.fleet.claim("m1", &seen);
    REQUIRE(c.ok());
    CHECK(*c == Claim::Claimed);
    CHECK(seen.owner == "A");
    CHECK(s.scalar("SELECT owner_node FROM matches WHERE id = 'm1'") == "A");
    CHECK(lease_left_ms(s, "m1") > 9000);
    CHECK(lease_left_ms(s, "m1") <= 10000);

    // Validly owned by A: B may not; it learns who owns it.
    seen = {};
    c = b.fleet.claim("m1", &seen);
    REQUIRE(c.ok());
    CHECK(*c == Claim::OwnedElsewhere);
    CHECK(seen.status == "live");
    CHECK(seen.owner == "A");
    CHECK(seen.lease_valid);
    CHECK(s.scalar("SELECT owner_node FROM matches WHERE id = 'm1'") == "A");

    // Its own match: claimed again, the lease renewed.
    exec(s, "UPDATE matches SET lease_until = now() + interval '1 second' WHERE id = 'm1'");
    c = a.fleet.claim("m1");
    REQUIRE(c.ok());
    CHECK(*c == Claim::Claimed);
    CHECK(lease_left_ms(s, "m1") > 9000);

    // Expired: B takes it over.
    expire(s, "m1");
    c = b.fleet.claim("m1", &seen);
    REQUIRE(c.ok());
    CHECK(*c == Claim::Claimed);
    CHECK(seen.owner == "B");
    auto owner = a.fleet.owner_of("m1");
    REQUIRE(owner.ok());
    CHECK(owner->owner == "B");
    CHECK(owner->lease_valid);

    // Over, or unknown.
    exec(s, "UPDATE matches SET status = 'finished', finished_at = now() WHERE id = 'm2'");
    c = a.fleet.claim("m2", &seen);
    REQUIRE(c.ok());
    CHECK(*c == Claim::NotLive);
    CHECK(seen.status == "finished");
    c = a.fleet.claim("nope");
    REQUIRE(c.ok());
    CHECK(*c == Claim::NotFound);
    auto missing = a.fleet.owner_of("nope");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error().kind == StoreError::Kind::NotFound);

    // assign gives a match to a node whoever held it.
    REQUIRE(a.fleet.assign("m3", "B").ok());
    owner = a.fleet.owner_of("m3");
    REQUIRE(owner.ok());
    CHECK(owner->owner == "B");
    CHECK(owner->lease_valid);
    c = a.fleet.claim("m3");
    REQUIRE(c.ok());
    CHECK(*c == Claim::OwnedElsewhere);
    auto unknown = a.fleet.assign("nope", "A");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().kind == StoreError::Kind::NotFound);
}

TEST_CASE("renew renews what this node still owns and drops a match taken over", "[fleet]") {
    TestSchema s;
    for (auto id : {"m1", "m2", "m3"}) store_test::add_match(s, id, "pa", "pb");
    Node a(s, "A"), b(s, "B");
    for (auto id : {"m1", "m2", "m3"}) REQUIRE(*a.fleet.claim(id) == Claim::Claimed);

    expire(s, "m2");
    REQUIRE(*b.fleet.claim("m2") == Claim::Claimed);
    exec(s, "UPDATE matches SET status = 'aborted', finished_at = now() WHERE id = 'm3'");
    exec(s, "UPDATE matches SET lease_until = now() + interval '1 second' WHERE id = 'm1'");

    auto renewed = a.fleet.renew({"m1", "m2", "m3", "nope"});
    REQUIRE(renewed.ok());
    CHECK(*renewed == std::vector<std::string>{"m1"});
    CHECK(lease_left_ms(s, "m1") > 9000);
    CHECK(s.scalar("SELECT owner_node FROM matches WHERE id = 'm2'") == "B");

    // An expired lease nobody took is still this node's: renewing it is right.
    expire(s, "m1");
    renewed = a.fleet.renew({"m1"});
    REQUIRE(renewed.ok());
    CHECK(*renewed == std::vector<std::string>{"m1"});

    renewed = a.fleet.renew({});
    REQUIRE(renewed.ok());
    CHECK(renewed->empty());
}

TEST_CASE("claim_expired by two nodes at once never gives one match to both", "[fleet]") {
    TestSchema s;
    constexpr int total = 150;
    // Live matches of a dead node, leases run out; and one validly owned that nobody may take.
    exec(s,
         "INSERT INTO matches (id, game, settings, seed, owner_node, lease_until) "
         "SELECT 'x' || i, 'santorini', '{}', 1, 'dead', now() - interval '1 second' "
         "FROM generate_series(1, " +
             std::to_string(total) + ") AS i");
    exec(s,
         "INSERT INTO matches (id, game, settings, seed, owner_node, lease_until) "
         "VALUES ('held', 'santorini', '{}', 1, 'C', now() + interval '1 minute')");

    Node a(s, "A"), b(s, "B");
    std::vector<std::string> got_a, got_b;
    std::atomic<int> errors{0}, over_limit{0};
    std::latch start(2);
    auto scan = [&](Node& node, std::vector<std::string>& got) {
        start.arrive_and_wait();
        for (;;) {
            auto r = node.fleet.claim_expired(7);
            if (!r.ok()) {
                ++errors;
                return;
            }
            if (r->size() > 7) ++over_limit;
            if (r->empty()) return;
            got.insert(got.end(), r->begin(), r->end());
        }
    };
    std::thread ta(scan, std::ref(a), std::ref(got_a));
    std::thread tb(scan, std::ref(b), std::ref(got_b));
    ta.join();
    tb.join();

    CHECK(errors == 0);
    CHECK(over_limit == 0);
    std::set<std::string> set_a(got_a.begin(), got_a.end()), set_b(got_b.begin(), got_b.end());
    CHECK(set_a.size() == got_a.size());
    CHECK(set_b.size() == got_b.size());
    std::vector<std::string> both;
    std::set_intersection(set_a.begin(), set_a.end(), set_b.begin(), set_b.end(),
                          std::back_inserter(both));
    CHECK(both.empty());
    CHECK(got_a.size() + got_b.size() == total);
    CHECK(set_a.count("held") + set_b.count("held") == 0);
    // The database agrees with what each was told.
    CHECK(s.scalar("SELECT count(*) FROM matches WHERE owner_node = 'A'") ==
          std::to_string(got_a.size()));
    CHECK(s.scalar("SELECT count(*) FROM matches WHERE owner_node = 'B'") ==
          std::to_string(got_b.size()));
    CHECK(s.scalar("SELECT count(*) FROM matches WHERE lease_until > now() + interval '9 s'") ==
          std::to_string(total + 1));
}

TEST_CASE("claim_expired skips a row another transaction holds instead of waiting for it",
          "[fleet]") {
    TestSchema s;
    for (auto id : {"m1", "m2", "m3"}) store_test::add_match(s, id, "pa", "pb");
    Node a(s, "A");
    pqxx::connection other(s.url());
    pqxx::work hold(other);
    hold.exec("SELECT 1 FROM matches WHERE id = 'm2' FOR UPDATE");

    const auto started = std::chrono::steady_clock::now();
    auto r = a.fleet.claim_expired(10);
    const auto took = std::chrono::steady_clock::now() - started;
    REQUIRE(r.ok());
    std::set<std::string> got(r->begin(), r->end());
    CHECK(got == std::set<std::string>{"m1", "m3"});
    CHECK(took < 1s);

    hold.abort();
    r = a.fleet.claim_expired(10);
    REQUIRE(r.ok());
    CHECK(*r == std::vector<std::string>{"m2"});
    r = a.fleet.claim_expired(10);
    REQUIRE(r.ok());
    CHECK(r->empty());
}

TEST_CASE("release lets another node claim at once", "[fleet]") {
    TestSchema s;
    for (auto id : {"m1", "m2"}) store_test::add_match(s, id, "pa", "pb");
    Node a(s, "A"), b(s, "B");
    REQUIRE(*a.fleet.claim("m1") == Claim::Claimed);
    REQUIRE(*a.fleet.claim("m2") == Claim::Claimed);
    REQUIRE(*b.fleet.claim("m1") == Claim::OwnedElsewhere);

    REQUIRE(a.fleet.release({"m1", "m2"}).ok());
    auto owner = b.fleet.owner_of("m1");
    REQUIRE(owner.ok());
    CHECK(owner->owner == "A");  // until a claim
    CHECK_FALSE(owner->lease_valid);

    CHECK(*b.fleet.claim("m1") == Claim::Claimed);
    auto scanned = b.fleet.claim_expired(10);
    REQUIRE(scanned.ok());
    CHECK(*scanned == std::vector<std::string>{"m2"});

    // Releasing what another node owns changes nothing.
    REQUIRE(a.fleet.release({"m1"}).ok());
    owner = a.fleet.owner_of("m1");
    REQUIRE(owner.ok());
    CHECK(owner->owner == "B");
    CHECK(owner->lease_valid);
}

TEST_CASE(
    "leadership: one of two nodes leads; the other takes over when the leader's session ends "
    "or it resigns",
    "[fleet][leader]") {
    TestSchema s;
    Node a(s, "A"), b(s, "B");
    CHECK_FALSE(a.fleet.leading());
    REQUIRE(a.fleet.try_lead());
    CHECK_FALSE(b.fleet.try_lead());
    CHECK(a.fleet.leading());
    CHECK_FALSE(b.fleet.leading());
    CHECK(a.fleet.try_lead());  // already
    CHECK_FALSE(b.fleet.try_lead());

    // The leader's session dies (as when its node is killed): the lock is free.
    CHECK(terminate(s, a.app, true) == 1);
    CHECK_FALSE(a.fleet.leading());
    CHECK(eventually([&] { return b.fleet.try_lead(); }));
    CHECK(b.fleet.leading());
    CHECK_FALSE(a.fleet.try_lead());  // reconnected, and B holds it

    // A graceful hand-over: the next node may take the lock at once.
    b.fleet.resign_lead();
    CHECK_FALSE(b.fleet.leading());
    CHECK(a.fleet.try_lead());
    CHECK_FALSE(b.fleet.try_lead());

    // A FleetStore destroyed gives the lock up.
    {
        Node c(s, "C");
        a.fleet.resign_lead();
        REQUIRE(c.fleet.try_lead());
        CHECK_FALSE(a.fleet.try_lead());
    }
    CHECK(a.fleet.try_lead());
}

TEST_CASE("the leader's rooms: only the lock holder saves them; any node loads them",
          "[fleet][leader]") {
    TestSchema s;
    Node a(s, "A"), b(s, "B");
    auto none = b.fleet.load_rooms();
    REQUIRE(none.ok());
    CHECK(none->empty());
    REQUIRE(a.fleet.try_lead());
    CHECK_FALSE(b.fleet.save_rooms(R"({"version":1,"lobbies":[],"queue":[]})").ok());
    REQUIRE(a.fleet.save_rooms(R"({"version":1,"lobbies":[{"id":"l_a"}],"queue":[]})").ok());
    REQUIRE(a.fleet.save_rooms(R"({"version":1,"lobbies":[{"id":"l_b"}],"queue":[]})").ok());
    auto loaded = b.fleet.load_rooms();
    REQUIRE(loaded.ok());
    CHECK(nlohmann::json::parse(*loaded)["lobbies"][0]["id"] == "l_b");  // the last one
    CHECK(s.scalar("SELECT node FROM leader_rooms") == "A");

    // The leader's session dies: it cannot write over what its successor loads.
    CHECK(terminate(s, a.app, true) == 1);
    CHECK_FALSE(a.fleet.save_rooms(R"({"version":1,"lobbies":[],"queue":[]})").ok());
    CHECK(eventually([&] { return b.fleet.try_lead(); }));
    CHECK(nlohmann::json::parse(*b.fleet.load_rooms())["lobbies"][0]["id"] == "l_b");
    REQUIRE(b.fleet.save_rooms(R"({"version":1,"lobbies":[],"queue":[]})").ok());
    CHECK(s.scalar("SELECT node FROM leader_rooms") == "B");
}

TEST_CASE("fleets in different schemas have an authority each", "[fleet][leader]") {
    TestSchema s1, s2;
    Node a(s1, "A"), b(s2, "B");
    CHECK(a.fleet.try_lead());
    CHECK(b.fleet.try_lead());
}

TEST_CASE("a call past its statement deadline answers Unavailable and the next one works",
          "[fleet][deadline]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    Node a(s, "A", 10s, 200ms);
    REQUIRE(*a.fleet.claim("m1") == Claim::Claimed);

    pqxx::connection other(s.url());
    pqxx::work hold(other);
    hold.exec("SELECT 1 FROM matches WHERE id = 'm1' FOR UPDATE");

    auto started = std::chrono::steady_clock::now();
    auto c = a.fleet.claim("m1");
    auto took = std::chrono::steady_clock::now() - started;
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().kind == StoreError::Kind::Unavailable);
    CHECK(took >= 150ms);
    CHECK(took < 1500ms);

    started = std::chrono::steady_clock::now();
    auto r = a.fleet.renew({"m1"});
    took = std::chrono::steady_clock::now() - started;
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == StoreError::Kind::Unavailable);
    CHECK(took < 1500ms);

    // A read takes no row lock: it answers meanwhile.
    auto owner = a.fleet.owner_of("m1");
    REQUIRE(owner.ok());
    CHECK(owner->owner == "A");

    hold.abort();
    c = a.fleet.claim("m1");
    REQUIRE(c.ok());
    CHECK(*c == Claim::Claimed);
}

TEST_CASE("a broken call connection is remade by the next call", "[fleet]") {
    TestSchema s;
    Node a(s, "A");
    REQUIRE(a.fleet.heartbeat(0, 5s).ok());
    CHECK(terminate(s, a.app, false) == 1);
    // The call that finds the connection dead may fail; the one after it reconnects.
    int calls = 0;
    bool ok = false;
    while (!ok && calls < 3) {
        ++calls;
        ok = a.fleet.heartbeat(1, 5s).ok();
    }
    CHECK(ok);
    CHECK(calls <= 2);
    CHECK(s.scalar("SELECT matches FROM nodes WHERE id = 'A'") == "1");
}

TEST_CASE(
    "fencing: a fleet node's steps are stored only while it owns the match; a fenced step "
    "fails alone in its group",
    "[fleet][fence]") {
    TestSchema s;
    store_test::add_match(s, "m0", "pa", "pb");  // the players
    auto options = fleet_step_store(s, "A");
    options.window = 50ms;  // one group for the appends made together below
    PgStepStore store(options);
    Node b(s, "B");

    REQUIRE(create_and_wait(store, creation("m1")) == true);
    REQUIRE(create_and_wait(store, creation("m2", "B")) == true);  // made here for B
    REQUIRE(create_and_wait(store, creation("m3")) == true);
    CHECK(s.scalar("SELECT string_agg(owner_node, ',' ORDER BY id) FROM matches WHERE id <> "
                   "'m0'") == "A,B,A");
    CHECK(lease_left_ms(s, "m1") > 9000);
    CHECK(lease_left_ms(s, "m2") > 9000);

    REQUIRE(append_and_wait(store, step("m1", 1, "pa")) == true);
    REQUIRE(append_and_wait(store, step("m3", 1, "pa")) == true);
    expire(s, "m3");
    REQUIRE(*b.fleet.claim("m3") == Claim::Claimed);

    // One group: m1 is A's, m2 B's, m3 taken over by B.
    const auto before = store.stats().transactions;
    Answer one, two, three;
    store.append(step("m1", 2, "pb"), one.done());
    store.append(step("m2", 1, "pa"), two.done());
    store.append(step("m3", 2, "pb"), three.done());
    CHECK(one.get() == true);
    CHECK(two.get() == false);
    CHECK(three.get() == false);
    CHECK(store.stats().transactions == before + 1);  // no retry one record at a time
    CHECK(s.scalar("SELECT string_agg(match_id || '#' || number, ',' ORDER BY match_id, number) "
                   "FROM steps") == "m1#1,m1#2,m3#1");

    // A taken-over match's last step and its abort are fenced too; its own are not.
    auto last = step("m3", 2, "pb");
    last.finish = MatchFinish{};
    last.finish->result_json = "{}";
    CHECK(append_and_wait(store, last) == false);
    Answer aborted_m3, aborted_m1;
    store.abort("m3", store_test::now_ms(), aborted_m3.done());
    CHECK(aborted_m3.get() == false);
    CHECK(s.scalar("SELECT status FROM matches WHERE id = 'm3'") == "live");
    store.abort("m1", store_test::now_ms(), aborted_m1.done());
    CHECK(aborted_m1.get() == true);

    // Without a node nothing is fenced and nothing gets a lease.
    PgStepStore single(fleet_step_store(s, ""));
    REQUIRE(create_and_wait(single, creation("m4")) == true);
    CHECK(s.scalar("SELECT coalesce(owner_node, '-') || coalesce(lease_until::text, '-') FROM "
                   "matches WHERE id = 'm4'") == "--");
    CHECK(append_and_wait(single, step("m3", 2, "pb")) == true);
}

TEST_CASE("fencing: a claim waits for the old owner's step transaction in flight",
          "[fleet][fence]") {
    TestSchema s;
    store_test::add_match(s, "m0", "pa", "pb");
    // The writer under an application_name of its own, so the test sees its statement.
    const std::string app = store_test::unique_name("fence_");
    auto options = fleet_step_store(s, "A");
    options.url = store_test::with_schema(store_test::database_url(), s.name(), app);
    PgStepStore store(options);
    Node b(s, "B");
    REQUIRE(create_and_wait(store, creation("m1")) == true);
    REQUIRE(append_and_wait(store, step("m1", 1, "pa")) == true);
    expire(s, "m1");  // B may claim it at any moment now

    // Every step insert now takes a second, after the fence and before the commit.
    exec(s,
         "CREATE FUNCTION slow_step() RETURNS trigger LANGUAGE plpgsql AS "
         "$$ BEGIN PERFORM pg_sleep(1); RETURN NEW; END $$");
    exec(s, "CREATE TRIGGER slow BEFORE INSERT ON steps FOR EACH ROW EXECUTE FUNCTION slow_step()");

    Answer stored;
    std::atomic<bool> step_answered{false};
    store.append(step("m1", 2, "pb"), [&, done = stored.done()](bool ok) {
        step_answered = true;
        done(ok);
    });
    REQUIRE(eventually([&] {
        return s.scalar("SELECT count(*) FROM pg_stat_activity WHERE application_name = '" + app +
                        "' AND wait_event = 'PgSleep'") == "1";
    }));

    // The claim's UPDATE waits for the step's FOR SHARE on the match row, so it sees the step
    // committed; without the fence it would take the match under the step's feet.
    // The step's answer comes from the store's own thread after its commit, so it may follow
    // the claim's return by a moment (a busy machine showed it): "before" allows that moment,
    // far shorter than the second the step still had to sleep had the claim not waited.
    std::atomic<bool> answered_before_claim{false};
    auto claim = std::async(std::launch::async, [&] {
        auto c = b.fleet.claim("m1");
        answered_before_claim = eventually([&] { return step_answered.load(); }, 300ms);
        return c;
    });
    CHECK(claim.wait_for(300ms) == std::future_status::timeout);
    CHECK(stored.get() == true);
    REQUIRE(claim.wait_for(10s) == std::future_status::ready);
    auto c = claim.get();
    REQUIRE(c.ok());
    CHECK(*c == Claim::Claimed);
    CHECK(answered_before_claim);
    CHECK(s.scalar("SELECT count(*) FROM steps WHERE match_id = 'm1'") == "2");

    // And the old owner's next step, after the claim, is refused.
    exec(s, "DROP TRIGGER slow ON steps");
    CHECK(append_and_wait(store, step("m1", 3, "pa")) == false);
    CHECK(s.scalar("SELECT count(*) FROM steps WHERE match_id = 'm1'") == "2");
}

TEST_CASE("two nodes claiming the same expired matches at once: exactly one wins each", "[fleet]") {
    TestSchema s;
    constexpr int total = 40;
    exec(s,
         "INSERT INTO matches (id, game, settings, seed, owner_node, lease_until) "
         "SELECT 'x' || i, 'santorini', '{}', 1, 'dead', now() - interval '1 second' "
         "FROM generate_series(1, " +
             std::to_string(total) + ") AS i");
    Node a(s, "A"), b(s, "B");
    std::vector<int> claimed_a(total), claimed_b(total);  // 1 claimed, 0 elsewhere, -1 other
    std::latch start(2);
    auto race = [&](Node& node, std::vector<int>& claimed) {
        start.arrive_and_wait();
        for (int i = 0; i < total; ++i) {
            auto c = node.fleet.claim("x" + std::to_string(i + 1));
            claimed[i] = !c.ok()                       ? -1
                         : *c == Claim::Claimed        ? 1
                         : *c == Claim::OwnedElsewhere ? 0
                                                       : -1;
        }
    };
    std::thread ta(race, std::ref(a), std::ref(claimed_a));
    std::thread tb(race, std::ref(b), std::ref(claimed_b));
    ta.join();
    tb.join();
    int wins_a = 0;
    for (int i = 0; i < total; ++i) {
        CHECK(claimed_a[i] >= 0);
        CHECK(claimed_b[i] >= 0);
        CHECK(claimed_a[i] + claimed_b[i] == 1);
        wins_a += claimed_a[i];
    }
    CHECK(s.scalar("SELECT count(*) FROM matches WHERE owner_node = 'A'") ==
          std::to_string(wins_a));
}

TEST_CASE("without a database every call answers at once: Unavailable, not leading", "[fleet]") {
    store::FleetStoreOptions o;  // nothing listens on port 1
    o.url = "postgresql://postgres@127.0.0.1:1/santorini_test";
    o.node = "A";
    FleetStore fleet(o);
    const auto started = std::chrono::steady_clock::now();
    auto h = fleet.heartbeat(0, 5s);
    REQUIRE_FALSE(h.ok());
    CHECK(h.error().kind == StoreError::Kind::Unavailable);
    auto c = fleet.claim("m1");
    REQUIRE_FALSE(c.ok());
    CHECK(c.error().kind == StoreError::Kind::Unavailable);
    CHECK_FALSE(fleet.try_lead());
    CHECK_FALSE(fleet.leading());
    CHECK(std::chrono::steady_clock::now() - started < 2s);
}
