#include "server/net/websocket_session.hpp"

// A WebSocket session's reading: the socket read into its io thread's buffer, frames parsed
// and checked where they lie, messages and control frames handled (websocket_session.hpp).

#include <algorithm>
#include <array>
#include <string>

#include <boost/asio/post.hpp>

#include "server/log/log.hpp"
#include "server/net/socket_status.hpp"

namespace server {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;
using ws::end_reason;
using ws::would_block;

namespace {

// The io thread's read buffer: every socket the thread reads uses it in turn, so an idle
// socket holds none. Only read_now() uses it, and a read never runs inside another (handlers
// run one at a time on a thread, and nothing a message's handling calls reads inline).
std::array<unsigned char, WebsocketSession::read_chunk_bytes>& thread_buffer() {
    thread_local std::array<unsigned char, WebsocketSession::read_chunk_bytes> buffer;
    return buffer;
}

}  // namespace

void WebsocketSession::read_now() {
    if (reading_) return;
    reading_ = true;
    auto& buffer = thread_buffer();
    while (!finished_ && !paused_) {
        const std::size_t allowed = budget_.available();
        if (allowed == 0) {
            starved();
            break;
        }
        if (drained_) {
            // The last read was short: the socket held less than asked, so it was empty after
            // it. A read now would only say so (EAGAIN, a system call per message); the wait
            // re-arms the socket's readiness instead (wait_readable).
            wait_readable();
            break;
        }
        error_code ec;
        const std::size_t asked = std::min(allowed, read_chunk_bytes);
        const std::size_t read = socket_.read_some(net::buffer(buffer.data(), asked), ec);
        if (would_block(ec)) {
            // Everything the socket held is handled: the next bytes wake wait_readable.
            wait_readable();
            break;
        }
        if (ec) {
            finish(ec == net::error::eof && end_why_ != "dropped" ? end_why_ : end_reason(ec));
            break;
        }
        drained_ = read < asked;
        budget_.spend(read);
        last_heard_ = Clock::now();
        pinged_ = false;
        if (!feed(std::span<unsigned char>(buffer.data(), read))) break;
    }
    reading_ = false;
}

void WebsocketSession::read_soon() {
    if (reading_ || waiting_ || finished_) return;
    net::post(socket_.get_executor(), [self = shared_from_this()] { self->read_now(); });
}

void WebsocketSession::starved() {
    // Counted once a second at most; a client that keeps the budget spent is cut, not slowed
    // down forever: an honest client never comes near it.
    const auto now = Clock::now();
    if (now - last_starved_ >= std::chrono::milliseconds(900)) {
        last_starved_ = now;
        if (++starved_ == starved_before_close && close_code_ == 0) {
            metrics_.rejected(protocol::ErrorCode::RateLimited);
            spdlog::info("event=ws_byte_flood_close conn={} player={}", id_, player_id_);
            cut(ws::close_code::policy_error, "sending too fast");
        }
    }
    budget_at_ = now + budget_retry;
    schedule();
}

void WebsocketSession::wait_readable() {
    if (waiting_ || finished_) return;
    waiting_ = true;
    // Safe after a short read as well as after EAGAIN: Asio's epoll reactor starts a wait (no
    // speculative attempt) with EPOLL_CTL_MOD on the socket, which has the kernel look at its
    // readiness again and report bytes that came since the read, though the reactor is
    // edge-triggered and their edge passed while nothing waited (epoll_reactor::start_op).
    socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
        self->waiting_ = false;
        self->drained_ = false;
        if (self->finished_) return;
        if (ec) {
            self->finish(end_reason(ec));
            return;
        }
        self->read_now();
    });
}

void WebsocketSession::resume_reading() {
    paused_ = false;
    if (!inbox_.empty() && !feed({})) return;
    read_now();
}

bool WebsocketSession::feed(std::span<unsigned char> fresh) {
    // After what the last read left (a frame cut off, or what followed a hello), if anything.
    std::string joined;
    std::span<unsigned char> bytes = fresh;
    if (!inbox_.empty()) {
        joined = std::move(inbox_);
        inbox_.clear();
        joined.append(reinterpret_cast<const char*>(fresh.data()), fresh.size());
        bytes = std::span<unsigned char>(reinterpret_cast<unsigned char*>(joined.data()), joined.size());
    }
    const std::size_t used = consume(bytes);
    if (finished_) return false;
    // A frame cut off by the end of the read (at most a header and max_frame_bytes), or what
    // follows a hello that holds reading back: kept, still masked, for the next read.
    inbox_.assign(reinterpret_cast<const char*>(bytes.data()) + used, bytes.size() - used);
    if (yield_) {
        yield_ = false;
        // Nothing is left of the last read and the socket was empty after it: the next bytes
        // come through wait_readable, in a later turn anyway, and a turn posted only to start
        // that wait would cost a hand-over per step (docs/benchmarks.md).
        if (inbox_.empty() && drained_) return !paused_;
        // A message went to the hub: the rest is handled in a later turn of the strand, after
        // what is already posted to it (the hub's answers among them), and after other
        // connections' turns on this thread.
        net::post(socket_.get_executor(), [self = shared_from_this()] { self->resume_reading(); });
        return false;
    }
    return !paused_;
}

