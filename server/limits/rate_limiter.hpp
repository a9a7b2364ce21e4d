#pragma once
// A token bucket: the per-connection message rate limit (Config::messages_per_second and
// Config::message_burst). Not thread-safe: each WebSocket session owns one and uses it on its
// strand. The clock is a parameter so tests can drive time by hand.

#include <algorithm>
#include <chrono>

namespace server {

/// Holds up to `burst` tokens and refills `rate` tokens per second; each message takes one.
/// `Clock` is any std::chrono clock (steady_clock in production, a manual clock in tests).
template <class Clock = std::chrono::steady_clock>
class TokenBucket {
public:
    using time_point = typename Clock::time_point;

    /// A full bucket. `rate` <= 0 means no refill; `burst` < 1 means every take fails.
    TokenBucket(double rate, double burst, time_point now = Clock::now())
        : rate_(std::max(rate, 0.0)), burst_(std::max(burst, 0.0)), tokens_(burst_), last_(now) {}

    /// Takes one token if there is one (after refilling for the time since the last call).
    bool try_take(time_point now = Clock::now()) {
        refill(now);
        if (tokens_ < 1.0) return false;
        tokens_ -= 1.0;
        return true;
    }

    /// Puts one token back (the action it was taken for is not to count), up to `burst`.
    void give_back() { tokens_ = std::min(burst_, tokens_ + 1.0); }

    /// True when the bucket holds `burst` tokens at `now`: it is as good as a new one.
    bool full(time_point now = Clock::now()) { return available(now) >= burst_; }

    /// The tokens available at `now` (a fraction while one is refilling).
    double available(time_point now = Clock::now()) {
        refill(now);
        return tokens_;
    }

private:
    void refill(time_point now) {
        // A clock that goes backwards (it should not, for steady clocks) refills nothing.
        if (now <= last_) return;
        const double elapsed = std::chrono::duration<double>(now - last_).count();
        tokens_ = std::min(burst_, tokens_ + elapsed * rate_);
        last_ = now;
    }

    double rate_;
    double burst_;
    double tokens_;
    time_point last_;
};

}  // namespace server
