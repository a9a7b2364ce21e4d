#pragma once
// A token bucket per client address, for requests that create something (guest players): a
// per-connection limit would not stop a client that opens a new connection per request.
// Thread-safe.

#include <chrono>
#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>

#include "server/limits/rate_limiter.hpp"

namespace server {

/// Allows `burst` requests per address at once and `per_minute` more each minute.
class AddressLimiter {
public:
    using Clock = std::chrono::steady_clock;

    /// `max_addresses` bounds the memory: when it is reached, addresses whose buckets are full
    /// again (nothing to remember) are forgotten, and if none is, the oldest map is cleared.
    AddressLimiter(double per_minute, double burst, std::size_t max_addresses = 100000)
        : rate_(per_minute / 60.0), burst_(burst), max_addresses_(max_addresses) {}

    /// Takes one request's token for `address` ("" counts as one address).
    bool allow(std::string_view address, Clock::time_point now = Clock::now()) {
        std::lock_guard lock(mutex_);
        auto it = buckets_.find(std::string(address));
        if (it == buckets_.end()) {
            if (buckets_.size() >= max_addresses_) forget_idle(now);
            it = buckets_.emplace(std::string(address), TokenBucket<Clock>(rate_, burst_, now)).first;
        }
        return it->second.try_take(now);
    }

    /// Addresses currently remembered (for tests and metrics).
    std::size_t size() const {
        std::lock_guard lock(mutex_);
        return buckets_.size();
    }

private:
    void forget_idle(Clock::time_point now) {
        for (auto it = buckets_.begin(); it != buckets_.end();)
            it = it->second.available(now) >= burst_ ? buckets_.erase(it) : std::next(it);
        // Every bucket busy: a flood from very many addresses. Forgetting them all errs on the
        // side of serving people rather than growing without bound.
        if (buckets_.size() >= max_addresses_) buckets_.clear();
    }

    double rate_;
    double burst_;
    std::size_t max_addresses_;
    mutable std::mutex mutex_;
    std::unordered_map<std::string, TokenBucket<Clock>> buckets_;
};

}  // namespace server
