#include "server/store/account_store.hpp"

#include "server/store/pg.hpp"
#include "server/store/token_hash.hpp"

namespace store {

using Kind = StoreError::Kind;

namespace {

const std::string account_columns =
    "a.player_id, p.display_name, a.username, a.password_hash FROM accounts a "
    "JOIN players p ON p.id = a.player_id";

Account account_from(const pqxx::row& r) {
    return Account{r[0].as<std::string>(), r[1].as<std::string>(), r[2].as<std::string>(),
                   r[3].as<std::string>()};
}

}  // namespace

struct AccountStore::Impl {
    Impl(std::string url, std::size_t size) : pool(std::move(url), size) {}
    pg::ConnectionPool pool;

    template <class T, class F>
    Result<T> run(F&& f) {
        return pg::run<T>(pool, std::forward<F>(f));
    }
};

AccountStore::AccountStore(std::string url, std::size_t connections)
    : impl_(std::make_unique<Impl>(std::move(url), connections)) {}

AccountStore::~AccountStore() = default;

Result<Claim> AccountStore::claim(const NewAccount& a) {
    if (a.player_id.empty() || a.username.empty() || a.username_key.empty() ||
        a.password_hash.empty())
        return StoreError{Kind::Invalid, "an account needs a player, a username and a hash"};
    return impl_->run<Claim>([&](pqxx::connection& c) -> Result<Claim> {
        pqxx::work w(c);
        // The username's uniqueness is the index's; the player's, its primary key. Each
        // conflict is told apart here rather than by parsing an error message.
        if (!w.exec_params("SELECT 1 FROM accounts WHERE username_key = $1", a.username_key)
                 .empty())
            return Claim::UsernameTaken;
        auto r = w.exec_params(
            "INSERT INTO accounts (player_id, username, username_key, password_hash, created_at, "
            "password_at) VALUES ($1, $2, $3, $4, " +
                pg::ms_to_timestamp("$5") + ", " + pg::ms_to_timestamp("$5") +
                ") ON CONFLICT (player_id) DO NOTHING RETURNING player_id",
            a.player_id, a.username, a.username_key, a.password_hash, a.at_ms);
        if (r.empty()) return Claim::AlreadyClaimed;
        w.commit();
        return Claim::Claimed;
    });
}

Result<Account> AccountStore::by_username(std::string_view username_key) {
    const std::string key(username_key);
    return impl_->run<Account>([&](pqxx::connection& c) -> Result<Account> {
        pqxx::read_transaction t(c);
        auto r = t.exec_params("SELECT " + account_columns + " WHERE a.username_key = $1", key);
        if (r.empty()) return StoreError{Kind::NotFound, "no such username"};
        return account_from(r[0]);
    });
}

Result<Account> AccountStore::of_player(std::string_view player_id) {
    const std::string id(player_id);
    return impl_->run<Account>([&](pqxx::connection& c) -> Result<Account> {
        pqxx::read_transaction t(c);
        auto r = t.exec_params("SELECT " + account_columns + " WHERE a.player_id = $1", id);
        if (r.empty()) return StoreError{Kind::NotFound, "no account for " + id};
        return account_from(r[0]);
    });
}

Result<std::vector<std::string>> AccountStore::add_session(std::string_view player_id,
                                                           std::string_view token,
                                                           std::int64_t at_ms,
                                                           std::size_t max_sessions) {
    if (token.empty()) return StoreError{Kind::Invalid, "a session needs a token"};
    const std::string id(player_id), hash = token_sha256(token);
    // The newest sessions kept besides the new one; the oldest (then the smallest hash, so
    // that ties are decided the same way every time) go first.
    const auto others_kept = static_cast<std::int64_t>(max_sessions > 0 ? max_sessions - 1 : 0);
    return impl_->run<std::vector<std::string>>(
        [&](pqxx::connection& c) -> Result<std::vector<std::string>> {
            pqxx::work w(c);
            // Two sign-ins of one player at once would each count the sessions without the
            // other's: the player's row serialises them.
            w.exec_params("SELECT 1 FROM players WHERE id = $1 FOR UPDATE", id);
            w.exec_params0("INSERT INTO sessions (token_sha256, player_id, created_at) VALUES "
                           "($1, $2, " +
                               pg::ms_to_timestamp("$3") + ")",
                           hash, id, at_ms);
            const auto gone = w.exec_params(
                "DELETE FROM sessions WHERE token_sha256 IN (SELECT token_sha256 FROM sessions "
                "WHERE player_id = $1 AND token_sha256 <> $2 "
                "ORDER BY created_at DESC, token_sha256 DESC OFFSET $3) RETURNING token_sha256",
                id, hash, others_kept);
            w.commit();
            std::vector<std::string> revoked;
            revoked.reserve(gone.size());
            for (const auto& row : gone) revoked.push_back(row[0].as<std::string>());
            return revoked;
        });
}

Result<bool> AccountStore::revoke(std::string_view token) {
    const std::string hash = token_sha256(token);
    return impl_->run<bool>([&](pqxx::connection& c) -> Result<bool> {
        pqxx::work w(c);
        const auto sessions = w.exec_params("DELETE FROM sessions WHERE token_sha256 = $1", hash);
        const auto guests = w.exec_params(
            "UPDATE players SET token_sha256 = NULL WHERE token_sha256 = $1", hash);
        w.commit();
        return sessions.affected_rows() + guests.affected_rows() > 0;
    });
}

Result<Done> AccountStore::change_password(std::string_view player_id,
                                           std::string_view password_hash,
                                           std::string_view keep_token, std::int64_t at_ms) {
    const std::string id(player_id), hash(password_hash), keep = token_sha256(keep_token);
    return impl_->run<Done>([&](pqxx::connection& c) -> Result<Done> {
        pqxx::work w(c);
        auto r = w.exec_params("UPDATE accounts SET password_hash = $2, password_at = " +
                                   pg::ms_to_timestamp("$3") + " WHERE player_id = $1",
                               id, hash, at_ms);
        if (r.affected_rows() == 0) return StoreError{Kind::NotFound, "no account for " + id};
        w.exec_params0("DELETE FROM sessions WHERE player_id = $1 AND token_sha256 <> $2", id,
                       keep);
        w.exec_params0("UPDATE players SET token_sha256 = NULL WHERE id = $1 AND token_sha256 <> $2",
                       id, keep);
        w.commit();
        return Done{};
    });
}

}  // namespace store
