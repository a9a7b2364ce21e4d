// Real sockets on loopback: one address (or one player) cannot take every connection, guest
// creation counts by network (/24, /64), and X-Forwarded-For is believed only from a trusted
// proxy. The attacker is 127.0.0.1; others come from 127.0.0.2 and on (all loopback on Linux).

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch_test_macros.hpp>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/net/client_address.hpp"
#include "tests/server/support/abuse_support.hpp"
#include "tests/server/support/transport_fixture.hpp"

namespace {

using namespace std::chrono_literals;
using abuse::RawClient;

// One HTTP/1.1 request from the local address `from`, with extra header lines; the status and
// the whole response text.
std::pair<int, std::string> http_from(std::uint16_t port, const std::string& from, const std::string& request) {
    namespace net = boost::asio;
    net::io_context io;
    net::ip::tcp::socket socket(io);
    socket.open(net::ip::tcp::v4());
    socket.bind(net::ip::tcp::endpoint(net::ip::make_address(from), 0));
    socket.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    timeval tv{5, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    net::write(socket, net::buffer(request));
    std::string response;
    char chunk[4096];
    boost::system::error_code ec;
    while (!ec) {
        const std::size_t n = socket.read_some(net::buffer(chunk), ec);
        response.append(chunk, n);
    }
    const int status = response.size() > 12 ? std::stoi(response.substr(9, 3)) : 0;
    return {status, response};
}

// POST /api/guests from `from`, optionally claiming to be `forwarded_for`; the status.
int new_guest(std::uint16_t port, const std::string& from, const std::string& forwarded_for = {}) {
    const std::string body = R"({"name":"Guest"})";
    std::string request = "POST /api/guests HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n";
    if (!forwarded_for.empty()) request += "X-Forwarded-For: " + forwarded_for + "\r\n";
    request += "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
    return http_from(port, from, request).first;
}

}  // namespace

TEST_CASE("client addresses: networks, connection keys and trusted X-Forwarded-For", "[abuse][connections]") {
    using server::client_address;
    using server::TrustedProxies;
    CHECK(server::network_key("203.0.113.77") == "203.0.113.0/24");
    CHECK(server::network_key("203.0.113.200") == server::network_key("203.0.113.1"));
    CHECK(server::network_key("203.0.114.1") != server::network_key("203.0.113.1"));
    CHECK(server::network_key("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64");
    CHECK(server::network_key("2001:db8:1:2:ffff::9") == server::network_key("2001:db8:1:2::1"));
    CHECK(server::network_key("::ffff:203.0.113.9") == "203.0.113.0/24");
    CHECK(server::connection_key("203.0.113.77") == "203.0.113.77");
    CHECK(server::connection_key("2001:db8:1:2:aaaa::1") == "2001:db8:1:2::/64");

    const auto proxies = TrustedProxies::parse("10.0.0.0/8, 192.0.2.1,2001:db8:ff::/48");
    REQUIRE(proxies);
    CHECK(proxies->contains("10.200.3.4"));
    CHECK(proxies->contains("192.0.2.1"));
    CHECK_FALSE(proxies->contains("192.0.2.2"));
    CHECK(proxies->contains("2001:db8:ff:1::5"));
    CHECK_FALSE(proxies->contains("2001:db8:fe::5"));
    CHECK_FALSE(TrustedProxies::parse("10.0.0.0/33"));
    CHECK_FALSE(TrustedProxies::parse("not an address"));
    CHECK(TrustedProxies::parse("")->empty());

    // From a proxy: the nearest address that is not one of ours; anything else: the peer.
    CHECK(client_address("10.0.0.5", "198.51.100.7", *proxies) == "198.51.100.7");
    CHECK(client_address("10.0.0.5", "1.2.3.4, 198.51.100.7, 10.9.9.9", *proxies) == "198.51.100.7");
    CHECK(client_address("10.0.0.5", "", *proxies) == "10.0.0.5");
    CHECK(client_address("10.0.0.5", "garbage", *proxies) == "10.0.0.5");
    CHECK(client_address("198.51.100.7", "1.2.3.4", *proxies) == "198.51.100.7");
    CHECK(client_address("198.51.100.7", "1.2.3.4", TrustedProxies{}) == "198.51.100.7");
}

TEST_CASE("one address cannot take every connection: the others still get in and play", "[abuse][connections]") {
    server::Config config = test::transport_config();
    config.max_connections = 100;
    config.max_connections_per_address = 20;
    test::RunningServer running(config);

    // The attacker opens connections until refused: it gets its share and no more.
    std::vector<std::unique_ptr<RawClient>> held;
    std::string refusal;
    for (int i = 0; i < 60 && refusal.empty(); ++i) {
        try {
            held.push_back(std::make_unique<RawClient>(running.port(), "127.0.0.1"));
        } catch (const std::exception& e) {
            refusal = e.what();
        }
    }
    CHECK(held.size() == config.max_connections_per_address);
    CHECK(refusal.find("429") != std::string::npos);
    // Half-open HTTP requests count too: a request never finished holds its place.
    const auto [status, text] = http_from(running.port(), "127.0.0.1", "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    CHECK(status == 429);
    CHECK(text.find("Retry-After: 5") != std::string::npos);
    // A refusal carries the security headers of every other answer.
    CHECK(text.find("\r\nX-Content-Type-Options: nosniff\r\n") != std::string::npos);
    CHECK(text.find("\r\nX-Frame-Options: DENY\r\n") != std::string::npos);
    CHECK(text.find("\r\nContent-Security-Policy: default-src 'self';") != std::string::npos);
    CHECK(text.find(R"({"error":"too many connections from your address","code":"rate_limited"})") != std::string::npos);

    // Another address connects and plays as if nothing happened.
    RawClient honest(running.port(), "127.0.0.2");
    REQUIRE(honest.hello(running.guest_token("honest")));
    const auto trip = honest.round_trip();
    REQUIRE(trip);
    CHECK(*trip < 250ms);
    CHECK(running.server().sessions().connections() == config.max_connections_per_address + 1);

    // The attacker's place comes back when one of its connections goes.
    held.pop_back();
    CHECK(test::eventually([&] {
        try {
            held.push_back(std::make_unique<RawClient>(running.port(), "127.0.0.1"));
            return true;
        } catch (const std::exception&) {
            return false;
        }
    }));
}

TEST_CASE("one player cannot hold more than max_connections_per_player sockets", "[abuse][connections]") {
    server::Config config = test::transport_config();
    config.max_connections_per_player = 4;
    test::RunningServer running(config);
    const std::string token = running.guest_token("many tabs");
    std::vector<std::unique_ptr<RawClient>> tabs;
    for (int i = 0; i < 4; ++i) {
        tabs.push_back(std::make_unique<RawClient>(running.port()));
        REQUIRE(tabs.back()->hello(token));
    }
    RawClient fifth(running.port());
    fifth.send(R"({"type":"hello","protocol":1,"token":")" + token + R"("})");
    const auto error = fifth.read_type("error");
    REQUIRE(error);
    CHECK((*error)["code"] == "rate_limited");
    CHECK(fifth.read_close(3s) == std::optional<std::uint16_t>(1008));
    // The first four play on; when one closes, a new tab is welcome.
    CHECK(tabs.front()->round_trip());
    tabs.pop_back();
    CHECK(test::eventually([&] {
        RawClient again(running.port());
        return again.hello(token);
    }));
}

TEST_CASE("guest creation counts by /24 and believes X-Forwarded-For only from trusted proxies",
          "[abuse][connections]") {
    server::Config config = test::transport_config();
    config.guests_per_minute = 1;
    config.guest_burst = 3;
    config.trusted_proxies = *server::TrustedProxies::parse("127.0.0.9");
    test::RunningServer running(config);

    // 127.0.0.1 and 127.0.0.2 are one /24: three guests between them, then 429.
    CHECK(new_guest(running.port(), "127.0.0.1") == 201);
    CHECK(new_guest(running.port(), "127.0.0.2") == 201);
    CHECK(new_guest(running.port(), "127.0.0.3") == 201);
    CHECK(new_guest(running.port(), "127.0.0.4") == 429);
    // A made-up X-Forwarded-For from a client that is not a proxy changes nothing.
    CHECK(new_guest(running.port(), "127.0.0.5", "198.51.100.7") == 429);

    // Behind the trusted proxy each client is its own network, however many come through it.
    for (int i = 0; i < 3; ++i) CHECK(new_guest(running.port(), "127.0.0.9", "198.51.100.7") == 201);
    CHECK(new_guest(running.port(), "127.0.0.9", "198.51.100.8") == 429);  // the same /24
    CHECK(new_guest(running.port(), "127.0.0.9", "203.0.113.5") == 201);   // another network
    // The proxy itself is exempt from the per-address connection cap (it speaks for many).
    CHECK(running.server().sessions().connections_from("127.0.0.9") == 0);
}
