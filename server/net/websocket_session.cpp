#include "server/net/websocket_session.hpp"

#include <algorithm>
#include <exception>
#include <limits>
#include <utility>
#include <variant>

#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/version.hpp>
#include <boost/beast/websocket/error.hpp>
#include <spdlog/spdlog.h>

#include "server/store/token_hash.hpp"

namespace server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

namespace {

// The reason a session ended, in one word for the log line.
std::string_view end_reason(const beast::error_code& ec) {
    if (ec == websocket::error::closed) return "closed";
    if (ec == beast::error::timeout) return "timeout";
    if (ec == websocket::error::message_too_big) return "frame_too_large";
    if (ec == net::error::operation_aborted) return "aborted";
    if (ec == net::error::eof || ec == net::error::connection_reset || ec == net::error::broken_pipe) {
        return "dropped";
    }
    return "error";
}

}  // namespace

WebsocketSession::WebsocketSession(tcp::socket&& socket, Hub& hub, Metrics& metrics, const Config& config,
                                   SessionRegistry& registry, SessionRegistry::Slot slot)
    : ws_(std::move(socket)),
      deadline_(ws_.get_executor()),
      hub_(hub),
      metrics_(metrics),
      config_(config),
      registry_(registry),
      slot_(std::move(slot)),
      id_(SessionRegistry::next_connection_id()),
      bucket_(config.messages_per_second, config.message_burst) {
    beast::error_code ec;
    const tcp::endpoint remote = beast::get_lowest_layer(ws_).socket().remote_endpoint(ec);
    if (!ec) remote_ = remote.address().to_string() + ":" + std::to_string(remote.port());
}

// Touches nothing outside the session but its connection slot (the registry outlives the
// io_context): it may be destroyed while the io_context shuts down, after the hub is gone.
// finish() did the bookkeeping already.
WebsocketSession::~WebsocketSession() = default;

void WebsocketSession::run(beast::http::request<beast::http::string_body> request) {
    // The WebSocket stream has its own timeouts; the TCP stream's would cut idle sessions.
    beast::get_lowest_layer(ws_).expires_never();
    websocket::stream_base::timeout timeouts{};
    timeouts.handshake_timeout = handshake_timeout;
    timeouts.idle_timeout = config_.idle_timeout;
    timeouts.keep_alive_pings = true;
    ws_.set_option(timeouts);
    ws_.set_option(websocket::stream_base::decorator([](websocket::response_type& response) {
        response.set(beast::http::field::server, "santorini-server");
    }));
    ws_.read_message_max(config_.max_frame_bytes);
    beast::get_lowest_layer(ws_).rate_policy().set_rate(config_.read_bytes_per_second);
    // A client that keeps sending beyond the byte budget (its reads wait about a second each
    // time) is not slowed down forever but cut: an honest client never comes near it.
    beast::get_lowest_layer(ws_).rate_policy().on_starved([this] {
        // Counted once a second at most: Beast may ask several times while it waits.
        const auto now = std::chrono::steady_clock::now();
        if (now - last_starved_ < std::chrono::milliseconds(900)) return;
        last_starved_ = now;
        if (++starved_ != starved_before_close || pending_close_ || finished_) return;
        metrics_.rejected(protocol::ErrorCode::RateLimited);
        spdlog::info("event=ws_byte_flood_close conn={} player={}", id_, player_id_);
        net::post(ws_.get_executor(), [self = shared_from_this()] {
            self->cut_ = true;
            self->start_close(websocket::close_code::policy_error, "sending too fast", /*flush=*/false);
        });
    });
    // Called inside our own read operation, on the strand; the stream (and so this callback)
    // lives as long as the session.
    ws_.control_callback([this](websocket::frame_type kind, beast::string_view) { on_control(kind); });
    // Memory per socket: Beast keeps a fixed 1.5 KB read buffer inside the stream and allocates
    // a write buffer (write_buffer_bytes) only for a client or with permessage-deflate, which we
    // never enable (its zlib state costs hundreds of KB per socket); a server's message is
    // written straight from our shared string. One frame per message: our JSON is small, and
    // without fragments every message costs one frame header.
    ws_.auto_fragment(false);
    ws_.text(true);
    ws_.async_accept(request, beast::bind_front_handler(&WebsocketSession::on_accept, shared_from_this()));
}

