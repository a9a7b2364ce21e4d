#include "server/accounts/accounts.hpp"

#include <cmath>
#include <utility>

#include <boost/asio/post.hpp>

#include "server/accounts/token_holder.hpp"
#include "server/app/hub.hpp"
#include "server/app/ids.hpp"
#include "server/accounts/password.hpp"
#include "server/log/log.hpp"
#include "server/store/account_store.hpp"
#include "server/accounts/username.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {
namespace {

using Kind = AccountError::Kind;

AccountError account_store_failed(const store::StoreError& e, std::string_view what) {
    spdlog::warn("event=account_store_failed op={} error=\"{}\"", what, e.message);
    return refusal(Kind::Unavailable, "temporarily unavailable; try again");
}

// The same answer for an unknown username and a wrong password: neither tells which it was.
AccountError wrong_credentials() {
    return refusal(Kind::Unauthorized, "wrong username or password");
}

// Seconds until one more attempt is allowed by a bucket refilling `per_minute` a minute.
int retry_seconds(double per_minute) {
    return per_minute > 0 ? static_cast<int>(std::ceil(60.0 / per_minute)) : 60;
}

}  // namespace

Accounts::Accounts(std::string database_url, Hub& hub, Limits limits)
    : hub_(hub),
      limits_(limits),
      store_(std::make_unique<store::AccountStore>(std::move(database_url), limits.threads)),
      by_username_(limits.per_username_per_minute, limits.per_username_burst),
      by_address_(limits.per_address_per_minute, limits.per_address_burst),
      pool_(limits.threads) {}

Accounts::~Accounts() {
    pool_.join();
}

void Accounts::submit(Reply reply, std::function<AccountResult()> job) {
    if (pending_.fetch_add(1) >= limits_.max_pending) {
        pending_.fetch_sub(1);
        return reply(refusal(Kind::Busy, "too many account requests; try again"));
    }
    boost::asio::post(pool_, [this, reply = std::move(reply), job = std::move(job)] {
        AccountResult result = job();
        pending_.fetch_sub(1);
        reply(std::move(result));
    });
}

void Accounts::sign_up(std::string token, std::string username, std::string password,
                       Reply reply) {
    // The cheap checks first, inline: no hash is spent on a request that cannot succeed.
    if (token.empty()) return reply(refusal(Kind::Unauthorized, "sign in as a guest first"));
    auto name = read_username(username);
    if (auto* why = std::get_if<std::string>(&name)) return reply(refusal(Kind::Invalid, *why));
    if (auto why = password_problem(password)) return reply(refusal(Kind::Invalid, *why));
    submit(std::move(reply), [this, token = std::move(token), username = std::move(username),
                              password = std::move(password)] {
        return do_sign_up(token, username, password);
    });
}

void Accounts::sign_in(std::string username, std::string password, std::string client,
                       Reply reply) {
    // Every attempt counts, right or wrong, before any work: per address (one machine trying
    // many names) and per username (many machines trying one name).
    if (!by_address_.allow(client)) {
        AccountError e = refusal(Kind::TooMany, "too many sign-in attempts from your address");
        e.retry_after_s = retry_seconds(limits_.per_address_per_minute);
        return reply(std::move(e));
    }
    auto name = read_username(username);
    const std::string key = std::holds_alternative<Username>(name)
                                ? std::get<Username>(name).key
                                : std::string();
    if (!key.empty() && !by_username_.take(key)) {
        AccountError e = refusal(Kind::TooMany, "too many sign-in attempts for this username");
        e.retry_after_s = retry_seconds(limits_.per_username_per_minute);
        return reply(std::move(e));
    }
    if (key.empty()) return reply(wrong_credentials());  // no such username can exist
    submit(std::move(reply), [this, key, password = std::move(password)] {
        return do_sign_in(key, password);
    });
}

void Accounts::sign_out(std::string token, Reply reply) {
    if (token.empty()) return reply(refusal(Kind::Unauthorized, "no token"));
    submit(std::move(reply), [this, token = std::move(token)] { return do_sign_out(token); });
}

void Accounts::change_password(std::string token, std::string old_password,
                               std::string new_password, Reply reply) {
    if (token.empty()) return reply(refusal(Kind::Unauthorized, "no token"));
    if (auto why = password_problem(new_password)) return reply(refusal(Kind::Invalid, *why));
    submit(std::move(reply), [this, token = std::move(token), old_password = std::move(old_password),
                              new_password = std::move(new_password)] {
        return do_change_password(token, old_password, new_password);
    });
}

void Accounts::who(std::string token, Reply reply) {
    if (token.empty()) return reply(refusal(Kind::Unauthorized, "no token"));
    submit(std::move(reply), [this, token = std::move(token)] { return do_who(token); });
}

