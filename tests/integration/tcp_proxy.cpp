#include "tests/integration/tcp_proxy.hpp"

#include <array>
#include <boost/asio/connect.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <stdexcept>
#include <string>

namespace integration {

namespace net = boost::asio;
using tcp = net::ip::tcp;

/// One forwarded connection: two sockets and a pump each way. Closing either side closes both.
struct TcpProxy::Link : std::enable_shared_from_this<TcpProxy::Link> {
    TcpProxy& proxy;
    tcp::socket client;
    tcp::socket server;
    std::array<char, 16384> up{};
    std::array<char, 16384> down{};
    bool dark = false;  ///< partitioned: what arrives is dropped (the proxy's thread)

    Link(TcpProxy& p, tcp::socket&& c)
        : proxy(p), client(std::move(c)), server(client.get_executor()) {}

    void start() {
        pump(client, server, up);
        pump(server, client, down);
    }
    void pump(tcp::socket& from, tcp::socket& to, std::array<char, 16384>& buffer) {
        from.async_read_some(net::buffer(buffer), [self = shared_from_this(), &from, &to,
                                                   &buffer](boost::system::error_code ec,
                                                            std::size_t n) {
            if (ec) return self->close();
            if (self->dark) return;  // dropped; TcpProxy::dark_ keeps both sockets open
            // Frozen: the bytes wait, as they would in a stopped server's socket buffer.
            self->proxy.when_flowing([self, &from, &to, &buffer, n] {
                net::async_write(
                    to, net::buffer(buffer.data(), n),
                    [self, &from, &to, &buffer](boost::system::error_code wec, std::size_t) {
                        if (wec) return self->close();
                        self->pump(from, to, buffer);
                    });
            });
        });
    }
    void close() {
        boost::system::error_code ignored;
        client.close(ignored);
        server.close(ignored);
    }
};

TcpProxy::TcpProxy(std::uint16_t upstream_port)
    : acceptor_(io_, {net::ip::make_address("127.0.0.1"), 0}), upstream_port_(upstream_port) {
    port_ = acceptor_.local_endpoint().port();
    do_accept();
    thread_ = std::thread([this] { io_.run(); });
}

TcpProxy::~TcpProxy() {
    io_.stop();
    thread_.join();
    // The thread is gone: the sockets may be closed from here.
    boost::system::error_code ignored;
    acceptor_.close(ignored);
    for (auto& weak : links_)
        if (auto link = weak.lock()) link->close();
    for (auto& link : dark_) link->close();
}

void TcpProxy::do_accept() {
    acceptor_.async_accept([this](boost::system::error_code ec, tcp::socket socket) {
        if (ec) return;  // closed
        bool refuse = false;
        {
            std::lock_guard lock(mutex_);
            ++accepted_;
            refuse = cut_;
        }
        if (refuse) {
            boost::system::error_code ignored;
            socket.close(ignored);
        } else {
            auto link = std::make_shared<Link>(*this, std::move(socket));
            boost::system::error_code connect_error;
            link->server.connect({net::ip::make_address("127.0.0.1"), upstream_port_},
                                 connect_error);
            if (connect_error) {
                link->close();
            } else {
                link->start();
                std::erase_if(links_, [](const std::weak_ptr<Link>& l) { return l.expired(); });
                links_.push_back(link);
            }
        }
        do_accept();
    });
}

void TcpProxy::cut() {
    {
        std::lock_guard lock(mutex_);
        cut_ = true;
    }
    // The links belong to the proxy's thread: close them there, after any accept under way.
    net::post(io_, [this] {
        for (auto& weak : links_)
            if (auto link = weak.lock()) link->close();
        links_.clear();
    });
}

void TcpProxy::when_flowing(std::function<void()> go) {
    if (frozen_) return held_.push_back(std::move(go));
    go();
}

void TcpProxy::freeze() {
    net::post(io_, [this] { frozen_ = true; });
}

void TcpProxy::thaw() {
    net::post(io_, [this] {
        frozen_ = false;
        auto held = std::move(held_);
        held_.clear();
        for (auto& go : held) go();
    });
}

void TcpProxy::partition() {
    net::post(io_, [this] {
        for (auto& weak : links_)
            if (auto link = weak.lock()) {
                link->dark = true;
                dark_.push_back(std::move(link));
            }
        links_.clear();
        // What a freeze held is lost with the links; new links flow.
        frozen_ = false;
        held_.clear();
    });
}

void TcpProxy::restore() {
    std::lock_guard lock(mutex_);
    cut_ = false;
}

int TcpProxy::accepted() const {
    std::lock_guard lock(mutex_);
    return accepted_;
}

namespace {
/// Where the port of a postgresql:// URL is: [begin, end) of its digits.
std::pair<std::size_t, std::size_t> port_span(const std::string& url) {
    const std::size_t at = url.find('@');
    const std::size_t host = at == std::string::npos ? url.find("://") + 3 : at + 1;
    const std::size_t colon = url.find(':', host);
    const std::size_t slash = url.find('/', host);
    if (colon == std::string::npos || (slash != std::string::npos && colon > slash))
        throw std::runtime_error("no port in the database URL " + url);
    const std::size_t end = url.find_first_not_of("0123456789", colon + 1);
    return {colon + 1, end == std::string::npos ? url.size() : end};
}
}  // namespace

std::string with_port(const std::string& url, std::uint16_t port) {
    const auto [begin, end] = port_span(url);
    return url.substr(0, begin) + std::to_string(port) + url.substr(end);
}

std::uint16_t port_of(const std::string& url) {
    const auto [begin, end] = port_span(url);
    return static_cast<std::uint16_t>(std::stoi(url.substr(begin, end - begin)));
}

}  // namespace integration