void WebsocketSession::on_accept(beast::error_code ec) {
    if (ec) {
        spdlog::debug("event=ws_handshake_failed conn={} remote={} error=\"{}\"", id_, remote_, ec.message());
        finish(ec);
        return;
    }
    opened_ = true;
    metrics_.open_sockets.fetch_add(1, std::memory_order_relaxed);
    spdlog::info("event=ws_open conn={} remote={}", id_, remote_);
    if (!registry_.add(shared_from_this())) {
        start_close(websocket::close_code::going_away, "server shutting down", /*flush=*/false);
    } else {
        arm_deadline(handshake_timeout, Deadline::Hello);
    }
    do_read();
}

void WebsocketSession::do_read() {
    // Beast prepares the buffer as soon as the read starts, before any frame has arrived: as
    // much as the buffer's max_size allows, up to its 1536-byte tcp_frame_size. Between
    // messages (where an idle connection waits) the buffer is therefore let go and capped at
    // first_read_bytes; a longer message arrives in more than one piece, the cap lifted once
    // it has begun, and is let go as soon as it has been handled. Frame by frame rather than a
    // whole message: a fragmented message shows that it has begun, and gets a deadline.
    if (!in_message_) {
        buffer_.shrink_to_fit();
        buffer_.max_size(first_read_bytes);
    } else {
        buffer_.max_size(std::numeric_limits<std::size_t>::max());
    }
    ws_.async_read_some(buffer_, 0, beast::bind_front_handler(&WebsocketSession::on_read, shared_from_this()));
}

void WebsocketSession::on_control(websocket::frame_type kind) {
    if (kind == websocket::frame_type::close || pending_close_ || finished_) return;
    // Pings and pongs cost the same as messages: a client pinging as fast as it can is cut.
    if (bucket_.try_take()) {
        control_strikes_ = 0;
        return;
    }
    if (++control_strikes_ < config_.rate_strikes_before_close) return;
    metrics_.rejected(protocol::ErrorCode::RateLimited);
    spdlog::info("event=ws_control_flood_close conn={} player={}", id_, player_id_);
    // Not from inside Beast's read operation: on the strand, right after it.
    net::post(ws_.get_executor(), [self = shared_from_this()] {
        self->cut_ = true;
        self->start_close(websocket::close_code::policy_error, "too many control frames", /*flush=*/false);
    });
}

void WebsocketSession::on_read(beast::error_code ec, std::size_t) {
    if (ec) {
        if (ec == websocket::error::message_too_big) {
            // Beast has already sent close 1009 and torn the connection down.
            metrics_.rejected(protocol::ErrorCode::FrameTooLarge);
            spdlog::info("event=ws_frame_too_large conn={} limit={}", id_, config_.max_frame_bytes);
        }
        finish(ec);
        return;
    }
    if (!ws_.is_message_done()) {
        // A fragment: the rest of the message must follow within fragment_timeout (before the
        // hello, the hello deadline covers it; while closing, the closing deadline does).
        if (!in_message_ && authenticated_ && !pending_close_) arm_deadline(config_.fragment_timeout, Deadline::Fragment);
        in_message_ = true;
        do_read();
        return;
    }
    if (in_message_) {
        in_message_ = false;
        if (authenticated_ && !pending_close_) deadline_.cancel();
    }
    metrics_.messages_in.fetch_add(1, std::memory_order_relaxed);
    if (pending_close_) {
        // Closing: keep reading until the client's close frame, ignore everything else.
        buffer_.consume(buffer_.size());
        do_read();
        return;
    }
    if (!bucket_.try_take()) {
        buffer_.consume(buffer_.size());
        ++strikes_;
        reject(protocol::ErrorCode::RateLimited, "too many messages; this one was dropped", std::nullopt);
        if (strikes_ >= config_.rate_strikes_before_close) {
            spdlog::info("event=ws_rate_limit_close conn={} player={} strikes={}", id_, player_id_, strikes_);
            start_close(websocket::close_code::policy_error, "rate limit exceeded", /*flush=*/true);
        }
        do_read();
        return;
    }
    // Strikes count drops in a row: a client that slows down to the rate is limited, not cut.
    strikes_ = 0;
    if (!ws_.got_text()) {
        buffer_.consume(buffer_.size());
        reject(protocol::ErrorCode::MalformedJson, "only text frames are accepted", std::nullopt);
        do_read();
        return;
    }
    // Parsed where it lies (a flat_buffer is contiguous); the parser copies what it keeps.
    const std::string_view text(static_cast<const char*>(buffer_.data().data()), buffer_.size());
    const bool read_on = on_message(text);
    buffer_.consume(buffer_.size());
    // A hello waiting for the database holds the reading back: what the client sends after it
    // is read once the hello is answered, so it never meets an unauthenticated session.
    if (read_on) do_read();
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
        // Posted even when answered at once: on_identified starts the next read, which must not
        // happen while on_read still holds the buffer.
        net::post(self->ws_.get_executor(), [self, ref, identified = std::move(identified)] {
            self->on_identified(identified, ref);
        });
    });
    return false;
}

