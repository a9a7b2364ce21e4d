// PgStepStore with several requests in one group: the one-statement INSERT and its one-query
// check of the records it did not insert, finishes of two matches sharing a player, and match
// creations and aborts in the same pipeline as the steps.

#include <catch2/catch_test_macros.hpp>
#include <future>
#include <memory>
#include <vector>

#include "server/store/pg_step_store.hpp"
#include "test_database.hpp"

using namespace std::chrono_literals;
using server::MatchCreation;
using server::MatchFinish;
using server::RatingValue;
using server::SeatCreation;
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

// A store whose window is wide enough that everything queued together lands in one group,
// and the answers of what was queued, in order.
struct Group {
    explicit Group(const std::string& url) : store(options(url)) {
        REQUIRE(store.wait_available(10s));
    }
    static PgStepStoreOptions options(const std::string& url) {
        PgStepStoreOptions o;
        o.url = url;
        o.window = 100ms;
        return o;
    }
    std::function<void(bool)> answer() {
        auto p = std::make_shared<std::promise<bool>>();
        futures.push_back(p->get_future());
        return [p](bool ok) { p->set_value(ok); };
    }
    void append(StepRecord r) { store.append(std::move(r), answer()); }
    void create(MatchCreation m) { store.create(std::move(m), answer()); }
    void abort(const std::string& id) { store.abort(id, store_test::now_ms(), answer()); }
    std::vector<bool> answers() {
        std::vector<bool> got;
        for (auto& f : futures) {
            REQUIRE(f.wait_for(10s) == std::future_status::ready);
            got.push_back(f.get());
        }
        futures.clear();
        return got;
    }

    PgStepStore store;
    std::vector<std::future<bool>> futures;
};

std::string count_steps(const TestSchema& s, const std::string& match) {
    return s.scalar("SELECT count(*) FROM steps WHERE match_id = '" + match + "'");
}

MatchCreation creation(const std::string& id, const std::string& a, const std::string& b) {
    MatchCreation m;
    m.id = id;
    m.settings_json = R"({"lobby":{"players":2}})";
    m.seed = 0xfedcba9876543210ULL;  // above INT64_MAX: stored as the same bits
    m.state_hash = "initial";
    m.created_at_ms = store_test::now_ms();
    m.seats = {SeatCreation{0, a, "apollo", {}}, SeatCreation{1, b, "", 1}};
    return m;
}

}  // namespace

TEST_CASE("a group with identical retries: every copy answers true, one row each",
          "[step_store][batch]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    Group g(s.url());
    g.append(step("m1", 1, "pa", R"({"to":"a1"})"));
    REQUIRE(g.answers() == std::vector<bool>{true});

    g.append(step("m1", 1, "pa", R"({ "to": "a1" })"));  // a retry of a stored step
    g.append(step("m1", 2, "pb", R"({"to":"b2"})"));
    g.append(step("m1", 2, "pb", R"({"to":"b2"})"));  // the same step twice in one group
    g.append(step("m1", 3, "pa", R"({"to":"c3"})"));
    CHECK(g.answers() == std::vector<bool>{true, true, true, true});
    CHECK(count_steps(s, "m1") == "3");
    CHECK(g.store.stats().transactions == 2);
}

TEST_CASE("a group with conflicting records: only those answer false, nothing is overwritten",
          "[step_store][batch]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    Group g(s.url());
    g.append(step("m1", 1, "pa", R"({"to":"a1"})"));
    REQUIRE(g.answers() == std::vector<bool>{true});

    g.append(step("m1", 1, "pb", R"({"to":"a1"})"));  // another player under a taken number
    g.append(step("m1", 2, "pb", R"({"to":"b2"})"));
    g.append(step("m1", 2, "pb", R"({"to":"e5"})"));  // another step under the group's own
    g.append(step("m1", 3, "pa", R"({"to":"c3"})"));
    CHECK(g.answers() == std::vector<bool>{false, true, false, true});
    CHECK(count_steps(s, "m1") == "3");
    CHECK(s.scalar("SELECT player_id FROM steps WHERE number = 1") == "pa");
    CHECK(s.scalar("SELECT step->>'to' FROM steps WHERE number = 2") == "b2");
}

