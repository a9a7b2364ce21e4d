#pragma once
// One plain HTTP connection (Beast's http_session): reads requests one at a time, answers each
// with handle_http, or hands it to the stored-data API (HttpApi, which answers from another
// thread: the response is posted back to this strand), and hands the socket to a
// WebsocketSession when a request upgrades on /ws. One request at a time: the next is read
// only after the answer to the last is written.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <optional>
#include <string_view>

#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/app/config.hpp"
#include "server/http/api.hpp"
#include "server/app/hub.hpp"
#include "server/app/metrics.hpp"
#include "server/net/session_registry.hpp"

namespace server {

/// One HTTP connection until it closes or upgrades; lives as long as an operation holds it.
class HttpSession : public std::enable_shared_from_this<HttpSession> {
public:
    /// A write of an answer must finish within this. (An idle keep-alive connection, or one
    /// sending a request too slowly, is closed after Config::http_request_timeout, and at most
    /// Config::max_half_open_requests wait for a request at once: server/limits/half_open.hpp.)
    static constexpr std::chrono::seconds request_timeout{30};
    /// After the last response: how long unread request bytes are drained before closing.
    static constexpr std::chrono::seconds linger_timeout{2};

    /// Takes over an accepted socket (whose executor is its strand) and its connection slot;
    /// `api` (may be null) answers the stored-data API's requests.
    HttpSession(boost::asio::ip::tcp::socket&& socket, Hub& hub, Metrics& metrics, const Config& config,
                SessionRegistry& registry, SessionRegistry::Slot slot, HttpApi* api = nullptr);

    /// Starts reading the first request.
    void run();

private:
    using Response = boost::beast::http::response<boost::beast::http::string_body>;

    void do_read();
    void on_read(boost::beast::error_code ec, std::size_t bytes);
    void shed(std::uint64_t read);
    void refuse(boost::beast::http::status status, std::string_view message);
    void do_write(Response response);
    void on_write(bool keep_alive, boost::beast::error_code ec, std::size_t bytes);
    void do_close();
    void do_drain();

    boost::beast::tcp_stream stream_;
    boost::beast::flat_buffer buffer_;
    std::optional<boost::beast::http::request_parser<boost::beast::http::string_body>> parser_;
    std::shared_ptr<Response> response_;  ///< alive until its write completes
    Hub& hub_;
    Metrics& metrics_;
    const Config& config_;
    SessionRegistry& registry_;
    SessionRegistry::Slot slot_;
    HttpApi* api_;
    HalfOpenRequests::Ticket waiting_;  ///< counted while a request is awaited
    std::uint64_t reads_ = 0;           ///< requests awaited so far (the last one's number)
    std::string peer_;    ///< the TCP peer's address
    std::string client_;  ///< the client's address (the peer's, or a trusted proxy's word), for per-client limits
};

}  // namespace server