void WebsocketSession::on_identified(const std::variant<Guest, IdentityError>& identified, const protocol::Ref& ref) {
    if (finished_) return;
    if (pending_close_) {
        do_read();  // keep reading until the client's close frame (or the close deadline)
        return;
    }
    if (auto* why = std::get_if<IdentityError>(&identified)) {
        if (*why == IdentityError::Unavailable)
            reject(protocol::ErrorCode::Unavailable, "temporarily unavailable; try again", ref);
        else
            reject(protocol::ErrorCode::NotAuthenticated, "unknown token", ref);
        do_read();
        return;
    }
    const Guest& guest = std::get<Guest>(identified);
    if (!registry_.join_player(guest.id)) {
        // One player's tabs and devices are capped: the others' places stay free.
        spdlog::info("event=ws_player_connections_close conn={} player={}", id_, guest.id);
        reject(protocol::ErrorCode::RateLimited, "too many connections for this player", ref);
        start_close(websocket::close_code::policy_error, "too many connections for this player", /*flush=*/true);
        do_read();
        return;
    }
    counted_player_ = true;
    player_id_ = guest.id;
    authenticated_ = true;
    deadline_.cancel();
    spdlog::info("event=ws_hello conn={} player={}", id_, player_id_);
    send(protocol::welcome_message(guest.id, guest.name));
    // From now on this tab receives what the player is told (lobby events too).
    hub_.connected(shared_from_this());
    do_read();
}

void WebsocketSession::reject(protocol::ErrorCode code, std::string_view message, const protocol::Ref& ref) {
    metrics_.rejected(code);
    send(protocol::error_message(code, message, ref));
}

void WebsocketSession::send(std::string text) {
    enqueue(std::make_shared<const std::string>(std::move(text)));
}

void WebsocketSession::deliver(std::shared_ptr<const std::string> message) {
    net::post(ws_.get_executor(), [self = shared_from_this(), message = std::move(message)]() mutable {
        self->enqueue(std::move(message));
    });
}

void WebsocketSession::close(std::uint16_t code, std::string reason, bool flush) {
    net::post(ws_.get_executor(), [self = shared_from_this(), code, reason = std::move(reason), flush]() mutable {
        self->start_close(code, std::move(reason), flush);
    });
}

void WebsocketSession::post(std::function<void()> work) {
    net::post(ws_.get_executor(), std::move(work));
}

void WebsocketSession::restart() {
    close(boost::beast::websocket::close_code::service_restart, "service restart", true);
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
    if (finished_ || pending_close_ || !opened_) return;
    queued_bytes_ += message->size();
    queue_.push_back(std::move(message));
    // Bytes as well as messages: a shared list counts in full in every queue holding it, since
    // any one of them may be the last to let it go.
    if (queue_.size() > config_.max_queued_messages || queued_bytes_ > config_.max_queued_bytes) {
        // The client reads slower than we write: cut it before the queue can grow further. It
        // reconnects and resumes with match.open since:<version>.
        update_queue_size();
        spdlog::info("event=ws_too_slow conn={} player={} queued={} bytes={}", id_, player_id_, queue_.size(),
                     queued_bytes_);
        metrics_.rejected(protocol::ErrorCode::Busy);
        start_close(close_codes::too_slow, "too slow", /*flush=*/false);
        return;
    }
    update_queue_size();
    if (!writing_) do_write();
}

void WebsocketSession::do_write() {
    writing_ = std::move(queue_.front());
    queue_.erase(queue_.begin());
    queued_bytes_ -= writing_->size();
    if (queue_.empty() && queue_.capacity() > 8) queue_.shrink_to_fit();  // after a burst
    update_queue_size();
    ws_.async_write(net::buffer(*writing_),
                    beast::bind_front_handler(&WebsocketSession::on_write, shared_from_this()));
}

