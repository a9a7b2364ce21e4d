#pragma once
// The computer players' thinking, off every strand (docs/bot.md, "In the server"): a few
// threads of their own, apart from the io_context's, so a search never holds up a network
// thread or another match. The queue is bounded: a match whose request finds it full keeps its
// turn and asks again a moment later (Match::bot_turn), so nothing ever blocks waiting for room.

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace server {

class BotPool {
  public:
    /// Starts `threads` (at least 1) threads; at most `queue_limit` jobs wait for one.
    BotPool(int threads, std::size_t queue_limit);
    /// Stops: waiting jobs are dropped, running ones finish first.
    ~BotPool();
    BotPool(const BotPool&) = delete;
    BotPool& operator=(const BotPool&) = delete;

    /// Queues `job` to run on one of the pool's threads; false (and `job` is not kept) when the
    /// queue is full or the pool stopped. Never blocks beyond a short lock.
    bool submit(std::function<void()> job);
    /// Drops waiting jobs and joins the threads (after the running jobs). Idempotent.
    void stop();
    /// Jobs waiting for a thread now.
    std::size_t waiting() const;

  private:
    void run();

    const std::size_t queue_limit_;
    mutable std::mutex mutex_;
    std::condition_variable wake_;
    std::deque<std::function<void()>> jobs_;
    bool stopped_ = false;
    std::vector<std::thread> threads_;
};

/// How a match plays its computer seats.
struct BotPlay {
    BotPool* pool = nullptr;  ///< null: nobody thinks for the computer seats (they time out)
    /// The cap on one decision's search (the level's own budget is often smaller).
    std::chrono::milliseconds time_limit{1500};
    /// The least time from the turn's start to the computer's step, so people see the moves.
    std::chrono::milliseconds delay{400};
};

}  // namespace server
