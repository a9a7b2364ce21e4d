// Repository: guests and tokens, matches and seats, recovery and replay loads, a player's
// matches by page, ratings, history and leaderboards.

#include "server/store/account_store.hpp"
#include "server/store/repository.hpp"

#include <catch2/catch_test_macros.hpp>
#include <future>
#include <set>

#include "server/store/pg_step_store.hpp"
#include "server/store/token_hash.hpp"
#include "test_database.hpp"

using namespace std::chrono_literals;
using store::NewMatch;
using store::NewPlayer;
using store::Repository;
using store::StoreError;
using store_test::TestSchema;

namespace {

NewMatch two_seat_match(const std::string& id, std::int64_t at_ms, const std::string& a = "pa",
                        const std::string& b = "pb") {
    NewMatch m;
    m.id = id;
    m.settings_json = R"({"players":2,"powers":"none","challenger":1})";
    m.seed = 0xfedcba9876543210ull;  // above INT64_MAX: stored as the same bits
    m.owner_node = "node-1";
    m.created_at_ms = at_ms;
    m.seats = {{0, a, "apollo", {}}, {1, b, "", 1}};
    return m;
}

void add_players(Repository& repo, std::initializer_list<const char*> ids) {
    for (auto id : ids)
        REQUIRE(
            repo.create_guest({id, std::string("name ") + id, std::string("token-") + id, 0}).ok());
}

bool append(store::PgStepStore& s, server::StepRecord r) {
    auto p = std::make_shared<std::promise<bool>>();
    auto f = p->get_future();
    s.append(std::move(r), [p](bool ok) { p->set_value(ok); });
    return f.get();
}

server::StepRecord step(const std::string& match, std::uint32_t n, const std::string& player) {
    server::StepRecord r;
    r.match_id = match;
    r.number = n;
    r.player_id = player;
    r.step_json = R"({"n":)" + std::to_string(n) + "}";
    r.at_ms = 1'700'000'000'000 + n;
    return r;
}

}  // namespace

TEST_CASE("a guest's token is stored only as its SHA-256, and finds the guest", "[repository]") {
    TestSchema s;
    Repository repo(s.url());
    const std::string token = "0123456789abcdef0123456789abcdef";
    auto made = repo.create_guest({"p_1", "Ariadne", token, 1'700'000'000'123});
    REQUIRE(made.ok());
    CHECK(made->id == "p_1");
    CHECK(made->display_name == "Ariadne");
    CHECK(made->created_at_ms == 1'700'000'000'123);

    CHECK(s.scalar("SELECT token_sha256 FROM players WHERE id = 'p_1'") == store::token_sha256(token));
    CHECK(store::token_sha256("abc") ==
          "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");  // FIPS 180-2
    CHECK(s.scalar("SELECT count(*) FROM players p WHERE strpos(row_to_json(p)::text, '" + token +
                   "') > 0") == "0");

    auto found = repo.player_by_token(token);
    REQUIRE(found.ok());
    CHECK(found->id == "p_1");
    auto wrong = repo.player_by_token("not the token");
    REQUIRE_FALSE(wrong.ok());
    CHECK(wrong.error().kind == StoreError::Kind::NotFound);
    CHECK(repo.player("p_1").ok());
    CHECK(repo.player("p_2").error().kind == StoreError::Kind::NotFound);

    CHECK(repo.create_guest({"p_1", "Other", "another token", 0}).error().kind ==
          StoreError::Kind::Conflict);
    CHECK(repo.create_guest({"p_3", "Same token", token, 0}).error().kind ==
          StoreError::Kind::Conflict);
    CHECK(repo.create_guest({"p_4", "", "t4", 0}).error().kind == StoreError::Kind::Invalid);
    CHECK(repo.create_guest({"p_5", std::string(65, 'x'), "t5", 0}).error().kind ==
          StoreError::Kind::Invalid);
    CHECK(s.scalar("SELECT count(*) FROM players WHERE id NOT LIKE 'c\\_%'") == "1");  // besides the computer players
}

