// Half-open HTTP requests (server/limits/half_open.hpp): connections that open and send half a
// request are capped by Config::max_half_open_requests (the one waiting longest is closed when
// one more comes) and each is closed at Config::http_request_timeout; a prompt client is served
// all along. Real sockets on loopback.

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <sys/socket.h>
#include <sys/time.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>

#include "server/app/server.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

using namespace std::chrono_literals;

namespace {

namespace net = boost::asio;

// A client that connects and sends the first half of a request, then nothing.
class SlowSender {
public:
    explicit SlowSender(std::uint16_t port) : socket_(io_) {
        socket_.connect({net::ip::make_address("127.0.0.1"), port});
        net::write(socket_, net::buffer(std::string("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")));
    }

    /// True when the server has closed the connection (EOF or reset) within `wait`.
    bool closed_within(std::chrono::milliseconds wait) {
        if (closed_) return true;
        timeval tv{static_cast<time_t>(wait.count() / 1000), static_cast<suseconds_t>((wait.count() % 1000) * 1000)};
        ::setsockopt(socket_.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        char byte;
        const ssize_t n = ::recv(socket_.native_handle(), &byte, 1, 0);
        // 0: EOF; -1 with ECONNRESET: reset; -1 with EAGAIN: still open after `wait`.
        closed_ = n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK);
        return closed_;
    }

private:
    net::io_context io_;
    net::ip::tcp::socket socket_;
    bool closed_ = false;
};

}  // namespace

TEST_CASE("past max_half_open_requests the connection waiting longest is shed; a prompt client is served",
          "[api][limits][half_open]") {
    server::Config config = test::transport_config();
    config.max_half_open_requests = 4;
    test::RunningServer running(config);
    server::HalfOpenRequests& half_open = running.server().sessions().half_open();

    std::vector<std::unique_ptr<SlowSender>> slow;
    for (int i = 0; i < 10; ++i) {
        slow.push_back(std::make_unique<SlowSender>(running.port()));
        // One at a time, so the server counts them in this order.
        const std::size_t counted = i + 1;
        REQUIRE(test::eventually([&] {
            return half_open.waiting() == std::min<std::size_t>(counted, 4) &&
                   half_open.shed() == (counted > 4 ? counted - 4 : 0);
        }));
    }
    CHECK(half_open.shed() == 6u);
    // The six that waited longest are closed; the four newest still wait.
    for (int i = 0; i < 6; ++i) CHECK(slow[i]->closed_within(5s));
    for (int i = 6; i < 10; ++i) CHECK_FALSE(slow[i]->closed_within(200ms));

    // A prompt client gets in (shedding one more slow sender) and is answered.
    const test::HttpResponse response =
        test::http_request(running.port(), boost::beast::http::verb::get, "/healthz", {}, 5s);
    CHECK(response.result_int() == 200);
    CHECK(slow[6]->closed_within(5s));
    CHECK(half_open.shed() == 7u);
    CHECK(running.server().metrics().render().find("santorini_http_half_open_shed_total 7\n") != std::string::npos);
    CHECK(half_open.waiting() <= 4u);
}

TEST_CASE("a request not complete within http_request_timeout closes its connection", "[api][limits][half_open]") {
    server::Config config = test::transport_config();
    config.http_request_timeout = 300ms;
    test::RunningServer running(config);

    SlowSender slow(running.port());
    const auto start = std::chrono::steady_clock::now();
    CHECK_FALSE(slow.closed_within(100ms));
    CHECK(slow.closed_within(5s));
    const auto waited = std::chrono::steady_clock::now() - start;
    CHECK(waited >= 250ms);
    CHECK(waited < 3s);
    // Nothing is capped by default, and a prompt client is served.
    CHECK(running.server().sessions().half_open().shed() == 0u);
    CHECK(test::http_request(running.port(), boost::beast::http::verb::get, "/healthz", {}, 5s).result_int() == 200);
}
