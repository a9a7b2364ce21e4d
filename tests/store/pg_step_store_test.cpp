// PgStepStore: group commit, acknowledgement only after commit, refusals, outages, recovery,
// and a match's finish committed with its last step.

#include "server/store/pg_step_store.hpp"

#include <atomic>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_floating_point.hpp>
#include <condition_variable>
#include <future>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "server/store/migrations.hpp"
#include "test_database.hpp"

using namespace std::chrono_literals;
using server::MatchFinish;
using server::RatingValue;
using server::StepRecord;
using store::PgStepStore;
using store::PgStepStoreOptions;
using store_test::TestSchema;

namespace {

StepRecord step(const std::string& match, std::uint32_t number, const std::string& player,
                const std::string& json = R"({"kind":"move","to":"c3"})") {
    StepRecord r;
    r.match_id = match;
    r.number = number;
    r.player_id = player;
    r.step_json = json;
    r.at_ms = store_test::now_ms();
    return r;
}

PgStepStoreOptions options_for(const std::string& url) {
    PgStepStoreOptions o;
    o.url = url;
    o.min_backoff = 20ms;
    o.max_backoff = 200ms;
    return o;
}

// Appends and waits for the answer (at most `limit`); nullopt if none came.
std::optional<bool> append_and_wait(PgStepStore& store, StepRecord r,
                                    std::chrono::milliseconds limit = 10s) {
    auto answer = std::make_shared<std::promise<bool>>();
    auto future = answer->get_future();
    store.append(std::move(r), [answer](bool ok) { answer->set_value(ok); });
    if (future.wait_for(limit) != std::future_status::ready) return std::nullopt;
    return future.get();
}

std::string count_steps(const TestSchema& s, const std::string& match) {
    return s.scalar("SELECT count(*) FROM steps WHERE match_id = '" + match + "'");
}

}  // namespace

TEST_CASE(
    "group commit: many appends from several threads share transactions, and each is "
    "acknowledged only once another connection sees its row",
    "[step_store]") {
    TestSchema s;
    constexpr int matches = 8, threads = 4, per_thread = 100;
    for (int m = 0; m < matches; ++m) store_test::add_match(s, "m" + std::to_string(m), "pa", "pb");

    pqxx::connection observer(s.url());
    std::mutex observer_mutex;
    std::atomic<int> acked{0}, refused{0}, invisible{0};
    std::mutex done_mutex;
    std::condition_variable all_done;
    int answered = 0;

    auto options = options_for(s.url());
    options.window = 2ms;  // wide, so grouping does not depend on the machine's speed
    {
        PgStepStore store(options);
        REQUIRE(store.wait_available(10s));
        std::vector<std::thread> writers;
        for (int t = 0; t < threads; ++t)
            writers.emplace_back([&, t] {
                // Thread t writes numbers t*1000+1, t*1000+2, ... of every match, in turn.
                for (int i = 0; i < per_thread; ++i) {
                    auto rec = step("m" + std::to_string(i % matches),
                                    static_cast<std::uint32_t>(t * 1000 + i / matches + 1), "pa");
                    const std::string id = rec.match_id;
                    const auto n = rec.number;
                    store.append(std::move(rec), [&, id, n](bool ok) {
                        if (ok) {
                            ++acked;
                            std::lock_guard lock(observer_mutex);
                            pqxx::nontransaction q(observer);
                            auto r = q.exec_params(
                                "SELECT 1 FROM steps WHERE match_id = $1 AND number = $2", id, n);
                            if (r.empty()) ++invisible;
                        } else {
                            ++refused;
                        }
                        std::lock_guard lock(done_mutex);
                        if (++answered == threads * per_thread) all_done.notify_all();
                    });
                }
            });
        for (auto& w : writers) w.join();
        std::unique_lock lock(done_mutex);
        REQUIRE(all_done.wait_for(lock, 60s, [&] { return answered == threads * per_thread; }));
        const auto stats = store.stats();
        CHECK(stats.stored == threads * per_thread);
        CHECK(stats.transactions < stats.stored / 4);  // really grouped, not one per step
        CHECK(stats.transactions >= 1);
    }
    CHECK(acked == threads * per_thread);
    CHECK(refused == 0);
    CHECK(invisible == 0);
    CHECK(s.scalar("SELECT count(*) FROM steps") == std::to_string(threads * per_thread));
}

