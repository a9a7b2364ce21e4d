#include "server/net/listener.hpp"

#include <chrono>
#include <string>
#include <string_view>
#include <variant>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/dispatch.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/bind_handler.hpp>

#include "server/log/log.hpp"
#include "server/net/client_address.hpp"
#include "server/http/security_headers.hpp"
#include "server/net/http_session.hpp"

namespace server {

namespace net = boost::asio;
namespace beast = boost::beast;
using tcp = net::ip::tcp;

namespace {

/// A whole HTTP/1.1 refusal written straight into a socket the server will not serve: the
/// answer every error gets ({"error", "code"}, server/http/errors.hpp) with the same security
/// headers as every other response (server/http/security_headers.hpp), so that a refusal is no
/// weaker a page than an answer.
std::string raw_refusal(std::string_view status_line, std::string_view body) {
    std::string text;
    text.reserve(512 + body.size());
    text.append("HTTP/1.1 ").append(status_line).append("\r\n");
    text.append("Server: santorini-server\r\n");
    text.append("Content-Type: application/json\r\n");
    text.append("Content-Length: ").append(std::to_string(body.size())).append("\r\n");
    text.append("Retry-After: 5\r\n");
    text.append("Cache-Control: no-store\r\n");
    for (const auto& [name, value] : security_headers) text.append(name).append(": ").append(value).append("\r\n");
    text.append("Connection: close\r\n\r\n");
    text.append(body);
    return text;
}

// Written once, before any socket is accepted, and only read after.
const std::string refusal =
    raw_refusal("503 Service Unavailable", R"({"error":"too many connections","code":"unavailable"})");

// One address holding its share already: the others still get in (Config::max_connections_per_address).
const std::string address_refusal =
    raw_refusal("429 Too Many Requests", R"({"error":"too many connections from your address","code":"rate_limited"})");

}  // namespace

Listener::Listener(net::io_context& io, const tcp::endpoint& endpoint, Hub& hub, Metrics& metrics,
                   const Config& config, SessionRegistry& registry, HttpApi* api,
                   std::vector<net::io_context*> homes)
    : io_(io),
      homes_(homes.empty() ? std::vector<net::io_context*>{&io} : std::move(homes)),
      strand_(net::make_strand(io)),
      acceptor_(strand_),
      retry_(strand_),
      hub_(hub),
      metrics_(metrics),
      config_(config),
      registry_(registry),
      api_(api) {
    acceptor_.open(endpoint.protocol());
    acceptor_.set_option(net::socket_base::reuse_address(true));
    acceptor_.bind(endpoint);
    acceptor_.listen(net::socket_base::max_listen_connections);
    port_ = acceptor_.local_endpoint().port();
}

void Listener::run() {
    net::dispatch(strand_, beast::bind_front_handler(&Listener::do_accept, shared_from_this()));
}

void Listener::stop() {
    net::post(strand_, [self = shared_from_this()] {
        self->stopped_ = true;
        self->retry_.cancel();
        beast::error_code ignored;
        self->acceptor_.close(ignored);
    });
}

void Listener::do_accept() {
    if (stopped_) return;
    // Each connection gets its own strand ("the strand is the lock"), on the io contexts in
    // turn (one, or one per io thread: Server); the connection stays on it.
    net::io_context& home = *homes_[next_home_++ % homes_.size()];
    acceptor_.async_accept(net::make_strand(home),
                           beast::bind_front_handler(&Listener::on_accept, shared_from_this()));
}

void Listener::on_accept(beast::error_code ec, tcp::socket socket) {
    if (stopped_ || ec == net::error::operation_aborted) return;
    if (ec) {
        // EMFILE and friends fail again at once: wait a little instead of spinning.
        spdlog::warn("event=accept_failed error=\"{}\"", ec.message());
        retry_.expires_after(std::chrono::milliseconds(100));
        retry_.async_wait([self = shared_from_this()](beast::error_code wait_ec) {
            if (!wait_ec) self->do_accept();
        });
        return;
    }
    // Counted per client address, except a trusted proxy's connections (it speaks for many).
    std::string address;
    {
        beast::error_code peer_ec;
        const auto peer = socket.remote_endpoint(peer_ec);
        if (!peer_ec) {
            address = peer.address().to_string();
            address = config_.trusted_proxies.contains(address) ? std::string() : connection_key(address);
        }
    }
    auto opened = registry_.try_open(address);
    if (auto* slot = std::get_if<SessionRegistry::Slot>(&opened)) {
        // Small messages go out at once: Nagle's algorithm would hold a reply written right
        // behind another (a patch, then its ack) until the client's delayed ACK, ~40 ms.
        beast::error_code ignored;
        socket.set_option(tcp::no_delay(true), ignored);
        if (config_.socket_send_buffer > 0)
            socket.set_option(net::socket_base::send_buffer_size(static_cast<int>(config_.socket_send_buffer)), ignored);
        std::make_shared<HttpSession>(std::move(socket), hub_, metrics_, config_, registry_, std::move(*slot), api_)
            ->run();
    } else {
        const bool address_full = std::get<SessionRegistry::Refusal>(opened) == SessionRegistry::Refusal::AddressFull;
        if (address_full)
            spdlog::debug("event=connection_refused reason=max_connections_per_address address={}", address);
        refuse(std::move(socket), address_full);
    }
    do_accept();
}

void Listener::refuse(tcp::socket socket, bool address_full) {
    if (address_full) {
        metrics_.rejected(protocol::ErrorCode::RateLimited);
    } else {
        metrics_.rejected(protocol::ErrorCode::Unavailable);
        spdlog::debug("event=connection_refused reason=max_connections limit={}", config_.max_connections);
    }
    const std::string& answer = address_full ? address_refusal : refusal;
    // A few bytes into a fresh socket's send buffer: the write completes at once, then the
    // socket closes when the handler drops it.
    auto refused = std::make_shared<tcp::socket>(std::move(socket));
    net::async_write(*refused, net::buffer(answer), [refused](beast::error_code, std::size_t) {
        beast::error_code ignored;
        refused->shutdown(tcp::socket::shutdown_both, ignored);
        refused->close(ignored);
    });
}

}  // namespace server
