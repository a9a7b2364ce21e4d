#include "tests/server/support/ws_client.hpp"
#include "tests/server/support/http_observer.hpp"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <stdexcept>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/beast/websocket/error.hpp>
#include <boost/beast/websocket/rfc6455.hpp>

namespace test {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace websocket = beast::websocket;
using tcp = net::ip::tcp;
using Clock = std::chrono::steady_clock;

namespace {

tcp::endpoint loopback(std::uint16_t port) { return {net::ip::make_address("127.0.0.1"), port}; }

// Runs `io` until `done` is set or `deadline` passes; true if done.
bool run_io_until(net::io_context& io, const bool& done, Clock::time_point deadline) {
    while (!done) {
        if (io.stopped()) io.restart();
        if (io.run_one_until(deadline) == 0) {
            if (done) break;
            if (Clock::now() >= deadline) return false;
            if (io.stopped()) {
                io.restart();
                // No work left but not done: nothing can complete any more.
                if (io.poll() == 0 && !done) return false;
            }
        }
    }
    return true;
}

}  // namespace

WsClient::WsClient(std::uint16_t port, std::string_view target, std::chrono::milliseconds timeout,
                   int receive_window)
    : ws_(io_) {
    const auto deadline = Clock::now() + timeout;
    bool done = false;
    beast::error_code result;
    if (receive_window > 0) {
        // Set before connecting: the window and the segment size are announced in the SYN, and
        // the server's send buffer is sized from the segment size.
        tcp::socket& socket = beast::get_lowest_layer(ws_).socket();
        socket.open(tcp::v4());
        socket.set_option(net::socket_base::receive_buffer_size(receive_window));
        const int segment = 536;  // the smallest MSS every TCP must accept (RFC 9293)
        ::setsockopt(socket.native_handle(), IPPROTO_TCP, TCP_MAXSEG, &segment, sizeof segment);
    }
    beast::get_lowest_layer(ws_).async_connect(loopback(port), [&](beast::error_code ec) {
        result = ec;
        done = true;
    });
    if (!run_until(done, deadline) || result) {
        throw std::runtime_error("connect failed: " + (result ? result.message() : std::string("timeout")));
    }
    ws_.set_option(websocket::stream_base::decorator(
        [](websocket::request_type& request) { request.set(http::field::user_agent, "santorini-tests"); }));
    done = false;
    ws_.async_handshake("127.0.0.1:" + std::to_string(port), std::string(target), [&](beast::error_code ec) {
        result = ec;
        done = true;
    });
    if (!run_until(done, deadline) || result) {
        throw std::runtime_error("handshake failed: " + (result ? result.message() : std::string("timeout")));
    }
}

bool WsClient::run_until(const bool& done, Clock::time_point deadline) { return run_io_until(io_, done, deadline); }

void WsClient::end(beast::error_code ec) {
    if (ended_) return;
    ended_ = true;
    end_error_ = ec;
}

std::optional<std::uint16_t> WsClient::close_code() const {
    if (!ended_ || end_error_ != websocket::error::closed) return std::nullopt;
    return static_cast<std::uint16_t>(ws_.reason().code);
}

bool WsClient::write(std::string_view bytes, bool text, std::chrono::milliseconds timeout) {
    if (ended_) return false;
    bool done = false;
    beast::error_code result;
    ws_.text(text);
    ws_.async_write(net::buffer(bytes.data(), bytes.size()), [&](beast::error_code ec, std::size_t) {
        result = ec;
        done = true;
    });
    if (!run_until(done, Clock::now() + timeout)) {
        // A write cannot be left pending (its buffer is the caller's): drop the connection.
        beast::get_lowest_layer(ws_).close();
        run_until(done, Clock::now() + 1s);
        end(beast::error::timeout);
        return false;
    }
    if (result) {
        end(result);
        return false;
    }
    return true;
}

bool WsClient::send(std::string_view text, std::chrono::milliseconds timeout) { return write(text, true, timeout); }

bool WsClient::send_binary(std::string_view bytes, std::chrono::milliseconds timeout) {
    return write(bytes, false, timeout);
}

bool WsClient::send_json(const nlohmann::json& message, std::chrono::milliseconds timeout) {
    return send(message.dump(), timeout);
}

std::optional<std::string> WsClient::read(std::chrono::milliseconds timeout) {
    if (ended_) return std::nullopt;
    if (!read_pending_) {
        read_pending_ = true;
        read_done_ = false;
        ws_.async_read(buffer_, [this](beast::error_code ec, std::size_t) {
            read_error_ = ec;
            read_done_ = true;
        });
    }
    if (!run_until(read_done_, Clock::now() + timeout)) return std::nullopt;
    read_pending_ = false;
    if (read_error_) {
        end(read_error_);
        return std::nullopt;
    }
    std::string text = beast::buffers_to_string(buffer_.data());
    buffer_.consume(buffer_.size());
    return text;
}

std::optional<nlohmann::json> WsClient::read_json(std::chrono::milliseconds timeout) {
    const std::optional<std::string> text = read(timeout);
    if (!text) return std::nullopt;
    nlohmann::json value = nlohmann::json::parse(*text, nullptr, false);
    if (value.is_discarded()) return std::nullopt;
    return value;
}

std::optional<nlohmann::json> WsClient::read_type(std::string_view type, std::chrono::milliseconds timeout) {
    const auto deadline = Clock::now() + timeout;
    while (Clock::now() < deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        std::optional<nlohmann::json> message = read_json(std::max(left, std::chrono::milliseconds(1)));
        if (!message) {
            if (ended_) return std::nullopt;
            continue;
        }
        if (message->is_object() && message->value("type", "") == type) return message;
    }
    return std::nullopt;
}

std::optional<std::uint16_t> WsClient::read_close(std::chrono::milliseconds timeout, std::vector<std::string>* seen) {
    const auto deadline = Clock::now() + timeout;
    while (!ended_ && Clock::now() < deadline) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
        std::optional<std::string> message = read(std::max(left, std::chrono::milliseconds(1)));
        if (message && seen != nullptr) seen->push_back(std::move(*message));
    }
    return close_code();
}