TEST_CASE("a second step under a taken number is refused; the identical retry is accepted",
          "[step_store]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    PgStepStore store(options_for(s.url()));
    CHECK(append_and_wait(store, step("m1", 1, "pa", R"({"to":"a1"})")) == true);
    CHECK(append_and_wait(store, step("m1", 1, "pb", R"({"to":"b2"})")) == false);
    CHECK(append_and_wait(store, step("m1", 1, "pa", R"({"to":"b2"})")) == false);
    // A retry after an uncertain failure: same player, same step (JSON spacing aside).
    CHECK(append_and_wait(store, step("m1", 1, "pa", R"({ "to" : "a1" })")) == true);
    CHECK(count_steps(s, "m1") == "1");
    CHECK(s.scalar("SELECT step->>'to' FROM steps WHERE match_id = 'm1'") == "a1");
}

TEST_CASE("a bad record fails alone; the others grouped with it are stored", "[step_store]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    auto options = options_for(s.url());
    options.window = 50ms;  // all four land in one group
    PgStepStore store(options);
    REQUIRE(store.wait_available(10s));
    std::vector<std::future<bool>> answers;
    auto add = [&](StepRecord r) {
        auto p = std::make_shared<std::promise<bool>>();
        answers.push_back(p->get_future());
        store.append(std::move(r), [p](bool ok) { p->set_value(ok); });
    };
    add(step("m1", 1, "pa"));
    add(step("no_such_match", 1, "pa"));   // foreign key: spoils the group's INSERT
    add(step("m1", 2, "no_such_player"));  // foreign key too
    add(step("m1", 3, "pb"));
    std::vector<bool> got;
    for (auto& a : answers) got.push_back(a.get());
    CHECK(got == std::vector<bool>{true, false, false, true});
    CHECK(count_steps(s, "m1") == "2");
}

TEST_CASE("a server step (no player) is stored with a NULL player", "[step_store]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    PgStepStore store(options_for(s.url()));
    auto r = step("m1", 1, "", R"({"kind":"timeout","seat":0})");
    r.state_hash = "abc123";
    CHECK(append_and_wait(store, r) == true);
    CHECK(s.scalar("SELECT player_id FROM steps") == "NULL");
    CHECK(s.scalar("SELECT state_hash FROM steps") == "abc123");
}

TEST_CASE("without a database, appends fail quickly and nothing is acknowledged", "[step_store]") {
    store_test::database_url();
    PgStepStore store(options_for("postgresql://postgres@127.0.0.1:1/none?connect_timeout=2"));
    const auto start = std::chrono::steady_clock::now();
    for (std::uint32_t n = 1; n <= 20; ++n)
        CHECK(append_and_wait(store, step("m1", n, "pa"), 3s) == false);
    CHECK(std::chrono::steady_clock::now() - start < 3s);
    CHECK_FALSE(store.available());
    CHECK(store.stats().stored == 0);
    CHECK(store.stats().failed == 20);
}

