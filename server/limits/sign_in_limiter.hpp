#pragma once
// The per-username limit on sign-in attempts (server/accounts/accounts.hpp): a token bucket per username
// that an attempt takes from before any hashing and that a successful attempt gives back, so
// only failures count (a player signing in on several devices is never locked out) while
// parallel guesses still cannot run past the limit. Thread-safe.

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <unordered_map>

namespace server {

/// `burst` failures at once per key, refilled at `per_minute`.
class SignInLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    SignInLimiter(double per_minute, double burst, std::size_t max_keys = 100000)
        : rate_(per_minute / 60.0), burst_(burst), max_keys_(max_keys) {}

    /// Takes one attempt for `key`; false when none is left.
    bool take(const std::string& key, Clock::time_point now = Clock::now()) {
        std::lock_guard lock(mutex_);
        auto it = buckets_.find(key);
        if (it == buckets_.end()) {
            // Many keys at once (a flood of names): forgetting them all errs on the side of
            // serving people; the per-address limit still holds.
            if (buckets_.size() >= max_keys_) buckets_.clear();
            it = buckets_.emplace(key, Bucket{burst_, now}).first;
        }
        Bucket& b = it->second;
        if (now > b.last) {
            b.tokens = std::min(burst_, b.tokens + std::chrono::duration<double>(now - b.last).count() * rate_);
            b.last = now;
        }
        if (b.tokens < 1.0) return false;
        b.tokens -= 1.0;
        return true;
    }

    /// Gives back the attempt taken for `key` (it succeeded).
    void give_back(const std::string& key) {
        std::lock_guard lock(mutex_);
        if (auto it = buckets_.find(key); it != buckets_.end())
            it->second.tokens = std::min(burst_, it->second.tokens + 1.0);
    }

  private:
    struct Bucket {
        double tokens;
        Clock::time_point last;
    };
    double rate_;
    double burst_;
    std::size_t max_keys_;
    std::mutex mutex_;
    std::unordered_map<std::string, Bucket> buckets_;
};

}  // namespace server