std::optional<nlohmann::json> WsClient::hello(std::string_view token, std::chrono::milliseconds timeout) {
    if (!send_json({{"type", "hello"}, {"protocol", 1}, {"token", token}}, timeout)) return std::nullopt;
    return read_json(timeout);
}

void WsClient::close(std::uint16_t code, std::chrono::milliseconds timeout) {
    if (ended_) return;
    const auto deadline = Clock::now() + timeout;
    bool done = false;
    ws_.async_close(websocket::close_reason(code), [&](beast::error_code) { done = true; });
    // The close completes once the server's close frame is read: by a pending read, or by
    // close itself when no read is pending.
    if (!run_until(done, deadline)) {
        beast::get_lowest_layer(ws_).close();
        run_until(done, Clock::now() + 1s);
    }
    if (read_pending_) run_until(read_done_, deadline);
    end(websocket::error::closed);
}

HttpResponse http_request(std::uint16_t port, http::verb method, std::string_view target, std::string body,
                          std::chrono::milliseconds timeout) {
    net::io_context io;
    beast::tcp_stream stream(io);
    stream.expires_after(timeout);
    const auto deadline = Clock::now() + timeout;
    bool done = false;
    beast::error_code result;
    auto fail = [&](std::string_view what) {
        throw std::runtime_error(std::string(what) + ": " + (result ? result.message() : std::string("timeout")));
    };

    stream.async_connect(loopback(port), [&](beast::error_code ec) {
        result = ec;
        done = true;
    });
    if (!run_io_until(io, done, deadline) || result) fail("connect");

    http::request<http::string_body> request{method, std::string(target), 11};
    request.set(http::field::host, "127.0.0.1:" + std::to_string(port));
    request.set(http::field::user_agent, "santorini-tests");
    request.keep_alive(false);
    if (!body.empty()) request.set(http::field::content_type, "application/json");
    request.body() = std::move(body);
    request.prepare_payload();
    done = false;
    http::async_write(stream, request, [&](beast::error_code ec, std::size_t) {
        result = ec;
        done = true;
    });
    if (!run_io_until(io, done, deadline) || result) fail("write");

    beast::flat_buffer buffer;
    HttpResponse response;
    done = false;
    http::async_read(stream, buffer, response, [&](beast::error_code ec, std::size_t) {
        result = ec;
        done = true;
    });
    if (!run_io_until(io, done, deadline) || result) fail("read");
    beast::error_code ignored;
    stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
    observe_http(method, target, response, request.body());
    return response;
}

}  // namespace test
