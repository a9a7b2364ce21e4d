#pragma once
// Cuts database calls that never end (docs/storage.md, "Deadlines"). A database host that stops
// answering while its TCP connections stay up (a frozen process, a partition without resets)
// leaves a libpq call blocked in recv() until TCP gives up, hours later: `statement_timeout` is
// enforced by the server, which is the part that hangs, and libpq's cancel request goes to the
// same unanswering server. So the thread that made the call, and the connection it holds, are
// pinned. One watcher thread for the process shuts down the socket of any call that has run past
// the stall limit: the blocked recv() returns at once, libpq reports the connection broken, the
// caller's store answers Unavailable and drops the connection, and the next call connects anew.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace store::pg {

/// The process's watcher of database calls in flight (see the file comment).
class StallWatch {
  public:
    /// The process's one watcher; its thread starts with the first call watched.
    static StallWatch& instance();

    /// Calls watched from now on are cut after `limit`; zero (the default) watches nothing.
    /// The server sets it once at start-up (`--database-stall-ms`).
    void set_limit(std::chrono::milliseconds limit);
    /// The current limit.
    std::chrono::milliseconds limit() const;
    /// How many calls were cut since the process started.
    std::uint64_t cuts() const;

    /// One call on one socket, watched from its construction until finish() or its end.
    class Call {
      public:
        Call() = default;
        Call(Call&& other) noexcept : watch_(other.watch_), id_(other.id_), cut_(other.cut_) {
            other.watch_ = nullptr;
        }
        Call& operator=(Call&&) = delete;
        ~Call() { finish(); }
        /// Stops watching; true when the call was cut, so its connection must not be reused.
        /// Later calls return the same answer.
        bool finish();

      private:
        friend class StallWatch;
        Call(StallWatch* watch, std::uint64_t id) : watch_(watch), id_(id) {}
        StallWatch* watch_ = nullptr;
        std::uint64_t id_ = 0;
        bool cut_ = false;
    };

    /// Watches a call about to run on socket `fd` (a libpq connection's, valid until the Call
    /// finishes: the caller must not close the connection before). A negative `fd` or a zero
    /// limit watches nothing.
    Call watch(int fd);

    ~StallWatch();
    StallWatch(const StallWatch&) = delete;
    StallWatch& operator=(const StallWatch&) = delete;

  private:
    StallWatch() = default;
    void run();
    bool finish(std::uint64_t id);

    struct Watched {
        int fd;
        std::chrono::steady_clock::time_point due;
        bool cut = false;
    };

    mutable std::mutex mutex_;
    std::condition_variable changed_;
    std::map<std::uint64_t, Watched> calls_;  ///< under mutex_; a handful (one per connection)
    std::uint64_t next_id_ = 1;               ///< under mutex_
    std::uint64_t cuts_ = 0;                  ///< under mutex_
    std::chrono::milliseconds limit_{0};      ///< under mutex_
    bool stopping_ = false;                   ///< under mutex_
    std::thread thread_;                      ///< started under mutex_ by the first watch
};

}  // namespace store::pg
