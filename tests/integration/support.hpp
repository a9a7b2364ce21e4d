#pragma once
// What the integration tests share: the test database, the real santorini-server binary as a
// child process on a free loopback port, and players that talk to it over WebSocket.

#include <sys/types.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/ws_client.hpp"

namespace integration {

using json = nlohmann::json;
using namespace std::chrono_literals;

/// SANTORINI_TEST_DATABASE_URL (scripts/with-postgres sets it); fails the test without it.
std::string database_url();
/// A fresh schema of the test database, and a URL whose search_path puts it first.
std::string fresh_schema_url(const std::string& base);
/// Copies live match `match` of the database at `url` in SQL as `match`_2 ... `match`_`copies`
/// (settings, seed, owner, seats and every step): each copy replays exactly as the original.
void copy_match(const std::string& url, const std::string& match, int copies);
/// A loopback port that was free a moment ago.
std::uint16_t free_port();

/// The server binary as a child process.
class ServerProcess {
  public:
    /// `log`: where the server's stderr goes (appended), for a failing run's post-mortem.
    /// `extra`: more arguments after the usual ones (a fleet node's --node-id, --lease-ms, ...).
    ServerProcess(std::uint16_t port, std::string database_url, std::string log,
                  std::vector<std::string> extra = {});
    ~ServerProcess();
    ServerProcess(const ServerProcess&) = delete;
    ServerProcess& operator=(const ServerProcess&) = delete;

    /// Starts the server and waits (at most 15 s) until it answers HTTP and, with
    /// `until_recovered`, has restored its stored matches (/healthz no longer says
    /// "recovering"); throws if it exits or does not become ready.
    void start(bool until_recovered = true);
    /// The child's process id (0 when none runs).
    pid_t pid() const;
    /// SIGKILL, if it runs and is ready; false if it was not (the killer waits for a restart).
    bool kill_if_ready();
    /// Reaps a killed server and starts a new one. Only when kills() says one was killed.
    void restart();
    int kills() const;
    /// Blocks until the server is ready again, `until` passes, or stop_waiting() is called.
    void wait_ready(std::chrono::steady_clock::time_point until);
    /// Releases wait_ready() for good (the test is ending, maybe by a failure).
    void stop_waiting();
    /// SIGKILL and reap, if it runs.
    void kill_now();
    /// SIGTERM (a graceful stop), without waiting: the stop may need the clients' help (a
    /// close handshake), so the caller goes on talking to the server and reaps it later.
    void terminate();
    /// Reaps the server after terminate(); SIGKILL if it has not exited within `grace`. True if
    /// it exited by itself in time.
    bool wait_exit(std::chrono::milliseconds grace);
    /// True while the child runs (it has not been reaped).
    bool running() const;

  private:
    std::uint16_t port_;
    std::string url_;
    std::string log_;
    std::vector<std::string> extra_;
    mutable std::mutex mutex_;
    std::condition_variable ready_changed_;
    pid_t pid_ = 0;
    bool ready_ = false;
    bool stop_waiting_ = false;
    int kills_ = 0;
};

/// A guest with its connection.
struct Player {
    std::string id;
    std::string token;
    std::unique_ptr<test::WsClient> ws;
};

/// A match as the test follows it.
struct Game {
    std::string match;
    std::vector<int> players;  ///< player index by seat
    std::vector<json> steps;   ///< every step known to be stored, in order
    bool over = false;
};

/// Thrown when the connection to the server is lost (it was killed).
struct Lost {};

/// A new guest over HTTP (POST /api/guests), not yet connected.
Player new_guest(std::uint16_t port, const std::string& name);
/// (Re)connects `p` and says hello; throws Lost if the server is not there.
void connect(Player& p, std::uint16_t port);
/// Sends `message` with a fresh ref and reads until the reply to it; throws Lost if the server
/// is gone. Messages on the way go to `seen`.
json request(Player& p, json message, std::vector<json>* seen = nullptr);
/// A private lobby with `settings` created by `host`, joined by `guest` and started: the match
/// with its seats (indexes `host_index` and `guest_index` of the caller's players).
Game start_match(Player& host, int host_index, Player& guest, int guest_index,
                 const json& settings);
/// The view of `game` as `p` sees it (a fresh snapshot).
json view_of(Player& p, const Game& game);
/// The decider's player and view of `game` (seat 0's view and no player once it is over).
std::pair<Player*, json> decider_view(std::vector<Player>& players, const Game& game);
/// Checks that `game` is stored in the database at `database_url` with exactly its
/// acknowledged steps, in order, finished and rated.
void check_stored_finished(const std::string& database_url, const Game& game);
/// A legal step of the decider's view: Santorini, a winning move up to level 3 when there is
/// one (so the games end in a bounded time), else a random one; Splendor, mostly a buy.
json pick(const json& view, std::mt19937& rng);

}  // namespace integration