std::size_t WebsocketSession::consume(std::span<unsigned char> bytes) {
    std::size_t used = 0;
    while (!finished_ && !paused_ && !yield_) {
        // After the client's close frame, or once our side is shut, nothing more is handled.
        if (close_received_ || draining_) return bytes.size();
        const std::span<unsigned char> rest = bytes.subspan(used);
        ws::FrameHeader header;
        const ws::HeaderStatus status = ws::read_header(rest, header);
        if (status == ws::HeaderStatus::Incomplete) break;
        if (status == ws::HeaderStatus::ProtocolError) {
            fail(ws::close_code::protocol_error, "protocol error", "protocol_error");
            return bytes.size();
        }
        if (!ws::is_control(header.opcode)) {
            // A continuation continues a message; anything else begins one.
            if ((header.opcode == ws::Opcode::Continuation) != in_message_) {
                fail(ws::close_code::protocol_error, "protocol error", "protocol_error");
                return bytes.size();
            }
            // Judged on the header: a message over the limit is never buffered.
            if (header.length > config_.max_frame_bytes - std::min(message_.size(), config_.max_frame_bytes)) {
                metrics_.rejected(protocol::ErrorCode::FrameTooLarge);
                spdlog::info("event=ws_frame_too_large conn={} limit={}", id_, config_.max_frame_bytes);
                fail(ws::close_code::too_big, "message too big", "frame_too_large");
                return bytes.size();
            }
        }
        if (rest.size() - header.size < header.length) break;  // the payload is not all here yet
        const std::span<unsigned char> payload = rest.subspan(header.size, static_cast<std::size_t>(header.length));
        ws::unmask(payload, header.mask);
        used += header.size + payload.size();
        on_frame(header, payload);
    }
    return used;
}

void WebsocketSession::on_frame(const ws::FrameHeader& header, std::span<unsigned char> payload) {
    if (header.opcode == ws::Opcode::Close) {
        on_close_frame(payload);
        return;
    }
    if (ws::is_control(header.opcode)) {
        on_control(header.opcode, payload);
        return;
    }
    const std::string_view bytes(reinterpret_cast<const char*>(payload.data()), payload.size());
    if (header.opcode != ws::Opcode::Continuation) message_text_ = header.opcode == ws::Opcode::Text;
    if (!header.fin) {
        // A fragment: the rest of the message must follow within fragment_timeout (before the
        // hello, the hello deadline covers it; while closing, the closing deadline does).
        if (!in_message_ && authenticated_ && close_code_ == 0) arm_deadline(config_.fragment_timeout, Deadline::Fragment);
        in_message_ = true;
        message_.append(bytes);
        return;
    }
    if (!in_message_) {
        on_data(bytes);  // one frame, handled where it lies: the common case
        return;
    }
    in_message_ = false;
    cancel_deadline(Deadline::Fragment);
    std::string whole = std::move(message_);
    message_ = std::string();
    whole.append(bytes);
    on_data(whole);
}

void WebsocketSession::on_data(std::string_view text) {
    if (message_text_ && !ws::is_utf8(text)) {
        fail(ws::close_code::bad_payload, "text is not UTF-8", "bad_payload");
        return;
    }
    metrics_.messages_in.fetch_add(1, std::memory_order_relaxed);
    if (close_code_ != 0) return;  // closing: only the client's close frame matters now
    if (!bucket_.try_take()) {
        ++strikes_;
        reject(protocol::ErrorCode::RateLimited, "too many messages; this one was dropped", std::nullopt);
        if (strikes_ >= config_.rate_strikes_before_close) {
            spdlog::info("event=ws_rate_limit_close conn={} player={} strikes={}", id_, player_id_, strikes_);
            start_close(ws::close_code::policy_error, "rate limit exceeded", /*flush=*/true);
        }
        return;
    }
    // Strikes count drops in a row: a client that slows down to the rate is limited, not cut.
    strikes_ = 0;
    if (!message_text_) {
        reject(protocol::ErrorCode::MalformedJson, "only text frames are accepted", std::nullopt);
        return;
    }
    // A hello waiting for the database holds the reading back: what the client sends after it
    // is read once the hello is answered, so it never meets an unauthenticated session.
    if (!on_message(text)) paused_ = true;
}

void WebsocketSession::on_control(ws::Opcode opcode, std::span<const unsigned char> payload) {
    if (close_code_ != 0 || finished_) return;
    // Pings and pongs cost the same as messages: a client pinging as fast as it can is cut.
    if (bucket_.try_take()) {
        control_strikes_ = 0;
    } else if (++control_strikes_ >= config_.rate_strikes_before_close) {
        metrics_.rejected(protocol::ErrorCode::RateLimited);
        spdlog::info("event=ws_control_flood_close conn={} player={}", id_, player_id_);
        cut(ws::close_code::policy_error, "too many control frames");
        return;
    }
    if (opcode == ws::Opcode::Ping) {
        push_control(ws::Opcode::Pong, std::string(reinterpret_cast<const char*>(payload.data()), payload.size()));
    }
}

void WebsocketSession::on_close_frame(std::span<const unsigned char> payload) {
    const std::optional<ws::CloseFrame> frame = ws::read_close(payload);
    if (!frame) {
        fail(ws::close_code::protocol_error, "invalid close frame", "protocol_error");
        return;
    }
    close_received_ = true;
    received_code_ = frame->code;
    end_why_ = "closed";
    if (close_written_) {
        begin_drain();  // the closing handshake is complete
        return;
    }
    if (close_queued_) return;  // begin_drain() once ours is written
    // The client closes: what was queued for it is dropped, and its code answered (ours, if we
    // were about to close anyway).
    drop_waiting();
    if (close_code_ == 0) {
        close_code_ = frame->code;
        close_reason_.clear();
    }
    arm_deadline(cut_timeout, Deadline::Closing);
    queue_close();
    write_now();
}

}  // namespace server