TEST_CASE("a match is created with its seats and loads back with its steps in order",
          "[repository]") {
    TestSchema s;
    Repository repo(s.url());
    add_players(repo, {"pa", "pb"});
    REQUIRE(repo.create_match(two_seat_match("m1", 1'700'000'000'000)).ok());
    CHECK(repo.create_match(two_seat_match("m1", 0)).error().kind == StoreError::Kind::Conflict);
    auto unknown_player = repo.create_match(two_seat_match("m2", 0, "pa", "nobody"));
    CHECK(unknown_player.error().kind == StoreError::Kind::NotFound);
    CHECK(s.scalar("SELECT count(*) FROM matches") == "1");  // m2 rolled back whole
    auto bad_json = two_seat_match("m3", 0);
    bad_json.settings_json = "{not json";
    CHECK(repo.create_match(bad_json).error().kind == StoreError::Kind::Invalid);

    {
        store::PgStepStoreOptions o;
        o.url = s.url();
        o.window = 20ms;
        store::PgStepStore steps(o);
        // Out of order within one group: the load sorts by number.
        std::vector<std::future<bool>> answers;
        for (std::uint32_t n : {3u, 1u, 2u}) {
            auto p = std::make_shared<std::promise<bool>>();
            answers.push_back(p->get_future());
            steps.append(step("m1", n, n == 2 ? "pb" : "pa"), [p](bool ok) { p->set_value(ok); });
        }
        for (auto& a : answers) REQUIRE(a.get());
    }

    auto m = repo.match("m1");
    REQUIRE(m.ok());
    CHECK(m->game == "santorini");
    CHECK(m->seed == 0xfedcba9876543210ull);
    CHECK(m->status == "live");
    CHECK(m->owner_node == "node-1");
    CHECK(m->created_at_ms == 1'700'000'000'000);
    CHECK(m->started_at_ms == 1'700'000'000'000);
    CHECK(m->finished_at_ms == 0);
    CHECK(m->result_json.empty());
    CHECK(m->settings_json.find("\"challenger\": 1") != std::string::npos);
    REQUIRE(m->seats.size() == 2);
    CHECK(m->seats[0].player_id == "pa");
    CHECK(m->seats[0].display_name == "name pa");
    CHECK(m->seats[0].power == "apollo");
    CHECK_FALSE(m->seats[0].team.has_value());
    CHECK(m->seats[1].power.empty());
    CHECK(m->seats[1].team == 1);
    REQUIRE(m->steps.size() == 3);
    for (std::uint32_t i = 0; i < 3; ++i) {
        CHECK(m->steps[i].number == i + 1);
        CHECK(m->steps[i].step_json == R"({"n": )" + std::to_string(i + 1) + "}");
        CHECK(m->steps[i].at_ms == 1'700'000'000'000 + i + 1);
    }
    CHECK(m->steps[1].player_id == "pb");
    CHECK(repo.match("m_none").error().kind == StoreError::Kind::NotFound);
}

TEST_CASE("live matches load for recovery with their steps; ended ones do not", "[repository]") {
    TestSchema s;
    Repository repo(s.url());
    add_players(repo, {"pa", "pb", "pc"});
    REQUIRE(repo.create_match(two_seat_match("m_old", 1000)).ok());
    REQUIRE(repo.create_match(two_seat_match("m_new", 2000, "pc", "pa")).ok());
    auto other_node = two_seat_match("m_elsewhere", 3000);
    other_node.owner_node = "node-2";
    REQUIRE(repo.create_match(other_node).ok());
    REQUIRE(repo.create_match(two_seat_match("m_done", 500)).ok());
    {
        store::PgStepStoreOptions o;
        o.url = s.url();
        store::PgStepStore steps(o);
        for (std::uint32_t n = 1; n <= 4; ++n) REQUIRE(append(steps, step("m_old", n, "pa")));
        REQUIRE(append(steps, step("m_new", 1, "pc")));
        REQUIRE(append(steps, step("m_done", 1, "pa")));
    }
    REQUIRE(repo.end_match("m_done", "finished", R"({"winners":[0]})", 9000).ok());
    CHECK(repo.end_match("m_done", "finished", "{}", 9000).error().kind ==
          StoreError::Kind::NotFound);
    CHECK(repo.end_match("m_old", "won", "{}", 9000).error().kind == StoreError::Kind::Invalid);

    auto live = repo.live_matches("node-1");
    REQUIRE(live.ok());
    REQUIRE(live->size() == 2);
    CHECK((*live)[0].id == "m_old");
    CHECK((*live)[0].steps.size() == 4);
    CHECK((*live)[0].steps.back().number == 4);
    CHECK((*live)[1].id == "m_new");
    CHECK((*live)[1].seats[0].player_id == "pc");
    CHECK((*live)[1].steps.size() == 1);
    auto all = repo.live_matches();
    REQUIRE(all.ok());
    CHECK(all->size() == 3);

    auto done = repo.match("m_done");
    REQUIRE(done.ok());
    CHECK(done->status == "finished");
    CHECK(done->finished_at_ms == 9000);
    CHECK(done->result_json == R"({"winners": [0]})");
}