TEST_CASE("two matches sharing a player finish in one group: neither rating update is lost",
          "[step_store][batch][finish]") {
    TestSchema s;
    store_test::add_match(s, "m1", "pa", "pb");
    store_test::add_match(s, "m2", "pa", "pc");
    std::vector<std::vector<RatingValue>> seen;
    auto last = [&](const std::string& match) {
        auto r = step(match, 1, "pa");
        r.finish = MatchFinish{};
        r.finish->result_json = R"({"winners":[0],"reason":"win"})";
        r.finish->pool = "santorini";
        r.finish->rate = [&](const std::vector<RatingValue>& before, std::int64_t) {
            seen.push_back(before);
            auto after = before;
            for (auto& v : after) {
                if (!v.rated) v = RatingValue{true, 1500, 350, 0.06, 0, 0};
                v.rating += 10;
                v.games += 1;
            }
            return after;
        };
        return r;
    };
    Group g(s.url());
    g.append(last("m1"));
    g.append(last("m2"));
    CHECK(g.answers() == std::vector<bool>{true, true});
    CHECK(g.store.stats().transactions == 1);
    REQUIRE(seen.size() == 2);
    // The second finish read pa's rating as the first had just written it.
    CHECK_FALSE(seen[0][0].rated);
    CHECK(seen[1][0].rated);
    CHECK(seen[1][0].games == 1);
    CHECK(s.scalar("SELECT rating || '/' || games FROM ratings WHERE player_id = 'pa'") ==
          "1520/2");
    CHECK(s.scalar("SELECT count(*) FROM rating_history WHERE player_id = 'pa'") == "2");
    CHECK(s.scalar("SELECT count(*) FROM matches WHERE status = 'finished'") == "2");
}

TEST_CASE("a match is created in the steps' pipeline; its first step may share its group",
          "[step_store][batch][create]") {
    TestSchema s;
    store_test::add_match(s, "m0", "pa", "pb");  // the players
    Group g(s.url());
    g.create(creation("m1", "pa", "pb"));
    g.append(step("m1", 1, "pa"));
    g.create(creation("m2", "pb", "pa"));
    CHECK(g.answers() == std::vector<bool>{true, true, true});
    CHECK(g.store.stats().transactions == 1);
    CHECK(count_steps(s, "m1") == "1");
    CHECK(s.scalar("SELECT status || ' ' || seed || ' ' || state_hash FROM matches WHERE id = "
                   "'m1'") == "live -81985529216486896 initial");
    CHECK(s.scalar("SELECT settings->'lobby'->>'players' FROM matches WHERE id = 'm1'") == "2");
    CHECK(s.scalar("SELECT created_at = started_at FROM matches WHERE id = 'm1'") == "t");
    CHECK(s.scalar("SELECT string_agg(player_id || ':' || coalesce(power, '-') || ':' || "
                   "coalesce(team::text, '-'), ' ' ORDER BY seat) FROM seats WHERE match_id = "
                   "'m1'") == "pa:apollo:- pb:-:1");

    SECTION("a taken id or an unknown player fails that creation alone") {
        g.create(creation("m1", "pa", "pb"));
        g.create(creation("m3", "pa", "nobody"));
        g.create(creation("m4", "pa", "pb"));
        g.append(step("m4", 1, "pb"));
        CHECK(g.answers() == std::vector<bool>{false, false, true, true});
        CHECK(s.scalar("SELECT count(*) FROM matches WHERE id = 'm3'") == "0");
        CHECK(s.scalar("SELECT count(*) FROM seats WHERE match_id = 'm3'") == "0");
        CHECK(count_steps(s, "m4") == "1");
    }
    SECTION("an abort ends a live match only, after the creation it follows") {
        g.create(creation("m5", "pa", "pb"));
        g.abort("m5");
        g.abort("m2");
        g.abort("no_such_match");
        CHECK(g.answers() == std::vector<bool>{true, true, true, false});
        CHECK(s.scalar("SELECT string_agg(id || ':' || status, ' ' ORDER BY id) FROM matches "
                       "WHERE finished_at IS NOT NULL") == "m2:aborted m5:aborted");
        g.abort("m5");  // already over
        CHECK(g.answers() == std::vector<bool>{false});
    }
}
