#include "server/net/websocket_session.hpp"

// A WebSocket session's one timer: the hello, fragment and closing deadlines, the idle ping and
// drop, and the byte budget's retry (websocket_session.hpp).

#include <algorithm>
#include <string>

#include "server/log/log.hpp"
#include "server/net/socket_status.hpp"

namespace server {

namespace net = boost::asio;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

void WebsocketSession::arm_deadline(Clock::duration after, Deadline what) {
    deadline_ = what;
    deadline_at_ = Clock::now() + after;
    schedule();
}

void WebsocketSession::cancel_deadline(Deadline what) {
    // The timer is left as it is: when it fires, it finds nothing due and waits for the next.
    if (deadline_ == what) deadline_.reset();
}

Clock::time_point WebsocketSession::idle_due() const {
    if (config_.idle_timeout <= Clock::duration::zero()) return Clock::time_point::max();
    // The ping at half the idle timeout (unless one went out, or the close frame did), the
    // end of the connection at the whole of it.
    const bool ping = !pinged_ && !close_queued_;
    return last_heard_ + (ping ? std::chrono::duration_cast<Clock::duration>(config_.idle_timeout) / 2
                               : std::chrono::duration_cast<Clock::duration>(config_.idle_timeout));
}

void WebsocketSession::schedule() {
    if (finished_) return;
    Clock::time_point due = idle_due();
    if (deadline_) due = std::min(due, deadline_at_);
    if (budget_at_ != Clock::time_point{}) due = std::min(due, budget_at_);
    if (due == Clock::time_point::max()) return;
    // Armed for earlier already: that wait looks again when it fires (data since then only
    // moves the idle time later, so nothing is re-armed per message).
    if (timer_armed_ && timer_at_ <= due) return;
    timer_armed_ = true;
    timer_at_ = due;
    timer_.expires_at(due);  // a later wait still pending ends with operation_aborted
    timer_.async_wait([self = shared_from_this()](error_code ec) { self->on_timer(ec); });
}

void WebsocketSession::on_timer(error_code ec) {
    if (ec || finished_) return;  // replaced by an earlier wait, or the connection ended
    timer_armed_ = false;
    const auto now = Clock::now();
    if (deadline_ && now >= deadline_at_) {
        const Deadline what = *deadline_;
        deadline_.reset();
        on_deadline(what);
        if (finished_) return;
    }
    if (config_.idle_timeout > Clock::duration::zero()) {
        if (now - last_heard_ >= config_.idle_timeout) {
            spdlog::info("event=ws_idle_timeout conn={} player={}", id_, player_id_);
            finish("timeout");
            return;
        }
        if (!pinged_ && !close_queued_ && now >= idle_due()) {
            pinged_ = true;
            push_control(ws::Opcode::Ping, std::string());
            if (finished_) return;
        }
    }
    if (budget_at_ != Clock::time_point{} && now >= budget_at_) {
        budget_at_ = Clock::time_point{};
        read_now();
        if (finished_) return;
    }
    schedule();
}

void WebsocketSession::on_deadline(Deadline what) {
    if (what == Deadline::Fragment) {
        if (!in_message_ || close_code_ != 0) return;
        // Half a message held open (a trickle of fragments, or empty ones): cut.
        metrics_.rejected(protocol::ErrorCode::RateLimited);
        spdlog::info("event=ws_fragment_timeout conn={} player={}", id_, player_id_);
        cut(ws::close_code::policy_error, "message not completed in time");
    } else if (what == Deadline::Closing) {
        // The client never completed the closing handshake (or never read our last write, or
        // never ended the connection): drop it.
        spdlog::info("event=ws_close_timeout conn={}", id_);
        finish(failed_ ? end_why_ : std::string_view("timeout"));
    } else if (!authenticated_) {
        metrics_.rejected(protocol::ErrorCode::NotAuthenticated);
        start_close(ws::close_code::policy_error, "hello expected", /*flush=*/true);
    }
}

}  // namespace server
