#include "server/net/websocket_session.hpp"

#include <exception>
#include <utility>
#include <variant>

#include <boost/asio/defer.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/http/field.hpp>

#include "server/log/log.hpp"
#include "server/net/websocket_handshake.hpp"
#include "server/store/token_hash.hpp"

namespace server {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using boost::system::error_code;
using Clock = std::chrono::steady_clock;

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
    // The context the socket's strand runs on (the Listener spreads connections over the io
    // threads' contexts): a match made for this player goes there too.
    if (const auto* strand = socket_.get_executor().target<net::strand<net::io_context::executor_type>>())
        home_ = &strand->get_inner_executor().context();
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

}  // namespace server
