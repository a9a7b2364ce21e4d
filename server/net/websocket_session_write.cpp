#include "server/net/websocket_session.hpp"

// A WebSocket session's writing and closing: the bounded queue, frames written at once and
// gathered, the closing handshake from either side (websocket_session.hpp).

#include <algorithm>
#include <array>
#include <memory>
#include <string>

#include <boost/asio/write.hpp>

#include "server/log/log.hpp"
#include "server/net/socket_status.hpp"

namespace server {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using boost::system::error_code;
using ws::end_reason;
using ws::would_block;

void WebsocketSession::enqueue(std::shared_ptr<const std::string> message) {
    if (finished_ || close_code_ != 0 || !opened_) return;
    push(Outgoing{std::move(message)});
    if (over_limits()) {
        too_slow();
        return;
    }
    write_now();
}

void WebsocketSession::push(Outgoing frame) {
    queued_bytes_ += frame.payload->size();
    queue_.push_back(std::move(frame));
    update_queue_size();
}

void WebsocketSession::push_control(ws::Opcode opcode, std::string payload) {
    if (finished_ || close_queued_) return;
    push(Outgoing{std::make_shared<const std::string>(std::move(payload)), opcode});
    // Pongs wait in the same bounded queue: a client that pings and never reads is cut.
    if (over_limits()) {
        too_slow();
        return;
    }
    write_now();
}

bool WebsocketSession::over_limits() const {
    // Bytes as well as messages: a shared list counts in full in every queue holding it, since
    // any one of them may be the last to let it go.
    return queue_.size() - in_flight_ > config_.max_queued_messages || queued_bytes_ > config_.max_queued_bytes;
}

void WebsocketSession::too_slow() {
    // The client reads slower than we write: cut it before the queue can grow further. It
    // reconnects and resumes with match.open since:<version>.
    spdlog::info("event=ws_too_slow conn={} player={} queued={} bytes={}", id_, player_id_, queue_.size() - in_flight_,
                 queued_bytes_);
    metrics_.rejected(protocol::ErrorCode::Busy);
    start_close(close_codes::too_slow, "too slow", /*flush=*/false);
}

void WebsocketSession::write_now() {
    while (!writing_ && !finished_ && queue_.size() > in_flight_) {
        // Up to max_batch frames in one gathered write: each a header (in headers_) and its
        // payload, written from the shared string itself.
        in_flight_ = std::min(queue_.size(), max_batch);
        headers_.resize(in_flight_ * ws::max_server_header_bytes);
        std::array<net::const_buffer, 2 * max_batch> buffers{};
        std::size_t count = 0;
        std::size_t total = 0;
        std::size_t at = 0;
        for (std::size_t i = 0; i < in_flight_; ++i) {
            const Outgoing& frame = queue_[i];
            if (!frame.raw) {
                auto* header = reinterpret_cast<unsigned char*>(headers_.data()) + at;
                const std::size_t size = ws::write_header(header, frame.opcode, frame.payload->size());
                buffers[count++] = net::buffer(header, size);
                at += size;
                total += size;
            }
            buffers[count++] = net::buffer(*frame.payload);
            total += frame.payload->size();
            queued_bytes_ -= frame.payload->size();
        }
        update_queue_size();
        // Tried at once: on a socket whose buffer has room (nearly always) the frames are out
        // without a completion handler, and without waking another thread for one.
        error_code ec;
        std::size_t sent = socket_.write_some(std::span<const net::const_buffer>(buffers.data(), count), ec);
        if (would_block(ec)) {
            ec = {};
            sent = 0;
        }
        if (ec) {
            on_written(ec);
            return;
        }
        if (sent == total) {
            written();
            continue;
        }
        // The socket's buffer is full: the rest goes when the client reads.
        for (std::size_t i = 0; i < count && sent > 0; ++i) {
            const std::size_t skip = std::min(sent, buffers[i].size());
            buffers[i] += skip;
            sent -= skip;
        }
        writing_ = true;
        net::async_write(socket_, buffers, [self = shared_from_this()](error_code failed, std::size_t) {
            self->writing_ = false;
            self->on_written(failed);
        });
        return;
    }
}

void WebsocketSession::on_written(error_code ec) {
    if (ec) {
        spdlog::debug("event=ws_write_failed conn={} error=\"{}\"", id_, ec.message());
        in_flight_ = 0;
        finish(end_reason(ec));
        return;
    }
    written();
    write_now();
}

void WebsocketSession::written() {
    for (std::size_t i = 0; i < in_flight_; ++i) {
        const Outgoing& frame = queue_[i];
        if (frame.raw) continue;
        if (frame.opcode == ws::Opcode::Close) {
            close_written_ = true;
        } else if (!ws::is_control(frame.opcode)) {
            metrics_.messages_out.fetch_add(1, std::memory_order_relaxed);
        }
    }
    queue_.erase(queue_.begin(), queue_.begin() + static_cast<std::ptrdiff_t>(in_flight_));
    in_flight_ = 0;
    if (queue_.empty() && queue_.capacity() > 8) queue_.shrink_to_fit();  // after a burst
    if (headers_.capacity() > ws::max_server_header_bytes + 6) std::string().swap(headers_);
    update_queue_size();
    if (finished_) return;
    if (close_written_) {
        if (close_received_ || failed_) begin_drain();
    } else if (close_code_ != 0 && queue_.empty()) {
        queue_close();  // what was to be flushed is out: now the close frame
    }
}

// ---------------------------------------------------------------------------------------------
// Closing

void WebsocketSession::start_close(std::uint16_t code, std::string reason, bool flush) {
    if (finished_) return;
    if (!flush) {
        drop_waiting();
    }
    if (close_code_ != 0) return;  // the first close wins (but a later one may still drop the queue)
    close_code_ = code;
    close_reason_ = std::move(reason);
    if (!opened_) return;
    // An abuser gets a moment to read its close frame, not a polite wait for its answer.
    arm_deadline(cut_ ? cut_timeout : handshake_timeout, Deadline::Closing);
    if (queue_.size() == in_flight_ && !writing_) {
        queue_close();
        write_now();
    }
}

void WebsocketSession::cut(std::uint16_t code, std::string reason) {
    cut_ = true;
    start_close(code, std::move(reason), /*flush=*/false);
}

void WebsocketSession::fail(std::uint16_t code, std::string_view reason, std::string_view why) {
    if (finished_) return;
    // The client broke the protocol: it is told why and not waited for.
    end_why_ = why;
    failed_ = true;
    cut_ = true;
    paused_ = false;
    if (close_written_) {
        begin_drain();
        return;
    }
    // Our close frame may be queued already (it is the queue's last frame): then it goes as
    // it is, and the drain follows it (written()).
    if (!close_queued_) {
        drop_waiting();
        close_code_ = code;
        close_reason_ = std::string(reason);
        arm_deadline(cut_timeout, Deadline::Closing);
        queue_close();
    }
    write_now();
}

void WebsocketSession::queue_close() {
    if (close_queued_) return;
    close_queued_ = true;
    // A client's close without a code is answered without one.
    std::string payload =
        close_code_ == ws::close_code::no_status ? std::string() : ws::close_payload(close_code_, close_reason_);
    close_reason_ = std::string();
    if (end_why_ == "dropped") end_why_ = "closed";
    push(Outgoing{std::make_shared<const std::string>(std::move(payload)), ws::Opcode::Close});
}

void WebsocketSession::begin_drain() {
    if (draining_ || finished_) return;
    draining_ = true;
    paused_ = false;
    // The server ends the TCP connection first (RFC 6455 7.1.1), then reads until the client's
    // end: closing with unread bytes would reset the connection, and the client might lose our
    // close frame.
    error_code ignored;
    socket_.shutdown(tcp::socket::shutdown_send, ignored);
    arm_deadline(cut_timeout, Deadline::Closing);
    read_soon();
}

void WebsocketSession::drop_waiting() {
    // Frames of a write in flight stay until it completes (the kernel may still read them).
    queue_.erase(queue_.begin() + static_cast<std::ptrdiff_t>(in_flight_), queue_.end());
    queued_bytes_ = 0;
    update_queue_size();
}

void WebsocketSession::update_queue_size() {
    const std::size_t size = queue_.size() - in_flight_;
    queued_.store(size, std::memory_order_relaxed);
    if (size > peak_queued_.load(std::memory_order_relaxed)) peak_queued_.store(size, std::memory_order_relaxed);
    if (queued_bytes_ > peak_queued_bytes_.load(std::memory_order_relaxed))
        peak_queued_bytes_.store(queued_bytes_, std::memory_order_relaxed);
}

}  // namespace server