void WebsocketSession::on_write(beast::error_code ec, std::size_t) {
    writing_.reset();
    if (ec) {
        spdlog::debug("event=ws_write_failed conn={} error=\"{}\"", id_, ec.message());
        // The pending read fails too once the socket is closed; finish() runs there.
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().close(ignored);
        return;
    }
    metrics_.messages_out.fetch_add(1, std::memory_order_relaxed);
    if (finished_) return;
    if (!queue_.empty()) {
        do_write();
    } else if (pending_close_ && !close_sent_) {
        do_close();
    }
}

void WebsocketSession::start_close(std::uint16_t code, std::string reason, bool flush) {
    if (finished_) return;
    if (!flush) {
        queue_.clear();
        queued_bytes_ = 0;
        update_queue_size();
    }
    if (pending_close_) return;  // the first close wins (but a later one may still drop the queue)
    pending_close_ = websocket::close_reason(static_cast<websocket::close_code>(code), reason);
    if (!opened_) return;  // the handshake failed or is still running: on_accept/finish decide
    // An abuser gets a moment to read its close frame, not a polite wait for its answer.
    arm_deadline(cut_ ? cut_timeout : handshake_timeout, Deadline::Closing);
    if (!writing_ && queue_.empty()) do_close();
}

void WebsocketSession::do_close() {
    close_sent_ = true;
    ws_.async_close(*pending_close_, beast::bind_front_handler(&WebsocketSession::on_close, shared_from_this()));
}

void WebsocketSession::on_close(beast::error_code ec) {
    // Success: the close frame is out; the pending read ends with websocket::error::closed when
    // the client answers (or Beast's close timeout fires). Failure: make sure the read ends.
    if (ec && !finished_) {
        beast::error_code ignored;
        beast::get_lowest_layer(ws_).socket().close(ignored);
    }
}

void WebsocketSession::arm_deadline(std::chrono::steady_clock::duration after, Deadline what) {
    deadline_.expires_after(after);
    deadline_.async_wait([self = shared_from_this(), what](beast::error_code ec) {
        if (ec || self->finished_) return;  // cancelled or re-armed
        if (what == Deadline::Fragment) {
            if (!self->in_message_ || self->pending_close_) return;
            // Half a message held open (a trickle of fragments, or empty ones): cut.
            self->metrics_.rejected(protocol::ErrorCode::RateLimited);
            spdlog::info("event=ws_fragment_timeout conn={} player={}", self->id_, self->player_id_);
            self->cut_ = true;
            self->start_close(websocket::close_code::policy_error, "message not completed in time", /*flush=*/false);
        } else if (what == Deadline::Closing) {
            // The client never completed the closing handshake (or never read our last
            // write): drop the connection.
            spdlog::info("event=ws_close_timeout conn={}", self->id_);
            beast::error_code ignored;
            beast::get_lowest_layer(self->ws_).socket().close(ignored);
        } else if (!self->authenticated_) {
            self->metrics_.rejected(protocol::ErrorCode::NotAuthenticated);
            self->start_close(websocket::close_code::policy_error, "hello expected", /*flush=*/true);
        }
    });
}

void WebsocketSession::finish(beast::error_code ec) {
    if (finished_) return;
    finished_ = true;
    deadline_.cancel();
    queue_.clear();
    queued_bytes_ = 0;
    update_queue_size();
    beast::error_code ignored;
    beast::get_lowest_layer(ws_).socket().close(ignored);
    // The socket is gone: its place is free even if a room still holds this object a while.
    slot_ = SessionRegistry::Slot{};
    if (!opened_) return;
    const std::uint16_t code = pending_close_ ? static_cast<std::uint16_t>(pending_close_->code)
                                              : static_cast<std::uint16_t>(ws_.reason().code);
    spdlog::info("event=ws_closed conn={} player={} reason={} code={}", id_, player_id_, end_reason(ec), code);
    metrics_.open_sockets.fetch_sub(1, std::memory_order_relaxed);
    registry_.remove(id_);
    if (counted_player_) registry_.leave_player(player_id_);
    if (authenticated_) hub_.disconnected(shared_from_this());
}

void WebsocketSession::update_queue_size() {
    const std::size_t size = queue_.size();
    queued_.store(size, std::memory_order_relaxed);
    if (size > peak_queued_.load(std::memory_order_relaxed)) peak_queued_.store(size, std::memory_order_relaxed);
    if (queued_bytes_ > peak_queued_bytes_.load(std::memory_order_relaxed))
        peak_queued_bytes_.store(queued_bytes_, std::memory_order_relaxed);
}

}  // namespace server
