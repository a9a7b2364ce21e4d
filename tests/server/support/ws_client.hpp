#pragma once
// Test clients for real-socket tests: a synchronous WebSocket client and a one-shot HTTP
// request, both to 127.0.0.1 only, and every call bounded by a timeout so a test can never hang.
//
// The WebSocket client does nothing between calls: it answers the server's pings only while a
// read() is waiting, and a client that stops calling read() is a "slow reader" whose socket
// buffers fill up. A read that times out stays pending, so the next read() continues it.

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/beast/websocket/stream.hpp>

#include "protocol/json/basic_json.hpp"

namespace test {

using namespace std::chrono_literals;

/// A WebSocket connection to 127.0.0.1 driven synchronously by the test thread that owns it.
class WsClient {
public:
    /// Connects to 127.0.0.1:`port` and upgrades on `target`. Throws std::runtime_error if the
    /// connection or the handshake fails or takes longer than `timeout`. A `receive_window` > 0
    /// makes the connection a narrow one, like a slow mobile link: a receive buffer and a
    /// segment size that small, so a client that stops reading stalls the server's writes after
    /// a few KiB rather than after the megabytes loopback buffers otherwise hold.
    explicit WsClient(std::uint16_t port, std::string_view target = "/ws",
                      std::chrono::milliseconds timeout = 5s, int receive_window = 0);
    WsClient(const WsClient&) = delete;
    WsClient& operator=(const WsClient&) = delete;

    /// Sends one text message. False if the connection has ended or the write failed or timed
    /// out (after a timeout the connection is dropped).
    bool send(std::string_view text, std::chrono::milliseconds timeout = 5s);
    /// Sends one binary message (same results as send).
    bool send_binary(std::string_view bytes, std::chrono::milliseconds timeout = 5s);
    /// Sends `message` serialized as a text message.
    bool send_json(const nlohmann::json& message, std::chrono::milliseconds timeout = 5s);

    /// The next text message, or nullopt if none arrives within `timeout` or the connection ends
    /// (then ended() is true).
    std::optional<std::string> read(std::chrono::milliseconds timeout = 5s);
    /// The next message parsed as JSON (nullopt as for read, or if it is not JSON).
    std::optional<nlohmann::json> read_json(std::chrono::milliseconds timeout = 5s);
    /// Skips messages until one whose "type" is `type` (nullopt on timeout or end).
    std::optional<nlohmann::json> read_type(std::string_view type, std::chrono::milliseconds timeout = 5s);
    /// Reads until the connection ends; the server's close code, or nullopt if it ended without
    /// a close frame or did not end within `timeout`. Messages read on the way go to `seen`.
    std::optional<std::uint16_t> read_close(std::chrono::milliseconds timeout = 5s,
                                            std::vector<std::string>* seen = nullptr);

    /// Sends {"type":"hello","protocol":1,"token":token} and returns the reply (welcome or error).
    std::optional<nlohmann::json> hello(std::string_view token, std::chrono::milliseconds timeout = 5s);
    /// Closes from the client side with `code` and waits (bounded) for the handshake to finish.
    void close(std::uint16_t code = 1000, std::chrono::milliseconds timeout = 2s);

    /// True once the connection has ended (a close frame, an error, or a dropped connection).
    bool ended() const { return ended_; }
    /// Why the connection ended (websocket::error::closed after a close frame).
    boost::beast::error_code end_error() const { return end_error_; }
    /// The close code the server sent, if the connection ended with a close frame.
    std::optional<std::uint16_t> close_code() const;

private:
    bool write(std::string_view bytes, bool text, std::chrono::milliseconds timeout);
    bool run_until(const bool& done, std::chrono::steady_clock::time_point deadline);
    void end(boost::beast::error_code ec);

    boost::asio::io_context io_;
    boost::beast::websocket::stream<boost::beast::tcp_stream> ws_;
    boost::beast::flat_buffer buffer_;
    bool read_pending_ = false;
    bool read_done_ = false;
    boost::beast::error_code read_error_;
    bool ended_ = false;
    boost::beast::error_code end_error_;
};

using HttpResponse = boost::beast::http::response<boost::beast::http::string_body>;

/// One request to 127.0.0.1:`port` on a fresh connection (Connection: close) and its response.
/// Throws std::runtime_error if anything fails or takes longer than `timeout`.
HttpResponse http_request(std::uint16_t port, boost::beast::http::verb method, std::string_view target,
                          std::string body = {}, std::chrono::milliseconds timeout = 5s);

}  // namespace test