AccountResult Accounts::do_sign_up(const std::string& token, const std::string& username,
                                   const std::string& password) {
    auto player = token_holder(hub_, token);
    if (auto* why = std::get_if<AccountError>(&player)) return *why;
    const Guest& guest = std::get<Guest>(player);
    const Username name = std::get<Username>(read_username(username));
    auto hash = hash_password(password);
    if (!hash) return refusal(Kind::Unavailable, "the password could not be hashed; try again");
    auto claimed = store_->claim(store::NewAccount{guest.id, name.shown, name.key, *hash, now_epoch_ms()});
    if (!claimed) {
        if (claimed.error().kind == store::StoreError::Kind::Conflict)  // a race for the name
            return refusal(Kind::Conflict, "this username is taken");
        return account_store_failed(claimed.error(), "claim");
    }
    if (*claimed == store::Claim::UsernameTaken)
        return refusal(Kind::Conflict, "this username is taken");
    if (*claimed == store::Claim::AlreadyClaimed)
        return refusal(Kind::Conflict, "this player has an account already");
    spdlog::info("event=account_created player={}", guest.id);
    return AccountInfo{guest.id, guest.name, name.shown, ""};
}

AccountResult Accounts::do_sign_in(const std::string& key, const std::string& password) {
    auto account = store_->by_username(key);
    if (!account) {
        if (account.error().kind != store::StoreError::Kind::NotFound)
            return account_store_failed(account.error(), "sign_in");
        verify_nothing(password);  // as slow as a wrong password
        return wrong_credentials();
    }
    if (!verify_password(account->password_hash, password)) {
        spdlog::info("event=sign_in_refused player={}", account->player_id);
        return wrong_credentials();
    }
    by_username_.give_back(key);  // only failures count against the username
    std::string token = secret_token();
    auto added =
        store_->add_session(account->player_id, token, now_epoch_ms(), limits_.max_sessions);
    if (!added) return account_store_failed(added.error(), "add_session");
    for (const std::string& oldest : *added) hub_.forget_session(account->player_id, oldest);
    spdlog::info("event=signed_in player={} sessions_revoked={}", account->player_id,
                 added->size());
    return AccountInfo{account->player_id, account->display_name, account->username,
                       std::move(token)};
}

AccountResult Accounts::do_sign_out(const std::string& token) {
    auto player = token_holder(hub_, token);
    if (auto* why = std::get_if<AccountError>(&player)) return *why;
    auto revoked = store_->revoke(token);
    if (!revoked) return account_store_failed(revoked.error(), "revoke");
    const Guest& guest = std::get<Guest>(player);
    hub_.forget_token(guest.id, token);
    spdlog::info("event=signed_out player={}", guest.id);
    return AccountInfo{guest.id, guest.name, "", ""};
}

AccountResult Accounts::do_change_password(const std::string& token,
                                           const std::string& old_password,
                                           const std::string& new_password) {
    auto player = token_holder(hub_, token);
    if (auto* why = std::get_if<AccountError>(&player)) return *why;
    const Guest& guest = std::get<Guest>(player);
    auto account = store_->of_player(guest.id);
    if (!account) {
        if (account.error().kind == store::StoreError::Kind::NotFound)
            return refusal(Kind::Invalid, "this player has no account");
        return account_store_failed(account.error(), "of_player");
    }
    // A stolen token must not make guessing the old password cheap: the username's limit.
    const std::string key = std::get<Username>(read_username(account->username)).key;
    if (!by_username_.take(key)) {
        AccountError e = refusal(Kind::TooMany, "too many attempts for this account");
        e.retry_after_s = retry_seconds(limits_.per_username_per_minute);
        return e;
    }
    if (!verify_password(account->password_hash, old_password))
        return refusal(Kind::Unauthorized, "wrong password");
    by_username_.give_back(key);
    auto hash = hash_password(new_password);
    if (!hash) return refusal(Kind::Unavailable, "the password could not be hashed; try again");
    auto changed = store_->change_password(guest.id, *hash, token, now_epoch_ms());
    if (!changed) return account_store_failed(changed.error(), "change_password");
    hub_.forget_tokens_of(guest.id, token);
    spdlog::info("event=password_changed player={}", guest.id);
    return AccountInfo{guest.id, guest.name, account->username, ""};
}

AccountResult Accounts::do_who(const std::string& token) {
    auto player = token_holder(hub_, token);
    if (auto* why = std::get_if<AccountError>(&player)) return *why;
    const Guest& guest = std::get<Guest>(player);
    auto account = store_->of_player(guest.id);
    if (!account && account.error().kind != store::StoreError::Kind::NotFound)
        return account_store_failed(account.error(), "of_player");
    return AccountInfo{guest.id, guest.name, account ? account->username : std::string(), ""};
}

}  // namespace server