TEST_CASE("live matches come a page at a time from one snapshot, oldest first", "[repository]") {
    TestSchema s;
    Repository repo(s.url());
    add_players(repo, {"pa", "pb"});
    for (int i = 0; i < 5; ++i)
        REQUIRE(repo.create_match(two_seat_match("m" + std::to_string(i), 1000 + i)).ok());
    {
        store::PgStepStoreOptions o;
        o.url = s.url();
        store::PgStepStore steps(o);
        for (int i = 0; i < 5; ++i)
            for (std::uint32_t n = 1; n <= static_cast<std::uint32_t>(i); ++n)
                REQUIRE(append(steps, step("m" + std::to_string(i), n, "pa")));
    }
    std::vector<std::size_t> sizes;
    std::vector<std::string> seen;
    bool ended_meanwhile = false;
    auto read = repo.live_matches_paged(2, [&](std::vector<store::StoredMatch>&& page) {
        sizes.push_back(page.size());
        for (const auto& m : page) {
            seen.push_back(m.id);
            CHECK(m.seats.size() == 2);
            CHECK(m.steps.size() == static_cast<std::size_t>(m.id.back() - '0'));
        }
        // A match that ends after the first page is still read as the snapshot saw it.
        if (!ended_meanwhile) ended_meanwhile = repo.end_match("m4", "aborted", "null", 9000).ok();
    });
    REQUIRE(read.ok());
    CHECK(*read == 5);
    CHECK(ended_meanwhile);
    CHECK(sizes == std::vector<std::size_t>{2, 2, 1});
    CHECK(seen == std::vector<std::string>{"m0", "m1", "m2", "m3", "m4"});
    CHECK(repo.live_matches()->size() == 4);
    CHECK(repo.live_matches_paged(0, [](std::vector<store::StoredMatch>&&) {}).error().kind ==
          StoreError::Kind::Invalid);
}

TEST_CASE("a player's matches come newest first, a page at a time", "[repository]") {
    TestSchema s;
    Repository repo(s.url());
    add_players(repo, {"pa", "pb", "pc"});
    // Two share a time: the id breaks the tie, and no page repeats or skips one.
    for (auto [id, at] : std::vector<std::pair<std::string, std::int64_t>>{
             {"m1", 1000}, {"m2", 2000}, {"m3", 3000}, {"m4", 3000}, {"m5", 5000}})
        REQUIRE(repo.create_match(two_seat_match(id, at)).ok());
    REQUIRE(repo.create_match(two_seat_match("m_other", 4000, "pb", "pc")).ok());

    std::vector<std::string> seen;
    std::optional<store::MatchCursor> cursor;
    int pages = 0;
    do {
        auto page = repo.player_matches("pa", cursor, 2);
        REQUIRE(page.ok());
        for (const auto& m : page->matches) {
            seen.push_back(m.id);
            CHECK(m.seats.size() == 2);
            CHECK(m.steps.empty());
        }
        cursor = page->next;
        REQUIRE(++pages <= 4);
    } while (cursor);
    CHECK(seen == std::vector<std::string>{"m5", "m4", "m3", "m2", "m1"});
    CHECK(pages == 3);  // no empty page at the end: `next` only when another page follows
    auto exact = repo.player_matches("pa", {}, 5);
    REQUIRE(exact.ok());
    CHECK(exact->matches.size() == 5);
    CHECK_FALSE(exact->next);
    CHECK(exact->matches.front().step_count == 0);
    CHECK(repo.player_matches("pa", {}, 0).error().kind == StoreError::Kind::Invalid);
    CHECK(repo.player_matches("nobody", {}, 10)->matches.empty());
}

