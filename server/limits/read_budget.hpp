#pragma once
// How many bytes a WebSocket client may send per second: a token bucket of bytes that the
// session (websocket_session.hpp) asks before each read of its socket.
//
// Some frames are handled without a message ever reaching the hub: pings (answered), pongs,
// and empty continuation frames (nothing to add). A client
// sending those as fast as its link allows would keep a core busy, and no per-message limit
// sees them. Bounding the bytes read per connection bounds that work; an honest client, whose
// messages are small and few, never comes near it. Beyond the budget the server just reads
// slower (TCP pushes back on the sender), and a client that keeps it starved is closed
// (WebsocketSession::starved_before_close).

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <limits>

namespace server {

/// At most `bytes_per_second` read per second on average, `2 *` at once; writes are not limited
/// (the outgoing queue bounds them).
class ReadBudget {
public:
    using Clock = std::chrono::steady_clock;

    /// Unlimited until set_rate is called.
    ReadBudget() = default;

    /// Reads at most `bytes_per_second` per second from now on (0: unlimited).
    void set_rate(std::size_t bytes_per_second) {
        rate_ = static_cast<double>(bytes_per_second);
        burst_ = 2 * rate_;
        tokens_ = burst_;
        last_ = Clock::now();
    }

    /// Bytes read through this policy so far (tests, logs).
    std::size_t bytes_read() const { return read_; }

    /// How many bytes may be read now; 0 when the budget is spent (the client sends faster than
    /// the rate, beyond its burst): the reader waits a while and asks again.
    std::size_t available() {
        if (rate_ <= 0) return std::numeric_limits<std::size_t>::max();
        const auto now = Clock::now();
        tokens_ = std::min(burst_, tokens_ + std::chrono::duration<double>(now - last_).count() * rate_);
        last_ = now;
        if (tokens_ >= 1) return static_cast<std::size_t>(tokens_);
        return 0;
    }

    /// Counts `n` bytes read.
    void spend(std::size_t n) {
        read_ += n;
        if (rate_ > 0) tokens_ -= static_cast<double>(n);
    }

private:
    double rate_ = 0;
    double burst_ = 0;
    double tokens_ = 0;
    Clock::time_point last_{};
    std::size_t read_ = 0;
};

}  // namespace server