TEST_CASE(
    "when the database goes away, appends fail at once; when it returns, the store "
    "reconnects by itself",
    "[step_store]") {
    // A database of its own: the test refuses all connections to it for a while.
    const std::string base = store_test::database_url();
    const std::string db = store_test::unique_name("outage_");
    pqxx::connection admin(base);
    {
        pqxx::nontransaction n(admin);
        n.exec("CREATE DATABASE " + n.quote_name(db));
    }
    struct Drop {
        pqxx::connection& admin;
        std::string db;
        ~Drop() {
            try {
                pqxx::nontransaction n(admin);
                n.exec("DROP DATABASE IF EXISTS " + n.quote_name(db) + " WITH (FORCE)");
            } catch (...) {
            }
        }
    } drop{admin, db};
    auto set_allowed = [&](bool allowed) {
        pqxx::nontransaction n(admin);
        n.exec("ALTER DATABASE " + n.quote_name(db) + " ALLOW_CONNECTIONS " +
               (allowed ? "true" : "false"));
        if (!allowed)
            n.exec_params(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1", db);
    };
    // The same cluster, another database: replace the path of the URL.
    std::string url = base.substr(0, base.rfind('/') + 1) + db;
    {
        auto migrated = store::migrate(url, "migrations");
        REQUIRE(migrated.ok());
        pqxx::connection c(url);
        pqxx::work w(c);
        w.exec(
            "INSERT INTO players (id, display_name, token_sha256) VALUES ('pa', 'a', "
            "repeat('0', 64))");
        w.exec(
            "INSERT INTO matches (id, game, settings, seed) VALUES ('m1', 'santorini', '{}', 1)");
        w.exec(
            "INSERT INTO seats (match_id, seat, player_id, created_at) VALUES ('m1', 0, 'pa', "
            "now())");
        w.commit();
    }
    PgStepStore store(options_for(url));
    std::uint32_t next = 1;
    std::vector<std::uint32_t> acknowledged;
    for (; next <= 3; ++next) {
        REQUIRE(append_and_wait(store, step("m1", next, "pa")) == true);
        acknowledged.push_back(next);
    }

    set_allowed(false);
    // The writer learns of it on its next commit; from then on answers come at once.
    const auto start = std::chrono::steady_clock::now();
    int failures = 0;
    for (int i = 0; i < 10; ++i, ++next) {
        auto answer = append_and_wait(store, step("m1", next, "pa"), 3s);
        REQUIRE(answer.has_value());
        if (*answer)
            acknowledged.push_back(next);
        else
            ++failures;
    }
    CHECK(failures == 10);
    CHECK(std::chrono::steady_clock::now() - start < 3s);
    CHECK_FALSE(store.available());

    set_allowed(true);
    REQUIRE(store.wait_available(10s));
    REQUIRE(append_and_wait(store, step("m1", next, "pa")) == true);
    acknowledged.push_back(next);
    CHECK(store.stats().connects >= 2);

    // Exactly the acknowledged steps are stored.
    pqxx::connection c(url);
    pqxx::nontransaction q(c);
    std::vector<std::uint32_t> stored;
    for (const auto& r : q.exec("SELECT number FROM steps WHERE match_id = 'm1' ORDER BY number"))
        stored.push_back(r[0].as<std::uint32_t>());
    CHECK(stored == acknowledged);
}

TEST_CASE("a match's last step, its result and its rating update commit together",
          "[step_store][finish]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    {
        pqxx::connection c(s.url());
        pqxx::work w(c);
        w.exec(
            "INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games) "
            "VALUES ('pa', 'santorini', 1600, 100, 0.06, 12)");
        w.commit();
    }
    PgStepStore store(options_for(s.url()));
    REQUIRE(append_and_wait(store, step("m1", 1, "pa")) == true);

    std::vector<RatingValue> seen;
    auto last = step("m1", 2, "pb");
    last.finish = MatchFinish{};
    last.finish->result_json = R"({"winners":[1],"reason":"win"})";
    last.finish->state_hash = "final";
    last.finish->pool = "santorini";
    last.finish->rate = [&](const std::vector<RatingValue>& before, std::int64_t) {
        seen = before;
        auto after = before;
        for (auto& r : after) {
            if (!r.rated) r = RatingValue{true, 1500, 350, 0.06, 0, 0};
            r.rating += 10;
            r.games += 1;
        }
        return after;
    };

    SECTION("success: everything is there") {
        REQUIRE(append_and_wait(store, last) == true);
        REQUIRE(seen.size() == 2);
        CHECK(seen[0].rated);
        CHECK(seen[0].rating == 1600);
        CHECK(seen[0].games == 12);
        CHECK_FALSE(seen[1].rated);
        CHECK(s.scalar("SELECT status FROM matches") == "finished");
        CHECK(s.scalar("SELECT result->>'reason' FROM matches") == "win");
        CHECK(s.scalar("SELECT state_hash FROM matches") == "final");
        CHECK(s.scalar("SELECT finished_at IS NOT NULL FROM matches") == "t");
        CHECK(count_steps(s, "m1") == "2");
        CHECK(s.scalar("SELECT rating FROM ratings WHERE player_id = 'pa'") == "1610");
        CHECK(s.scalar("SELECT games FROM ratings WHERE player_id = 'pb'") == "1");
        CHECK(s.scalar("SELECT rating_before || '/' || rating_after FROM seats WHERE seat = 0") ==
              "1600/1610");
        CHECK(s.scalar("SELECT rating_before IS NULL FROM seats WHERE seat = 1") == "t");
        CHECK(s.scalar("SELECT count(*) FROM rating_history WHERE match_id = 'm1'") == "2");

        // A retry of the identical last step changes nothing and rates nobody twice.
        seen.clear();
        CHECK(append_and_wait(store, last) == true);
        CHECK(seen.empty());
        CHECK(s.scalar("SELECT rating FROM ratings WHERE player_id = 'pa'") == "1610");
    }
    SECTION("a failing rating update stores none of it, not even the step") {
        last.finish->rate = [](const std::vector<RatingValue>&,
                               std::int64_t) -> std::vector<RatingValue> {
            throw std::runtime_error("no");
        };
        CHECK(append_and_wait(store, last) == false);
        CHECK(count_steps(s, "m1") == "1");
        CHECK(s.scalar("SELECT status FROM matches") == "live");
        CHECK(s.scalar("SELECT count(*) FROM rating_history") == "0");
        CHECK(s.scalar("SELECT rating FROM ratings WHERE player_id = 'pa'") == "1600");
    }
    SECTION("a rating update of the wrong size stores none of it") {
        last.finish->rate = [](const std::vector<RatingValue>& before, std::int64_t) {
            return std::vector<RatingValue>(before.begin(), before.begin() + 1);
        };
        CHECK(append_and_wait(store, last) == false);
        CHECK(count_steps(s, "m1") == "1");
        CHECK(s.scalar("SELECT status FROM matches") == "live");
    }
    SECTION("a last step refused for its number finishes nothing") {
        last.number = 1;  // taken by another step
        CHECK(append_and_wait(store, last) == false);
        CHECK(s.scalar("SELECT status FROM matches") == "live");
        CHECK(s.scalar("SELECT count(*) FROM rating_history") == "0");
    }
}

TEST_CASE("an unrated match finishes with its last step and touches no rating",
          "[step_store][finish]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    PgStepStore store(options_for(s.url()));
    auto last = step("m1", 1, "pa", R"({"kind":"resign","seat":0})");
    last.finish = MatchFinish{};
    last.finish->status = "aborted";
    last.finish->result_json = "null";
    CHECK(append_and_wait(store, last) == true);
    CHECK(s.scalar("SELECT status FROM matches") == "aborted");
    CHECK(s.scalar("SELECT result IS NULL OR result = 'null'::jsonb FROM matches") == "t");
    CHECK(s.scalar("SELECT count(*) FROM ratings") == "0");
}

TEST_CASE("the destructor stores what is queued before it returns", "[step_store]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    std::atomic<int> acked{0};
    {
        auto options = options_for(s.url());
        options.window = 100ms;
        PgStepStore store(options);
        REQUIRE(store.wait_available(10s));
        for (std::uint32_t n = 1; n <= 5; ++n)
            store.append(step("m1", n, "pa"), [&](bool ok) { acked += ok; });
    }
    CHECK(acked == 5);
    CHECK(count_steps(s, "m1") == "5");
}
