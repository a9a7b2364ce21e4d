#pragma once
// A TCP forwarder on 127.0.0.1 that a test can cut and restore: the server under test reaches
// PostgreSQL through it, so the test can take the database away (every open connection is
// closed, new ones are accepted and closed at once) and give it back, with real sockets.

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace integration {

class TcpProxy {
  public:
    /// Listens on a free port of 127.0.0.1 and forwards to 127.0.0.1:`upstream_port`, on a
    /// thread of its own.
    explicit TcpProxy(std::uint16_t upstream_port);
    ~TcpProxy();
    TcpProxy(const TcpProxy&) = delete;
    TcpProxy& operator=(const TcpProxy&) = delete;

    /// The port to connect to instead of the upstream one.
    std::uint16_t port() const { return port_; }
    /// The database goes away: open connections are closed, new ones are closed on accept.
    void cut();
    /// The database is back: new connections are forwarded again.
    void restore();
    /// The database hangs (as a SIGSTOPped PostgreSQL does): connections stay open and new
    /// ones are accepted, but no byte goes through either way until thaw().
    void freeze();
    /// The hang ends: what was held goes through, in order, and forwarding goes on.
    void thaw();
    /// A partition with no resets (a host gone dark, a firewall dropping packets): the open
    /// connections stay open but nothing ever goes through them again, either way; new
    /// connections are forwarded (the route back is another path, or a standby).
    void partition();
    /// How many connections were accepted so far (forwarded or refused).
    int accepted() const;

  private:
    struct Link;
    void do_accept();
    /// Runs `go` now, or at thaw() while frozen (the proxy's thread only).
    void when_flowing(std::function<void()> go);

    boost::asio::io_context io_;
    boost::asio::ip::tcp::acceptor acceptor_;
    std::uint16_t upstream_port_;
    std::uint16_t port_ = 0;
    mutable std::mutex mutex_;
    bool cut_ = false;
    int accepted_ = 0;
    std::vector<std::weak_ptr<Link>> links_;  ///< only on the proxy's thread
    bool frozen_ = false;                     ///< only on the proxy's thread
    std::vector<std::function<void()>> held_;  ///< what waits for thaw(); the proxy's thread
    std::vector<std::shared_ptr<Link>> dark_;  ///< partitioned links, kept open; the proxy's thread
    std::thread thread_;
};

/// `url` (postgresql://user@host:port/db...) with its port replaced by `port`.
std::string with_port(const std::string& url, std::uint16_t port);
/// The port of `url` (postgresql://user@host:port/db...).
std::uint16_t port_of(const std::string& url);

}  // namespace integration
