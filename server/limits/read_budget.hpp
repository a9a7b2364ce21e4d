#pragma once
// How many bytes a WebSocket client may send per second: a Beast RatePolicy for the
// connection's TCP stream (beast::basic_stream), a token bucket of bytes.
//
// Beast handles some frames inside its read operation without ever handing them to us:
// pings (it answers them), pongs, and empty continuation frames (it skips them). A client
// sending those as fast as its link allows would keep a core busy, and no per-message limit
// sees them. Bounding the bytes read per connection bounds that work; an honest client, whose
// messages are small and few, never comes near it. Beyond the budget the server just reads
// slower (TCP pushes back on the sender), and a client that keeps it starved is closed
// (WebsocketSession::starved_before_close).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <functional>
#include <limits>

#include <boost/beast/core/rate_policy.hpp>

namespace server {

/// A RatePolicy: at most `bytes_per_second` read per second on average, `2 *` at once; writes
/// are not limited (the outgoing queue bounds them).
class ReadBudget {
public:
    using Clock = std::chrono::steady_clock;

    /// Unlimited until set_rate is called (Beast default-constructs the policy).
    ReadBudget() = default;

    /// Reads at most `bytes_per_second` per second from now on (0: unlimited).
    void set_rate(std::size_t bytes_per_second) {
        rate_ = static_cast<double>(bytes_per_second);
        burst_ = 2 * rate_;
        tokens_ = burst_;
        last_ = Clock::now();
    }

    /// Called (inside the stream's read, on its executor) each time a read has to wait for the
    /// budget: the client sends faster than the rate, beyond its burst.
    void on_starved(std::function<void()> callback) { on_starved_ = std::move(callback); }

    /// Bytes read through this policy so far (tests, logs).
    std::size_t bytes_read() const { return read_; }

private:
    friend class boost::beast::rate_policy_access;

    std::size_t available_read_bytes() {
        if (rate_ <= 0) return std::numeric_limits<std::size_t>::max();
        const auto now = Clock::now();
        tokens_ = std::min(burst_, tokens_ + std::chrono::duration<double>(now - last_).count() * rate_);
        last_ = now;
        // 0 makes Beast wait for its once-a-second tick before it asks again.
        if (tokens_ >= 1) return static_cast<std::size_t>(tokens_);
        if (on_starved_) on_starved_();
        return 0;
    }
    std::size_t available_write_bytes() { return std::numeric_limits<std::size_t>::max(); }
    void transfer_read_bytes(std::size_t n) {
        read_ += n;
        if (rate_ > 0) tokens_ -= static_cast<double>(n);
    }
    void transfer_write_bytes(std::size_t) {}
    void on_timer() {}

    double rate_ = 0;
    double burst_ = 0;
    double tokens_ = 0;
    Clock::time_point last_{};
    std::size_t read_ = 0;
    std::function<void()> on_starved_;
};

}  // namespace server
