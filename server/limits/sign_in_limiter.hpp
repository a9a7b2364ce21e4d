#pragma once
// The per-username limit on sign-in attempts (server/accounts/accounts.hpp): a token bucket per
// username that an attempt takes from before any hashing and that a successful attempt gives
// back, so only failures count (a player signing in on several devices is never locked out)
// while parallel guesses still cannot run past the limit. Thread-safe.

#include <chrono>
#include <cstddef>
#include <string_view>

#include "server/limits/keyed_buckets.hpp"

namespace server {

/// `burst` failures at once per key, refilled at `per_minute`.
class SignInLimiter {
  public:
    using Clock = std::chrono::steady_clock;

    /// `max_keys` bounds the memory (KeyedTokenBuckets: idle keys are forgotten first; the
    /// per-address limit still holds when a flood of names makes it forget them all).
    SignInLimiter(double per_minute, double burst, std::size_t max_keys = 100000)
        : buckets_(per_minute, burst, max_keys) {}

    /// Takes one attempt for `key`; false when none is left.
    bool take(std::string_view key, Clock::time_point now = Clock::now()) {
        return buckets_.try_take(key, now);
    }

    /// Gives back the attempt taken for `key` (it succeeded).
    void give_back(std::string_view key) { buckets_.give_back(key); }

    /// Keys currently remembered (for tests).
    std::size_t size() const { return buckets_.size(); }

  private:
    KeyedTokenBuckets<Clock> buckets_;
};

}  // namespace server
