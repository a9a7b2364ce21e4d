// Accounts and sessions in PostgreSQL (server/store/account_store.hpp), the tokens Repository
// accepts (a guest's own, an account's sessions, never a revoked one), the anti-farming cap
// applied in the rating update of a match's last step, and the leaderboard of accounts only.

#include "server/store/account_store.hpp"

#include <catch2/catch_test_macros.hpp>
#include <future>
#include <memory>
#include <string>

#include "server/rating/farming.hpp"
#include "server/store/pg_step_store.hpp"
#include "server/store/repository.hpp"
#include "server/store/token_hash.hpp"
#include "test_database.hpp"

using store::AccountStore;
using store::Claim;
using store::Repository;
using store::StoreError;
using store_test::TestSchema;

namespace {

constexpr std::int64_t day_ms = 24LL * 60 * 60 * 1000;
constexpr std::int64_t t0 = 1'800'000'000'000;

void add_guests(Repository& repo, std::initializer_list<const char*> ids) {
    for (auto id : ids)
        REQUIRE(repo.create_guest({id, std::string("name ") + id, std::string("token-") + id, 0})
                    .ok());
}

store::NewAccount account_of(const std::string& id, const std::string& username) {
    std::string key = username;
    for (char& c : key) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return {id, username, key, "$argon2id$v=19$stand-in-for-" + id, t0};
}

bool append_step(store::PgStepStore& s, server::StepRecord r) {
    auto p = std::make_shared<std::promise<bool>>();
    auto f = p->get_future();
    s.append(std::move(r), [p](bool ok) { p->set_value(ok); });
    return f.get();
}

// A finished 2-player match in `pool` at `at_ms`: seat 0 (`winner`) gains 10, seat 1 loses 10.
void finish_match(Repository& repo, store::PgStepStore& steps, const std::string& id,
                  const std::string& winner, const std::string& loser, std::int64_t at_ms,
                  const std::string& pool = "santorini") {
    store::NewMatch m;
    m.id = id;
    m.game = "santorini";
    m.settings_json = R"({"players":2})";
    m.created_at_ms = at_ms;
    m.seats = {{0, winner, "", {}}, {1, loser, "", {}}};
    REQUIRE(repo.create_match(m).ok());
    server::StepRecord r;
    r.match_id = id;
    r.number = 1;
    r.player_id = winner;
    r.step_json = R"({"n":1})";
    r.at_ms = at_ms;
    r.finish = server::MatchFinish{};
    r.finish->result_json = R"({"winners":[0],"reason":"win"})";
    r.finish->pool = pool;
    r.finish->rate = [](const std::vector<server::RatingValue>& before, std::int64_t now) {
        auto after = before;
        for (std::size_t i = 0; i < after.size(); ++i) {
            if (!after[i].rated) after[i] = {true, 1500, 350, 0.06, 0, 0};
            after[i].rating += i == 0 ? 10 : -10;
            after[i].games += 1;
            after[i].last_rated_at_ms = now;
        }
        return after;
    };
    REQUIRE(append_step(steps, std::move(r)));
}

}  // namespace

TEST_CASE("accounts: a guest claims a username once; the username is unique by key",
          "[accounts]") {
    TestSchema s;
    Repository repo(s.url());
    AccountStore accounts(s.url());
    add_guests(repo, {"pa", "pb"});

    auto claimed = accounts.claim(account_of("pa", "Alice"));
    REQUIRE(claimed.ok());
    CHECK(*claimed == Claim::Claimed);
    CHECK(*accounts.claim(account_of("pb", "ALICE")) == Claim::UsernameTaken);
    CHECK(*accounts.claim(account_of("pa", "Alice2")) == Claim::AlreadyClaimed);
    CHECK(accounts.claim(account_of("nobody", "Nobody")).error().kind == StoreError::Kind::NotFound);
    // A hash that is not libsodium's Argon2id string is refused by the schema.
    auto bad = account_of("pb", "Bob");
    bad.password_hash = "plain text";
    CHECK_FALSE(accounts.claim(bad).ok());
    CHECK(s.scalar("SELECT count(*) FROM accounts") == "1");

    auto found = accounts.by_username("alice");
    REQUIRE(found.ok());
    CHECK(found->player_id == "pa");
    CHECK(found->username == "Alice");
    CHECK(found->display_name == "name pa");
    CHECK(found->password_hash == "$argon2id$v=19$stand-in-for-pa");
    CHECK(accounts.by_username("Alice").error().kind == StoreError::Kind::NotFound);  // keys only
    CHECK(accounts.of_player("pa")->username == "Alice");
    CHECK(accounts.of_player("pb").error().kind == StoreError::Kind::NotFound);
}

