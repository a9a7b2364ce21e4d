#pragma once
// Accounts (docs/api.md, "Accounts"): a guest claims its player id with a username
// and a password, signs in on another device (a new token, one session per device), signs out
// (that token only) and changes its password (which signs every other device out). Ratings and
// matches stay with the player id, so they stay with the account.
//
// Threading: every request runs on the accounts' own small thread pool, never on a network
// thread: Argon2id costs ~50-100 ms and 64 MiB per hash (server/accounts/password.hpp), so the pool's
// size bounds the memory, and requests beyond `Limits::max_pending` are refused at once
// (Busy). Sign-in attempts are limited per username and per client address before any hashing.
// The reply is called exactly once, on the pool or inline for a refusal; post back to your own
// executor. Passwords are never logged.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>

#include <boost/asio/thread_pool.hpp>

#include "server/limits/address_limiter.hpp"
#include "server/limits/sign_in_limiter.hpp"

namespace store {
class AccountStore;
}

namespace server {

class Hub;

/// Who a request is about: the player, its account's username ("" for a guest), and the token
/// of a new session (only from sign-in).
struct AccountInfo {
    std::string id;
    std::string name;      ///< the player's name in games
    std::string username;  ///< "" for a guest without an account
    std::string token;     ///< sign-in only: the new session's secret
};

/// Why an account request was refused.
struct AccountError {
    enum class Kind {
        Invalid,       ///< a bad username or password (the message says which rule)
        Unauthorized,  ///< no or an unknown token, or a wrong username or password
        Conflict,      ///< the username is taken, or the player has an account already
        TooMany,       ///< sign-in attempts over the limit: retry after `retry_after_s`
        Busy,          ///< too many requests waiting for the pool
        Unavailable,   ///< the database cannot be reached now
    };
    Kind kind = Kind::Invalid;
    std::string message;
    int retry_after_s = 0;
};

/// An answer: the account, or why not.
using AccountResult = std::variant<AccountInfo, AccountError>;

/// The account requests on their own pool (see the header comment).
class Accounts {
  public:
    using Reply = std::function<void(AccountResult)>;

    /// Limits on sign-in attempts (the token buckets refill per minute) and on the work queued.
    struct Limits {
        double per_username_per_minute = 5;  ///< failed attempts for one username, from anywhere
        double per_username_burst = 5;
        double per_address_per_minute = 20;  ///< attempts from one address, for any username
        double per_address_burst = 20;
        std::size_t threads = 2;       ///< hashes at once: at most threads x 64 MiB
        std::size_t max_pending = 32;  ///< requests queued or running beyond this: Busy
        /// Signed-in devices kept per account: a sign-in beyond revokes the oldest session
        /// (its sockets are closed with 4001), so sign-ins cannot grow the sessions without end.
        std::size_t max_sessions = 50;
    };

    /// Accounts stored in the database at `database_url`; `hub` resolves tokens and forgets
    /// the revoked ones.
    Accounts(std::string database_url, Hub& hub, Limits limits);
    /// Waits for the requests still running (their replies are called before it returns).
    ~Accounts();
    Accounts(const Accounts&) = delete;
    Accounts& operator=(const Accounts&) = delete;

    /// Sign-up: the player holding `token` claims `username` with `password`.
    void sign_up(std::string token, std::string username, std::string password, Reply reply);
    /// Sign-in from the client address `client`: a new session token for the account.
    void sign_in(std::string username, std::string password, std::string client, Reply reply);
    /// Sign-out: revokes `token` (this device only).
    void sign_out(std::string token, Reply reply);
    /// Changes the password of the account holding `token` (the old password must match) and
    /// revokes every other token of the player.
    void change_password(std::string token, std::string old_password, std::string new_password,
                         Reply reply);
    /// The player holding `token`, with its username if it has an account.
    void who(std::string token, Reply reply);

  private:
    /// Runs `job` on the pool (or replies Busy at once); the job's answer goes to `reply`.
    void submit(Reply reply, std::function<AccountResult()> job);
    AccountResult do_sign_up(const std::string& token, const std::string& username,
                             const std::string& password);
    AccountResult do_sign_in(const std::string& username, const std::string& password);
    AccountResult do_sign_out(const std::string& token);
    AccountResult do_change_password(const std::string& token, const std::string& old_password,
                                     const std::string& new_password);
    AccountResult do_who(const std::string& token);

    Hub& hub_;
    Limits limits_;
    std::unique_ptr<store::AccountStore> store_;
    SignInLimiter by_username_;
    AddressLimiter by_address_;
    std::atomic<std::size_t> pending_{0};
    boost::asio::thread_pool pool_;
};

}  // namespace server
