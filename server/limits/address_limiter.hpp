#pragma once
// A token bucket per client address, for requests that create something (guest players): a
// per-connection limit would not stop a client that opens a new connection per request.
// Thread-safe.

#include <chrono>
#include <cstddef>
#include <string_view>

#include "server/limits/keyed_buckets.hpp"

namespace server {

/// Allows `burst` requests per address at once and `per_minute` more each minute.
class AddressLimiter {
public:
    using Clock = std::chrono::steady_clock;

    /// `max_addresses` bounds the memory (KeyedTokenBuckets: idle addresses are forgotten first).
    AddressLimiter(double per_minute, double burst, std::size_t max_addresses = 100000)
        : buckets_(per_minute, burst, max_addresses) {}

    /// Takes one request's token for `address` ("" counts as one address).
    bool allow(std::string_view address, Clock::time_point now = Clock::now()) {
        return buckets_.try_take(address, now);
    }

    /// Addresses currently remembered (for tests and metrics).
    std::size_t size() const { return buckets_.size(); }

private:
    KeyedTokenBuckets<Clock> buckets_;
};

}  // namespace server
