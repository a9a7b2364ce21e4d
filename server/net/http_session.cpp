#include "server/net/http_session.hpp"

#include <string_view>
#include <utility>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core/bind_handler.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/log/log.hpp"
#include "server/net/client_address.hpp"
#include "server/http/errors.hpp"
#include "server/http/routes.hpp"
#include "server/http/security_headers.hpp"
#include "server/net/websocket_handshake.hpp"
#include "server/net/websocket_session.hpp"

namespace server {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;

HttpSession::HttpSession(tcp::socket&& socket, Hub& hub, Metrics& metrics, const Config& config,
                         SessionRegistry& registry, SessionRegistry::Slot slot, HttpApi* api)
    : stream_(std::move(socket)),
      hub_(hub),
      metrics_(metrics),
      config_(config),
      registry_(registry),
      slot_(std::move(slot)),
      api_(api) {
    boost::system::error_code ec;
    const auto peer = stream_.socket().remote_endpoint(ec);
    if (!ec) peer_ = peer.address().to_string();
    client_ = peer_;
}

void HttpSession::run() {
    // Start on the connection's strand: nothing else may touch the stream meanwhile.
    net::dispatch(stream_.get_executor(), beast::bind_front_handler(&HttpSession::do_read, shared_from_this()));
}

void HttpSession::do_read() {
    // A fresh parser per request: the body limit and header state start over.
    parser_.emplace();
    parser_->body_limit(config_.max_http_body);
    stream_.expires_after(config_.http_request_timeout);
    // Counted as half-open until the request is in; past the cap the longest waiting goes.
    waiting_ = registry_.half_open().enter([weak = weak_from_this(), read = ++reads_] {
        if (auto self = weak.lock())
            net::post(self->stream_.get_executor(), [self, read] { self->shed(read); });
    });
    beast::http::async_read(stream_, buffer_, *parser_,
                            beast::bind_front_handler(&HttpSession::on_read, shared_from_this()));
}

void HttpSession::shed(std::uint64_t read) {
    // Only while still waiting for that request (a shed can cross the request arriving).
    if (read != reads_ || !parser_ || parser_->is_done() || !stream_.socket().is_open()) return;
    metrics_.http_half_open_shed.fetch_add(1, std::memory_order_relaxed);
    spdlog::debug("event=http_half_open_shed peer={}", peer_);
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();  // the pending read ends with operation_aborted
}

void HttpSession::on_read(beast::error_code ec, std::size_t) {
    waiting_.reset();
    if (ec == beast::http::error::end_of_stream) {
        do_close();
        return;
    }
    if (ec && ec.category() == beast::http::make_error_code(beast::http::error::body_limit).category() &&
        ec != beast::http::error::partial_message) {
        // A request we cannot parse or will not take: answer once, then hang up (the rest of
        // it may still be on the wire).
        if (ec == beast::http::error::body_limit) {
            refuse(beast::http::status::payload_too_large, "request body too large");
        } else if (ec == beast::http::error::header_limit) {
            refuse(beast::http::status::request_header_fields_too_large, "request header too large");
        } else {
            refuse(beast::http::status::bad_request, "malformed request");
        }
        return;
    }
    if (ec) {
        // Timeouts, resets, a client gone mid-request: nobody to answer; the socket closes when
        // this session is destroyed.
        spdlog::debug("event=http_read_failed error=\"{}\"", ec.message());
        return;
    }

    // Behind a trusted proxy the client is the one it names (server/net/client_address.hpp).
    client_ = client_address(peer_, parser_->get()["X-Forwarded-For"], config_.trusted_proxies);
    // The metrics listener serves /metrics alone: no WebSocket, no stored-data API there.
    if (!config_.metrics_only && websocket::is_upgrade(parser_->get())) {
        const std::string_view target = parser_->get().target();
        if (target.substr(0, target.find('?')) == "/ws") {
            if (const auto refusal = ws::refuse_upgrade(parser_->get())) {
                refuse(refusal->status, refusal->message);
                return;
            }
            // The WebSocket session takes the socket, the connection slot, the request and any
            // bytes the client sent after it (a first frame, without waiting for the 101).
            stream_.expires_never();
            std::string early(static_cast<const char*>(buffer_.data().data()), buffer_.size());
            buffer_.consume(buffer_.size());
            std::make_shared<WebsocketSession>(stream_.release_socket(), hub_, metrics_, config_, registry_,
                                               std::move(slot_))
                ->run(parser_->get(), std::move(early));
            return;
        }
    }
    // The stored-data API answers from its own threads (database calls block): the response
    // comes back to this strand, and nothing is read meanwhile, so one write is in flight.
    if (api_ && !config_.metrics_only && api_->handle(
                    parser_->get(),
                    [self = shared_from_this()](Response response) {
                        net::post(self->stream_.get_executor(), [self, response = std::move(response)]() mutable {
                            self->do_write(std::move(response));
                        });
                    },
                    client_))
        return;
    // Most routes answer at once, two from another thread (a guest stored by the hub's pool, a
    // live match's view from its strand): every answer is posted back to this strand.
    handle_http(parser_->get(), hub_, metrics_, config_, client_, [self = shared_from_this()](Response response) {
        net::post(self->stream_.get_executor(),
                  [self, response = std::move(response)]() mutable { self->do_write(std::move(response)); });
    });
}

void HttpSession::refuse(beast::http::status status, std::string_view message) {
    Response response{status, 11};
    response.set(beast::http::field::server, "santorini-server");
    response.set(beast::http::field::content_type, "application/json");
    // RFC 6455 4.4: a refused WebSocket version is answered with the one spoken here.
    if (status == beast::http::status::upgrade_required) response.set(beast::http::field::sec_websocket_version, "13");
    response.keep_alive(false);
    response.body() = http_error_body(status, message).dump();
    response.prepare_payload();
    metrics_.http_requests.fetch_add(1, std::memory_order_relaxed);
    do_write(std::move(response));
}

void HttpSession::do_write(Response response) {
    response_ = std::make_shared<Response>(std::move(response));
    // The one place every answer passes through (routes, the stored-data API, accounts,
    // refusals): none leaves without the security headers (docs/api.md, "Security headers").
    set_security_headers(*response_);
    const bool keep_alive = response_->keep_alive();
    stream_.expires_after(request_timeout);
    beast::http::async_write(stream_, *response_,
                             beast::bind_front_handler(&HttpSession::on_write, shared_from_this(), keep_alive));
}

void HttpSession::on_write(bool keep_alive, beast::error_code ec, std::size_t) {
    response_.reset();
    if (ec) {
        spdlog::debug("event=http_write_failed error=\"{}\"", ec.message());
        return;
    }
    if (!keep_alive) {
        do_close();
        return;
    }
    do_read();
}

void HttpSession::do_close() {
    // Send a TCP FIN so the client sees the end of the last response. Closing at once while
    // request bytes are still unread (a refused body) would send a RST that can destroy the
    // response at the client, so read and discard until the client closes too (bounded).
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(linger_timeout);
    do_drain();
}

void HttpSession::do_drain() {
    buffer_.consume(buffer_.size());
    stream_.async_read_some(buffer_.prepare(4096), [self = shared_from_this()](beast::error_code ec, std::size_t) {
        if (!ec) self->do_drain();  // on EOF, timeout or error the session ends and the socket closes
    });
}

}  // namespace server
