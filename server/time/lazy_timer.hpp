#pragma once
// A timer made the first time it is armed. An Asio steady_timer is 120 bytes whether it ever
// waits or not, and a live match has timers most matches never arm (the spectator count's,
// the abandonment's, the computer's delay); with thousands of live matches those bytes count
// (docs/benchmarks.md, "A WebSocket layer of our own").

#include <chrono>
#include <memory>
#include <utility>

#include <boost/asio/steady_timer.hpp>

namespace server {

/// The part of boost::asio::steady_timer a match uses, its timer made on first use on
/// `executor` (which must outlive it: the match's own strand).
template <typename Executor>
class LazyTimer {
public:
    explicit LazyTimer(const Executor& executor) : executor_(&executor) {}

    /// As steady_timer::expires_after (making the timer).
    void expires_after(std::chrono::steady_clock::duration after) { timer().expires_after(after); }
    /// As steady_timer::async_wait.
    template <typename Handler>
    void async_wait(Handler&& handler) {
        timer().async_wait(std::forward<Handler>(handler));
    }
    /// As steady_timer::cancel; nothing to do for a timer never armed.
    void cancel() {
        if (timer_) timer_->cancel();
    }

private:
    boost::asio::steady_timer& timer() {
        if (!timer_) timer_ = std::make_unique<boost::asio::steady_timer>(*executor_);
        return *timer_;
    }

    const Executor* executor_;
    std::unique_ptr<boost::asio::steady_timer> timer_;
};

}  // namespace server