TEST_CASE("accounts: sessions sign in, sign out and are revoked by a password change",
          "[accounts]") {
    TestSchema s;
    Repository repo(s.url());
    AccountStore accounts(s.url());
    add_guests(repo, {"pa", "pb"});
    REQUIRE(accounts.claim(account_of("pa", "Alice")).ok());

    // Two devices signed in, besides the guest token the player started with.
    REQUIRE(accounts.add_session("pa", "phone-token", t0, 50).ok());
    REQUIRE(accounts.add_session("pa", "laptop-token", t0, 50).ok());
    CHECK(accounts.add_session("pa", "phone-token", t0, 50).error().kind == StoreError::Kind::Conflict);
    for (const char* token : {"token-pa", "phone-token", "laptop-token"}) {
        auto p = repo.player_by_token(token);
        REQUIRE(p.ok());
        CHECK(p->id == "pa");
    }
    // Only hashes are stored.
    CHECK(s.scalar("SELECT count(*) FROM sessions WHERE token_sha256 LIKE '%token%'") == "0");

    // Sign-out revokes that device only; twice is a no-op.
    CHECK(*accounts.revoke("phone-token"));
    CHECK_FALSE(*accounts.revoke("phone-token"));
    CHECK(repo.player_by_token("phone-token").error().kind == StoreError::Kind::NotFound);
    CHECK(repo.player_by_token("laptop-token")->id == "pa");
    // The guest's own token can be signed out as well.
    REQUIRE(accounts.add_session("pa", "tablet-token", t0, 50).ok());
    CHECK(*accounts.revoke("token-pa"));
    CHECK(repo.player_by_token("token-pa").error().kind == StoreError::Kind::NotFound);
    CHECK(repo.player("pa").ok());  // the player stays

    // A password change keeps the caller's token and revokes every other one.
    REQUIRE(accounts.change_password("pa", "$argon2id$v=19$new", "laptop-token", t0 + 1).ok());
    CHECK(accounts.of_player("pa")->password_hash == "$argon2id$v=19$new");
    CHECK(repo.player_by_token("laptop-token")->id == "pa");
    CHECK(repo.player_by_token("tablet-token").error().kind == StoreError::Kind::NotFound);
    CHECK(accounts.change_password("pb", "$argon2id$x", "token-pb", t0).error().kind ==
          StoreError::Kind::NotFound);
    // Another player's tokens are untouched.
    CHECK(repo.player_by_token("token-pb")->id == "pb");
}

TEST_CASE("accounts: a sign-in beyond the sessions kept revokes the oldest", "[accounts]") {
    TestSchema s;
    Repository repo(s.url());
    AccountStore accounts(s.url());
    add_guests(repo, {"pa", "pb"});
    REQUIRE(accounts.claim(account_of("pa", "Alice")).ok());
    REQUIRE(accounts.claim(account_of("pb", "Bob")).ok());
    REQUIRE(accounts.add_session("pb", "bob-phone", t0, 3).ok());

    // Three kept: the first three sign-ins revoke nothing.
    for (int i = 0; i < 3; ++i) {
        auto added = accounts.add_session("pa", "device-" + std::to_string(i), t0 + i, 3);
        REQUIRE(added.ok());
        CHECK(added->empty());
    }
    // The fourth revokes the oldest, and names it by its hash only.
    auto fourth = accounts.add_session("pa", "device-3", t0 + 3, 3);
    REQUIRE(fourth.ok());
    REQUIRE(fourth->size() == 1);
    CHECK((*fourth)[0] == store::token_sha256("device-0"));
    CHECK(repo.player_by_token("device-0").error().kind == StoreError::Kind::NotFound);
    for (const char* kept : {"device-1", "device-2", "device-3", "token-pa"})
        CHECK(repo.player_by_token(kept)->id == "pa");
    CHECK(s.scalar("SELECT count(*) FROM sessions WHERE player_id = 'pa'") == "3");

    // A smaller cap trims to it at the next sign-in; the new session always stays, even when
    // it is no newer than the others; another player's sessions are untouched.
    auto trimmed = accounts.add_session("pa", "device-4", t0, 1);
    REQUIRE(trimmed.ok());
    CHECK(trimmed->size() == 3);
    CHECK(repo.player_by_token("device-4")->id == "pa");
    CHECK(s.scalar("SELECT count(*) FROM sessions WHERE player_id = 'pa'") == "1");
    CHECK(repo.player_by_token("bob-phone")->id == "pb");
}

