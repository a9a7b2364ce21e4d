#pragma once
// Whether the database answers, for /healthz and /readyz (docs/api.md). A thread of its own
// pings it every `interval`; the database counts as unreachable when the last ping failed or
// one has been waiting longer than the deadline (a hung server: its TCP connections stay up, so
// only the wait tells). The thread is detached and owns what it uses: a ping stuck on a hung
// database can outlive the server without touching freed memory.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>

namespace server {

class DatabaseHealth {
  public:
    /// Starts pinging at once and then every `interval`; `ping` (true: the database answered)
    /// blocks for a round trip and owns whatever it needs.
    DatabaseHealth(std::function<bool()> ping, std::chrono::milliseconds interval,
                   std::chrono::milliseconds deadline);
    /// Stops the pings (a ping in flight finishes on its own, later).
    ~DatabaseHealth();
    DatabaseHealth(const DatabaseHealth&) = delete;
    DatabaseHealth& operator=(const DatabaseHealth&) = delete;

    /// The last ping succeeded and none has waited past the deadline since.
    bool reachable() const;

  private:
    struct State {
        std::function<bool()> ping;
        std::chrono::milliseconds interval;
        std::chrono::milliseconds deadline;
        std::atomic<bool> answered{true};  ///< the last finished ping succeeded
        std::atomic<std::int64_t> waiting_since{0};  ///< steady ns of the ping in flight, or 0
        std::mutex mutex;
        std::condition_variable wake;
        bool stop = false;
    };
    std::shared_ptr<State> state_;
};

}  // namespace server
