#pragma once
// Accounts in the database (migrations/0005_accounts.sql): a player's username and password
// hash, and the session tokens of the devices it signed in on. Tokens are kept as their SHA-256
// only, like a guest's (token_hash.hpp); the password only as the Argon2id string the caller
// made (server/accounts/password.hpp): this file never sees a password.
//
// Threading: blocking, like Repository (a round trip per call, on a small pool of its own
// connections): call it only from a blocking pool, never from a strand or a network thread.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/result.hpp"

namespace store {

/// A player's account as stored.
struct Account {
    std::string player_id;
    std::string display_name;  ///< the player's name in games (unchanged by claiming)
    std::string username;      ///< as the player typed it
    std::string password_hash;  ///< crypto_pwhash_str's string
};

/// A new account: the player `player_id` claims `username`.
struct NewAccount {
    std::string player_id;
    std::string username;      ///< as typed, 3-24 characters (checked by the caller)
    std::string username_key;  ///< the comparison key (server/accounts/username.hpp), unique
    std::string password_hash;
    std::int64_t at_ms = 0;
};

/// What claiming gave.
enum class Claim {
    Claimed,        ///< the account exists now
    UsernameTaken,  ///< another player has this username (by key)
    AlreadyClaimed  ///< this player has an account already
};

/// Accounts and sessions on a connection pool (see the header comment).
class AccountStore {
  public:
    /// Connects lazily, at most `connections` at a time, to `url`.
    explicit AccountStore(std::string url, std::size_t connections = 2);
    ~AccountStore();
    AccountStore(const AccountStore&) = delete;
    AccountStore& operator=(const AccountStore&) = delete;

    /// Makes `account` the account of its player. NotFound for an unknown player.
    Result<Claim> claim(const NewAccount& account);
    /// The account whose username has this key; NotFound if none.
    Result<Account> by_username(std::string_view username_key);
    /// The account of a player; NotFound for a guest (or an unknown id).
    Result<Account> of_player(std::string_view player_id);
    /// Records a new session token of `player_id` (its hash), and revokes the player's oldest
    /// sessions beyond the newest `max_sessions` (at least 1: the new one always stays), so
    /// that sign-ins cannot grow the table without end. Returns the SHA-256 of each revoked
    /// session, for the caller to close their sockets. Sign-ins of one player are serialised
    /// (a row lock on the player), so the bound is exact. Conflict for a token in use.
    Result<std::vector<std::string>> add_session(std::string_view player_id, std::string_view token,
                                                 std::int64_t at_ms, std::size_t max_sessions);
    /// Revokes `token` (a session's, or the guest token the player started with); false when
    /// no player had it.
    Result<bool> revoke(std::string_view token);
    /// Replaces the password hash of `player_id` and revokes every token of the player but
    /// `keep_token`. NotFound when the player has no account.
    Result<Done> change_password(std::string_view player_id, std::string_view password_hash,
                                 std::string_view keep_token, std::int64_t at_ms);

    struct Impl;

  private:
    std::unique_ptr<Impl> impl_;
};

}  // namespace store
