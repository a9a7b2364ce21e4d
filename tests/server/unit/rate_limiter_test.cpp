#include <chrono>

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>

#include "server/limits/address_limiter.hpp"
#include "server/limits/keyed_buckets.hpp"
#include "server/limits/rate_limiter.hpp"
#include "server/limits/sign_in_limiter.hpp"

namespace {

// A clock that only moves when a test moves it.
struct ManualClock {
    using duration = std::chrono::nanoseconds;
    using rep = duration::rep;
    using period = duration::period;
    using time_point = std::chrono::time_point<ManualClock>;
    static constexpr bool is_steady = true;
    static inline time_point current{};
    static time_point now() { return current; }
    static void advance(std::chrono::milliseconds by) { current += by; }
};

using Bucket = server::TokenBucket<ManualClock>;
using namespace std::chrono_literals;

}  // namespace

TEST_CASE("a new bucket allows a burst of its size, then nothing", "[rate_limiter]") {
    Bucket bucket(/*rate=*/2, /*burst=*/5);
    for (int i = 0; i < 5; ++i) CHECK(bucket.try_take());
    CHECK_FALSE(bucket.try_take());
    CHECK_FALSE(bucket.try_take());
}

TEST_CASE("the bucket refills at its rate", "[rate_limiter]") {
    Bucket bucket(/*rate=*/4, /*burst=*/4);
    for (int i = 0; i < 4; ++i) REQUIRE(bucket.try_take());
    REQUIRE_FALSE(bucket.try_take());

    ManualClock::advance(200ms);  // 0.8 tokens: not yet one
    CHECK_FALSE(bucket.try_take());
    ManualClock::advance(50ms);   // 1.0
    CHECK(bucket.try_take());
    CHECK_FALSE(bucket.try_take());

    ManualClock::advance(500ms);  // 2 tokens
    CHECK(bucket.try_take());
    CHECK(bucket.try_take());
    CHECK_FALSE(bucket.try_take());
}

TEST_CASE("a long pause refills no more than the burst", "[rate_limiter]") {
    Bucket bucket(/*rate=*/10, /*burst=*/3);
    for (int i = 0; i < 3; ++i) REQUIRE(bucket.try_take());
    ManualClock::advance(1h);
    CHECK(bucket.available() == Catch::Approx(3.0));
    for (int i = 0; i < 3; ++i) CHECK(bucket.try_take());
    CHECK_FALSE(bucket.try_take());
}

TEST_CASE("a steady sender at the rate is never refused", "[rate_limiter]") {
    Bucket bucket(/*rate=*/20, /*burst=*/1);
    for (int i = 0; i < 1000; ++i) {
        REQUIRE(bucket.try_take());
        ManualClock::advance(50ms);
    }
}

TEST_CASE("explicit time points work without the clock", "[rate_limiter]") {
    const auto start = std::chrono::steady_clock::time_point{} + 1h;
    server::TokenBucket<> bucket(/*rate=*/1, /*burst=*/1, start);
    CHECK(bucket.try_take(start));
    CHECK_FALSE(bucket.try_take(start + 999ms));
    CHECK(bucket.try_take(start + 1000ms));
    // A time before the last one refills nothing and does not move the bucket back.
    CHECK_FALSE(bucket.try_take(start));
    CHECK(bucket.try_take(start + 2000ms));
}

TEST_CASE("degenerate settings refuse rather than misbehave", "[rate_limiter]") {
    Bucket no_burst(/*rate=*/100, /*burst=*/0);
    CHECK_FALSE(no_burst.try_take());
    ManualClock::advance(10s);
    CHECK_FALSE(no_burst.try_take());

    Bucket no_refill(/*rate=*/0, /*burst=*/2);
    CHECK(no_refill.try_take());
    CHECK(no_refill.try_take());
    ManualClock::advance(10s);
    CHECK_FALSE(no_refill.try_take());

    Bucket negative(/*rate=*/-5, /*burst=*/-1);
    CHECK_FALSE(negative.try_take());
}

TEST_CASE("the address limiter keeps one bucket per address and bounds its memory",
          "[rate_limiter]") {
    using Clock = server::AddressLimiter::Clock;
    const Clock::time_point t0{};
    server::AddressLimiter limiter(/*per_minute=*/60, /*burst=*/2, /*max_addresses=*/3);
    CHECK(limiter.allow("a", t0));
    CHECK(limiter.allow("a", t0));
    CHECK_FALSE(limiter.allow("a", t0));
    CHECK(limiter.allow("b", t0));             // another address has its own bucket
    CHECK(limiter.allow("a", t0 + 1s));        // one per second refills
    CHECK_FALSE(limiter.allow("a", t0 + 1s));
    CHECK(limiter.allow("c", t0 + 1s));
    CHECK(limiter.size() == 3);
    // Full: the buckets that refilled completely ("b" and "c" after a while) are forgotten.
    CHECK(limiter.allow("d", t0 + 10s));
    CHECK(limiter.size() <= 3);
    CHECK(limiter.allow("d", t0 + 10s));
    CHECK_FALSE(limiter.allow("d", t0 + 10s));
}

TEST_CASE("the sign-in limiter counts only the attempts not given back", "[rate_limiter]") {
    using Clock = server::SignInLimiter::Clock;
    const Clock::time_point t0{};
    server::SignInLimiter limiter(/*per_minute=*/6, /*burst=*/2, /*max_keys=*/2);
    // Successes give their attempt back: any number of them in a row.
    for (int i = 0; i < 10; ++i) {
        REQUIRE(limiter.take("ann", t0));
        limiter.give_back("ann");
    }
    // Failures keep theirs: two, then none until one refills (one every 10 s).
    CHECK(limiter.take("ann", t0));
    CHECK(limiter.take("ann", t0));
    CHECK_FALSE(limiter.take("ann", t0));
    CHECK_FALSE(limiter.take("ann", t0 + 9s));
    CHECK(limiter.take("ann", t0 + 10s));
    // Giving back never fills a bucket past its burst.
    limiter.give_back("bob");  // unknown: nothing
    CHECK(limiter.size() == 1);
    CHECK(limiter.take("bob", t0 + 10s));
    limiter.give_back("bob");
    limiter.give_back("bob");
    CHECK(limiter.take("bob", t0 + 10s));
    CHECK(limiter.take("bob", t0 + 10s));
    CHECK_FALSE(limiter.take("bob", t0 + 10s));
}

TEST_CASE("keyed buckets forget idle keys first, then all when every one is busy",
          "[rate_limiter]") {
    using Clock = std::chrono::steady_clock;
    const Clock::time_point t0{};
    server::KeyedTokenBuckets<Clock> buckets(/*per_minute=*/60, /*burst=*/1, /*max_keys=*/2);
    CHECK(buckets.try_take("a", t0));
    CHECK(buckets.try_take("b", t0 + 500ms));
    // At 1 s "a" is full again and forgotten; "b" is still refilling and is kept, so it stays
    // limited.
    CHECK(buckets.try_take("c", t0 + 1s));
    CHECK(buckets.size() == 2);
    CHECK_FALSE(buckets.try_take("b", t0 + 1s));
    // "b" and "c" both busy: a new key makes it forget them all (and "b" gets a new bucket).
    CHECK(buckets.try_take("d", t0 + 1s));
    CHECK(buckets.size() == 1);
    CHECK(buckets.try_take("b", t0 + 1s));
}