TEST_CASE("ratings, rating history and leaderboards read what finished matches wrote",
          "[repository]") {
    TestSchema s;
    Repository repo(s.url());
    add_players(repo, {"pa", "pb", "pc"});
    store::PgStepStoreOptions o;
    o.url = s.url();
    store::PgStepStore steps(o);
    // Each match: seat 0 gains 20, seat 1 loses 20 (a stand-in for Glicko-2).
    auto play = [&](const std::string& id, const std::string& winner, const std::string& loser,
                    std::int64_t at) {
        REQUIRE(repo.create_match(two_seat_match(id, at, winner, loser)).ok());
        auto last = step(id, 1, winner);
        last.at_ms = at;
        last.finish = server::MatchFinish{};
        last.finish->result_json = R"({"winners":[0]})";
        last.finish->pool = "santorini";
        last.finish->rate = [](const std::vector<server::RatingValue>& before, std::int64_t now) {
            auto after = before;
            for (std::size_t i = 0; i < after.size(); ++i) {
                if (!after[i].rated) after[i] = {true, 1500, 350, 0.06, 0, 0};
                after[i].rating += i == 0 ? 20 : -20;
                after[i].games += 1;
                after[i].last_rated_at_ms = now;
            }
            return after;
        };
        REQUIRE(append(steps, last));
    };
    play("m1", "pa", "pb", 1000);
    play("m2", "pa", "pc", 2000);
    play("m3", "pb", "pc", 3000);

    auto ra = repo.ratings("pa");
    REQUIRE(ra.ok());
    REQUIRE(ra->size() == 1);
    CHECK((*ra)[0].pool == "santorini");
    CHECK((*ra)[0].value.rating == 1540);
    CHECK((*ra)[0].value.games == 2);
    CHECK((*ra)[0].value.last_rated_at_ms == 2000);
    CHECK(repo.ratings("nobody")->empty());

    auto history = repo.rating_history("pa", "santorini", 10);
    REQUIRE(history.ok());
    REQUIRE(history->size() == 2);
    CHECK((*history)[0].match_id == "m2");
    CHECK((*history)[0].rating == 1540);
    CHECK((*history)[1].match_id == "m1");
    auto older = repo.rating_history("pa", "santorini", 10, (*history)[0].id);
    REQUIRE(older.ok());
    REQUIRE(older->size() == 1);
    CHECK((*older)[0].match_id == "m1");

    // The leaderboard ranks accounts only (account_store_test.cpp leaves a guest out).
    store::AccountStore accounts(s.url());
    for (const char* id : {"pa", "pb", "pc"})
        REQUIRE(accounts.claim({id, std::string("user ") + id, std::string("user ") + id,
                                "$argon2id$stand-in", 0})
                    .ok());
    auto board = repo.leaderboard("santorini", 10);
    REQUIRE(board.ok());
    REQUIRE(board->size() == 3);
    CHECK((*board)[0].player_id == "pa");  // 1540
    CHECK((*board)[0].rank == 1);
    CHECK((*board)[0].display_name == "name pa");
    CHECK((*board)[1].player_id == "pb");  // 1500
    CHECK((*board)[2].player_id == "pc");  // 1460
    auto second_page = repo.leaderboard("santorini", 1, 1);
    REQUIRE(second_page->size() == 1);
    CHECK((*second_page)[0].player_id == "pb");
    CHECK((*second_page)[0].rank == 2);
    CHECK(repo.leaderboard("santorini", 10, 0, 3)->empty());
    CHECK(repo.leaderboard("splendor", 10)->empty());
    CHECK(repo.leaderboard("santorini", 0).error().kind == StoreError::Kind::Invalid);
}

TEST_CASE("the repository answers Unavailable without a database", "[repository]") {
    store_test::database_url();
    Repository repo("postgresql://postgres@127.0.0.1:1/none?connect_timeout=2");
    auto r = repo.player("p_1");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().kind == StoreError::Kind::Unavailable);
}
