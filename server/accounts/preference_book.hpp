#pragma once
// Where players' preferences are kept (docs/api.md, "Preferences"; the value:
// server/accounts/preferences.hpp). Every request names its player by a token, resolved by the
// hub like an account request's; a player reads and writes only its own preferences.
//
// With a database the preferences are stored (store/preference_store.hpp) and every request
// runs on the book's own small pool, never on a network thread: a lookup of the token and one
// round trip. More than `Limits::max_pending` requests waiting: refused at once (Busy).
// Without a database they live in memory, as the guests do then: at most
// `Limits::memory_players` players, the least recently written forgotten first (the client's
// own copy in localStorage still holds them); lost when the server stops. Then the reply is
// called inline.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>

#include <boost/asio/thread_pool.hpp>

#include "server/accounts/accounts.hpp"
#include "server/accounts/preferences.hpp"
#include "server/app/guarded.hpp"

namespace store {
class PreferenceStore;
}

namespace server {

class Hub;

/// A player's preferences, or why not (the account requests' refusals: Unauthorized, Busy,
/// Unavailable).
using PreferenceResult = std::variant<Preferences, AccountError>;

/// The preferences of every player (see the header comment).
class PreferenceBook {
  public:
    using Reply = std::function<void(PreferenceResult)>;

    /// How much the book may hold and queue.
    struct Limits {
        std::size_t threads = 2;             ///< database round trips at once
        std::size_t max_pending = 64;        ///< requests queued or running beyond this: Busy
        std::size_t memory_players = 10000;  ///< without a database: players remembered
    };

    /// Preferences stored in the database at `database_url`, or in memory when it is empty;
    /// `hub` resolves tokens.
    PreferenceBook(std::string database_url, const Hub& hub, Limits limits);
    /// Waits for the requests still running (their replies are called before it returns).
    ~PreferenceBook();
    PreferenceBook(const PreferenceBook&) = delete;
    PreferenceBook& operator=(const PreferenceBook&) = delete;

    /// The preferences of the player holding `token` (the defaults if it never chose any).
    void get(std::string token, Reply reply);
    /// Replaces the preferences of the player holding `token` (checked by read_preferences);
    /// replies with them as kept.
    void put(std::string token, Preferences preferences, Reply reply);

  private:
    struct Remembered {
        Preferences preferences;
        std::uint64_t written = 0;  ///< when, in writes: the smallest is forgotten first
    };
    struct Memory {
        std::unordered_map<std::string, Remembered> by_player;
        std::uint64_t writes = 0;
    };

    PreferenceResult do_get(const std::string& token);
    PreferenceResult do_put(const std::string& token, Preferences preferences);
    /// Runs `job` on the pool (or replies Busy at once), or inline without a database.
    void submit(Reply reply, std::function<PreferenceResult()> job);

    const Hub& hub_;
    Limits limits_;
    std::unique_ptr<store::PreferenceStore> store_;  ///< null: in memory
    Guarded<Memory> memory_;
    std::atomic<std::size_t> pending_{0};
    boost::asio::thread_pool pool_;
};

}  // namespace server
