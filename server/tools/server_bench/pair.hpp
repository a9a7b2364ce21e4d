// server-bench's match driver: two players who play random legal steps against each other, game
// after game, and check their patched views against a snapshot when a game ends.
#pragma once

#include <boost/asio/steady_timer.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <random>
#include <string>

#include "server/tools/server_bench/common.hpp"
#include "server/tools/server_bench/connection.hpp"
#include "server/tools/server_bench/totals.hpp"

namespace server_bench {

/// Two players who play game after game against each other, on one strand.
class Pair {
  public:
    Pair(Strand strand, Totals& totals, std::uint32_t seed)
        : strand_(strand), totals_(totals), rng_(seed), think_(strand) {}

    Strand strand() const { return strand_; }
    std::shared_ptr<Connection> players[2];
    Samples ack;        ///< step -> the sender's patch, while measuring
    Samples broadcast;  ///< step -> the opponent's patch, while measuring

    /// The time is up (on the strand): check the game in progress, if any, then stop.
    void finish();

    /// A message from the server to player `index` (on the strand): the lobby, match and
    /// error messages move the pair along; anything else is ignored.
    void on_message(int index, const json& message);

  private:
    void on_patch(int index, const json& message);
    /// The seat that must decide sends a random legal step, once both views are current; a
    /// game that is over (or the end of the run) starts the check against a snapshot.
    void act();
    /// Player `index` sends a random legal step of its view (it is the deciding seat).
    void send_step(int index);
    /// Both players re-open the match without `since`: each gets a snapshot to compare.
    void start_check();
    void check(int index, const json& snapshot);
    void mark_done();
    void new_lobby();

    Strand strand_;
    Totals& totals_;
    std::mt19937 rng_;
    int welcomed_ = 0;
    bool joined_ = false;
    std::string lobby_;
    std::string match_;
    // The step in flight: sent by pending_index_, done when both players have its patch.
    bool pending_ = false;
    bool got_own_ = false;
    bool got_other_ = false;
    int pending_index_ = -1;
    std::size_t pending_history_ = 0;  ///< steps in the history when it was sent
    json pending_decider_;
    Clock::time_point pending_sent_;
    asio::steady_timer think_;  ///< human pace: the deciding player's think time
    bool thinking_ = false;     ///< think_ runs; the step is sent when it fires
    int checking_ = 0;          ///< snapshots still awaited for the check
    int steps_in_game_ = 0;
    bool holding_ = false;
    bool done_ = false;
    bool started_ = false;
};

}  // namespace server_bench
