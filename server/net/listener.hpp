#pragma once
// Accepts TCP connections (Beast's listener) and hands each to an HttpSession on its own strand.
// Beyond Config::max_connections a connection is answered with a fixed HTTP 503 and closed at
// once; each refusal counts as santorini_rejected_messages_total{reason="unavailable"}. Beyond
// Config::max_connections_per_address from one client address (an IPv6 /64; trusted proxies
// are exempt) it is answered 429 with Retry-After, counted as reason="rate_limited".

#include <cstdint>
#include <memory>
#include <string_view>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core/error.hpp>

#include "server/app/config.hpp"
#include "server/http/api.hpp"
#include "server/app/hub.hpp"
#include "server/app/metrics.hpp"
#include "server/net/session_registry.hpp"

namespace server {

/// The accepting socket; lives as long as its pending accept holds it.
class Listener : public std::enable_shared_from_this<Listener> {
public:
    /// Opens, binds and listens on `endpoint` (port 0: any free port). Throws
    /// boost::system::system_error if that fails (address in use, bad address).
    /// `api` (may be null: no stored-data API) answers the requests that need the database.
    /// The listener runs on `io`; each connection runs on one of `homes` in turn (none: `io`).
    Listener(boost::asio::io_context& io, const boost::asio::ip::tcp::endpoint& endpoint, Hub& hub,
             Metrics& metrics, const Config& config, SessionRegistry& registry, HttpApi* api = nullptr,
             std::vector<boost::asio::io_context*> homes = {});

    /// Starts accepting.
    void run();
    /// Stops accepting and closes the listening socket (any thread).
    void stop();
    /// The port actually bound.
    std::uint16_t port() const { return port_; }

private:
    void do_accept();
    void on_accept(boost::beast::error_code ec, boost::asio::ip::tcp::socket socket);
    void refuse(boost::asio::ip::tcp::socket socket, bool address_full);

    boost::asio::io_context& io_;
    std::vector<boost::asio::io_context*> homes_;  ///< where connections run, in turn
    std::size_t next_home_ = 0;
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    boost::asio::ip::tcp::acceptor acceptor_;
    boost::asio::steady_timer retry_;  ///< pause after accept errors such as "too many open files"
    Hub& hub_;
    Metrics& metrics_;
    const Config& config_;
    SessionRegistry& registry_;
    HttpApi* api_;
    std::uint16_t port_ = 0;
    bool stopped_ = false;
};

}  // namespace server
