#include "server/net/websocket_session.hpp"

#include <algorithm>
#include <exception>
#include <iterator>
#include <utility>
#include <variant>

#include <boost/asio/error.hpp>
#include <boost/asio/defer.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/field.hpp>
#include <spdlog/spdlog.h>

#include "server/net/websocket_handshake.hpp"
#include "server/store/token_hash.hpp"

namespace server {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

namespace {

// The io thread's read buffer: every socket the thread reads uses it in turn, so an idle
// socket holds none. Only read_now() uses it, and a read never runs inside another (handlers
// run one at a time on a thread, and nothing a message's handling calls reads inline).
std::array<unsigned char, WebsocketSession::read_chunk_bytes>& thread_buffer() {
    thread_local std::array<unsigned char, WebsocketSession::read_chunk_bytes> buffer;
    return buffer;
}

bool would_block(const error_code& ec) {
    return ec == net::error::would_block || ec == net::error::try_again;
}

// The reason a connection ended, in one word for the log line.
std::string_view failure(const error_code& ec) {
    if (ec == net::error::operation_aborted) return "aborted";
    if (ec == net::error::eof || ec == net::error::connection_reset || ec == net::error::broken_pipe) return "dropped";
    return "error";
}

}  // namespace

WebsocketSession::WebsocketSession(tcp::socket&& socket, Hub& hub, Metrics& metrics, const Config& config,
                                   SessionRegistry& registry, SessionRegistry::Slot slot)
    : socket_(std::move(socket)),
      timer_(socket_.get_executor()),
      hub_(hub),
      metrics_(metrics),
      config_(config),
      registry_(registry),
      slot_(std::move(slot)),
      id_(SessionRegistry::next_connection_id()),
      bucket_(config.messages_per_second, config.message_burst),
      last_heard_(Clock::now()) {
    error_code ec;
    const tcp::endpoint remote = socket_.remote_endpoint(ec);
    if (!ec) remote_ = remote.address().to_string() + ":" + std::to_string(remote.port());
    // Reads and writes are tried at once and return would_block rather than wait: the session
    // waits for readiness itself (wait_readable) or hands the rest of a write to async_write.
    socket_.non_blocking(true, ec);
    budget_.set_rate(config.read_bytes_per_second);
}

// Touches nothing outside the session but its connection slot (the registry outlives the
// io_context): it may be destroyed while the io_context shuts down, after the hub is gone.
// finish() did the bookkeeping already.
WebsocketSession::~WebsocketSession() = default;

void WebsocketSession::run(const boost::beast::http::request<boost::beast::http::string_body>& request,
                           std::string early) {
    push(Outgoing{std::make_shared<const std::string>(
                      ws::switching_protocols(request[boost::beast::http::field::sec_websocket_key])),
                  ws::Opcode::Text, /*raw=*/true});
    opened_ = true;
    metrics_.open_sockets.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("event=ws_open conn={} remote={}", id_, remote_);
    if (!registry_.add(shared_from_this())) {
        start_close(ws::close_code::going_away, "server shutting down", /*flush=*/false);
    } else {
        arm_deadline(handshake_timeout, Deadline::Hello);
    }
    write_now();
    inbox_ = std::move(early);
    resume_reading();
}

// ---------------------------------------------------------------------------------------------
// Reading

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
        error_code ec;
        const std::size_t read =
            socket_.read_some(net::buffer(buffer.data(), std::min(allowed, read_chunk_bytes)), ec);
        if (would_block(ec)) {
            // Everything the socket held is handled: the next bytes wake wait_readable (the
            // reactor is edge-triggered, so it must not be asked before the socket is drained).
            wait_readable();
            break;
        }
        if (ec) {
            finish(ec == net::error::eof && end_why_ != "dropped" ? end_why_ : failure(ec));
            break;
        }
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
    socket_.async_wait(tcp::socket::wait_read, [self = shared_from_this()](error_code ec) {
        self->waiting_ = false;
        if (self->finished_) return;
        if (ec) {
            self->finish(failure(ec));
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
        // A message went to the hub: the rest is handled in a later turn of the strand, after
        // what is already posted to it (the hub's answers among them), and after other
        // connections' turns on this thread.
        yield_ = false;
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

bool WebsocketSession::on_message(std::string_view text) {
    auto parsed = protocol::parse_client_message(text);
    if (auto* error = std::get_if<protocol::ProtocolError>(&parsed)) {
        metrics_.rejected(error->code);
        send(protocol::error_message(*error));
        return true;
    }
    auto& message = std::get<protocol::ClientMessage>(parsed);
    if (const auto* hello = std::get_if<protocol::Hello>(&message.body)) return on_hello(*hello, message.ref);
    if (!authenticated_) {
        reject(protocol::ErrorCode::NotAuthenticated, "the first message must be hello", message.ref);
        return true;
    }
    try {
        yield_ = true;
        hub_.handle(shared_from_this(), std::move(message), text);
    } catch (const std::exception& e) {
        // The hub should not throw; if it does, this connection answers and lives on.
        spdlog::error("event=hub_exception conn={} player={} what=\"{}\"", id_, player_id_, e.what());
        reject(protocol::ErrorCode::Unavailable, "internal error", std::nullopt);
    }
    return true;
}

bool WebsocketSession::on_hello(const protocol::Hello& hello, const protocol::Ref& ref) {
    if (authenticated_) {
        reject(protocol::ErrorCode::WrongPhase, "already authenticated", ref);
        return true;
    }
    token_ = hello.token;
    ack_in_patch_ = hello.ack_in_patch;
    // The protocol version was checked by the parser; only the token is left. A token memory
    // does not know is looked up in the database on the hub's pool; the answer comes back here.
    hub_.identify(hello.token, [self = shared_from_this(), ref](std::variant<Guest, IdentityError> identified) {
        // Posted even when answered at once: on_identified reads on, which must not happen
        // inside the read that is handling this hello.
        net::post(self->socket_.get_executor(), [self, ref, identified = std::move(identified)] {
            self->on_identified(identified, ref);
        });
    });
    return false;
}

void WebsocketSession::on_identified(const std::variant<Guest, IdentityError>& identified, const protocol::Ref& ref) {
    if (finished_) return;
    if (close_code_ != 0) {
        resume_reading();  // keep reading until the client's close frame (or the close deadline)
        return;
    }
    if (auto* why = std::get_if<IdentityError>(&identified)) {
        if (*why == IdentityError::Unavailable)
            reject(protocol::ErrorCode::Unavailable, "temporarily unavailable; try again", ref);
        else
            reject(protocol::ErrorCode::NotAuthenticated, "unknown token", ref);
        resume_reading();
        return;
    }
    const Guest& guest = std::get<Guest>(identified);
    if (!registry_.join_player(guest.id)) {
        // One player's tabs and devices are capped: the others' places stay free.
        spdlog::info("event=ws_player_connections_close conn={} player={}", id_, guest.id);
        reject(protocol::ErrorCode::RateLimited, "too many connections for this player", ref);
        start_close(ws::close_code::policy_error, "too many connections for this player", /*flush=*/true);
        resume_reading();
        return;
    }
    counted_player_ = true;
    player_id_ = guest.id;
    authenticated_ = true;
    cancel_deadline(Deadline::Hello);
    spdlog::info("event=ws_hello conn={} player={}", id_, player_id_);
    send(protocol::welcome_message(guest.id, guest.name));
    // From now on this tab receives what the player is told (lobby events too).
    hub_.connected(shared_from_this());
    resume_reading();
}

void WebsocketSession::reject(protocol::ErrorCode code, std::string_view message, const protocol::Ref& ref) {
    metrics_.rejected(code);
    send(protocol::error_message(code, message, ref));
}

// ---------------------------------------------------------------------------------------------
// Writing

void WebsocketSession::send(std::string text) {
    enqueue(std::make_shared<const std::string>(std::move(text)));
}

void WebsocketSession::deliver(std::shared_ptr<const std::string> message) {
    // Deferred, not posted: called from a match's strand, whose thread is about to be free to
    // write it. A post would wake the other io thread for every viewer of every step (Asio's
    // scheduler wakes an idle thread per posted handler); deferred work waits in this thread's
    // own queue and goes to the shared one, without a wake-up, when the current handler ends.
    net::defer(socket_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
        self->enqueue(std::move(message));
    });
}

void WebsocketSession::close(std::uint16_t code, std::string reason, bool flush) {
    net::post(socket_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason), flush]() mutable {
        self->start_close(code, std::move(reason), flush);
    });
}

void WebsocketSession::post(std::function<void()> work) {
    net::post(socket_.get_executor(), std::move(work));
}

void WebsocketSession::restart() {
    close(ws::close_code::service_restart, "service restart", true);
}

bool WebsocketSession::signed_in_with(std::string_view token) const {
    return !token.empty() && token_ == token;
}

std::string WebsocketSession::session_sha256() const {
    return token_.empty() ? std::string() : store::token_sha256(token_);
}

void WebsocketSession::signed_out() {
    close(close_codes::signed_out, "signed out", true);
}

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
        finish(failure(ec));
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

// ---------------------------------------------------------------------------------------------
// The one timer

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

// ---------------------------------------------------------------------------------------------

void WebsocketSession::finish(std::string_view why) {
    if (finished_) return;
    finished_ = true;
    timer_.cancel();
    drop_waiting();
    inbox_ = std::string();
    message_ = std::string();
    error_code ignored;
    socket_.close(ignored);
    // The socket is gone: its place is free even if a room still holds this object a while.
    slot_ = SessionRegistry::Slot{};
    if (!opened_) return;
    const std::uint16_t code = close_code_ != 0 ? close_code_ : received_code_;
    spdlog::info("event=ws_closed conn={} player={} reason={} code={}", id_, player_id_, why, code);
    metrics_.open_sockets.fetch_sub(1, std::memory_order_relaxed);
    registry_.remove(id_);
    if (counted_player_) registry_.leave_player(player_id_);
    if (authenticated_) hub_.disconnected(shared_from_this());
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
