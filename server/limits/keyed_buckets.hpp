#pragma once
// A token bucket per key (a client address, a username), for limits that must hold across
// connections: the keyed form of TokenBucket (rate_limiter.hpp) behind AddressLimiter and
// SignInLimiter. Thread-safe (one mutex; each call is a map lookup and a few arithmetic steps).

#include <chrono>
#include <cstddef>
#include <iterator>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/limits/rate_limiter.hpp"

namespace server {

/// `burst` tokens per key at once, refilled at `per_minute`; at most `max_keys` keys remembered.
template <class Clock = std::chrono::steady_clock>
class KeyedTokenBuckets {
public:
    using time_point = typename Clock::time_point;

    /// `max_keys` bounds the memory: when it is reached, keys whose buckets are full again
    /// (nothing to remember: a new bucket is full too) are forgotten, and if none is, all are.
    KeyedTokenBuckets(double per_minute, double burst, std::size_t max_keys)
        : rate_(per_minute / 60.0), burst_(burst), max_keys_(max_keys) {}

    /// Takes one token for `key` ("" is a key like any other); false when it has none left.
    bool try_take(std::string_view key, time_point now = Clock::now()) {
        std::lock_guard lock(mutex_);
        auto it = buckets_.find(std::string(key));
        if (it == buckets_.end()) {
            if (buckets_.size() >= max_keys_) forget_idle(now);
            it = buckets_.emplace(std::string(key), TokenBucket<Clock>(rate_, burst_, now)).first;
        }
        return it->second.try_take(now);
    }

    /// Puts back a token taken for `key` (the action it was taken for is not to count); nothing
    /// if `key` has been forgotten since (its bucket was full).
    void give_back(std::string_view key) {
        std::lock_guard lock(mutex_);
        if (auto it = buckets_.find(std::string(key)); it != buckets_.end()) it->second.give_back();
    }

    /// Keys currently remembered (for tests and metrics).
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return buckets_.size();
    }

private:
    void forget_idle(time_point now) {
        for (auto it = buckets_.begin(); it != buckets_.end();)
            it = it->second.full(now) ? buckets_.erase(it) : std::next(it);
        // Every bucket busy: a flood from very many keys. Forgetting them all errs on the side
        // of serving people rather than growing without bound.
        if (buckets_.size() >= max_keys_) buckets_.clear();
    }

    double rate_;
    double burst_;
    std::size_t max_keys_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, TokenBucket<Clock>> buckets_;
};

}  // namespace server