TEST_CASE("accounts: the leaderboard lists accounts, never guests", "[accounts]") {
    TestSchema s;
    Repository repo(s.url());
    AccountStore accounts(s.url());
    store::PgStepStoreOptions o;
    o.url = s.url();
    store::PgStepStore steps(o);
    add_guests(repo, {"pa", "pb", "pc"});
    REQUIRE(accounts.claim(account_of("pa", "Alice")).ok());
    REQUIRE(accounts.claim(account_of("pc", "Carol")).ok());
    finish_match(repo, steps, "m1", "pb", "pa", t0);  // the guest wins
    finish_match(repo, steps, "m2", "pa", "pc", t0 + 1000);

    auto board = repo.leaderboard("santorini", 10);
    REQUIRE(board.ok());
    REQUIRE(board->size() == 2);
    CHECK((*board)[0].player_id == "pa");
    CHECK((*board)[0].rank == 1);
    CHECK((*board)[1].player_id == "pc");
    CHECK((*board)[1].rank == 2);
    // The guest is rated all the same: only the board leaves it out.
    CHECK(repo.ratings("pb")->size() == 1);
}

TEST_CASE("anti-farming: past 3 rated matches a day between two players, the match is unrated",
          "[accounts][farming]") {
    static_assert(rating::rated_matches_per_pair == 3);
    TestSchema s;
    Repository repo(s.url());
    store::PgStepStoreOptions o;
    o.url = s.url();
    store::PgStepStore steps(o);
    add_guests(repo, {"pa", "pb", "pc"});

    for (int i = 0; i < 5; ++i)
        finish_match(repo, steps, "m" + std::to_string(i), "pa", "pb", t0 + i * 60'000);
    for (int i = 0; i < 5; ++i) {
        INFO("match " << i);
        auto m = repo.match("m" + std::to_string(i));
        REQUIRE(m.ok());
        CHECK(m->status == "finished");  // played and stored either way
        const bool rated = i < 3;
        CHECK(m->seats[0].rating_after.has_value() == rated);
        CHECK(m->seats[1].rating_after.has_value() == rated);
        CHECK((m->result_json.find("farming_cap") != std::string::npos) == !rated);
    }
    CHECK(s.scalar("SELECT result->>'rated' FROM matches WHERE id = 'm3'") == "false");
    CHECK(s.scalar("SELECT result->>'reason' FROM matches WHERE id = 'm3'") == "win");
    CHECK(s.scalar("SELECT games FROM ratings WHERE player_id = 'pa'") == "3");
    CHECK(s.scalar("SELECT rating FROM ratings WHERE player_id = 'pa'") == "1530");

    // Other opponents and other pools are not capped.
    finish_match(repo, steps, "c1", "pa", "pc", t0 + 10 * 60'000);
    CHECK(repo.match("c1")->seats[0].rating_after.has_value());
    finish_match(repo, steps, "s1", "pa", "pb", t0 + 11 * 60'000, "splendor");
    CHECK(repo.match("s1")->seats[0].rating_after.has_value());

    // The window rolls: a day after the first three, the pair counts again.
    finish_match(repo, steps, "late", "pb", "pa", t0 + 2 * 60'000 + day_ms + 1);
    auto late = repo.match("late");
    REQUIRE(late.ok());
    CHECK(late->seats[0].rating_after.has_value());
    CHECK(s.scalar("SELECT games FROM ratings WHERE player_id = 'pb' AND pool = 'santorini'") ==
          "4");
}
