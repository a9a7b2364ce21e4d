// Real sockets on 127.0.0.1: the HTTP side of the one port.

#include <sys/socket.h>
#include <sys/time.h>

#include <optional>
#include <string>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;
namespace http = boost::beast::http;

// Sends raw bytes to 127.0.0.1:port and returns everything the server answers until it closes
// (reads give up after two seconds of silence).
std::string raw_exchange(std::uint16_t port, const std::string& bytes) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    timeval timeout{2, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    boost::system::error_code ec;
    boost::asio::write(socket, boost::asio::buffer(bytes), ec);
    std::string answer;
    char chunk[4096];
    for (;;) {
        const std::size_t n = socket.read_some(boost::asio::buffer(chunk), ec);
        if (ec) break;
        answer.append(chunk, n);
    }
    return answer;
}

}  // namespace

TEST_CASE("GET /healthz over HTTP", "[transport][http]") {
    test::RunningServer running;
    const test::HttpResponse response = test::http_request(running.port(), http::verb::get, "/healthz");
    CHECK(response.result_int() == 200);
    CHECK(response[http::field::content_type] == "application/json");
    CHECK(json::parse(response.body()) == json{{"status", "ok"}});
}

TEST_CASE("GET /metrics over HTTP shows the live numbers", "[transport][http]") {
    test::RunningServer running;
    test::WsClient client(running.port());
    REQUIRE(client.hello(running.guest_token()));
    REQUIRE(test::eventually([&] { return running.server().metrics().open_sockets.load() == 1; }));

    test::http_request(running.port(), http::verb::get, "/healthz");
    const test::HttpResponse response = test::http_request(running.port(), http::verb::get, "/metrics");
    CHECK(response.result_int() == 200);
    CHECK(response[http::field::content_type].starts_with("text/plain; version=0.0.4"));
    const std::string& text = response.body();
    CHECK(text.find("\nsantorini_open_sockets 1\n") != std::string::npos);
    CHECK(text.find("\nsantorini_http_requests_total 2\n") != std::string::npos);
    CHECK(text.find("\nsantorini_messages_in_total 1\n") != std::string::npos);
    CHECK(text.find("santorini_step_latency_seconds_bucket{le=\"+Inf\"}") != std::string::npos);
    CHECK(text.find("santorini_rejected_messages_total{reason=\"rate_limited\"} 0") != std::string::npos);
}

TEST_CASE("a guest made over HTTP can say hello over WebSocket", "[transport][http]") {
    test::RunningServer running;
    const test::HttpResponse response =
        test::http_request(running.port(), http::verb::post, "/api/guests", R"({"name":"Bea"})");
    REQUIRE(response.result_int() == 201);
    const json guest = json::parse(response.body());

    test::WsClient client(running.port());
    const std::optional<json> welcome = client.hello(guest["token"].get<std::string>());
    REQUIRE(welcome);
    CHECK((*welcome)["type"] == "welcome");
    CHECK((*welcome)["player"] == json{{"id", guest["id"]}, {"name", "Bea"}});
}

TEST_CASE("HTTP errors over the wire", "[transport][http]") {
    server::Config config = test::transport_config();
    config.max_http_body = 1024;
    test::RunningServer running(config);

    const test::HttpResponse unknown = test::http_request(running.port(), http::verb::get, "/api/nothing");
    CHECK(unknown.result_int() == 404);
    CHECK(json::parse(unknown.body()).contains("error"));

    CHECK(test::http_request(running.port(), http::verb::get, "/").result_int() == 404);
    CHECK(test::http_request(running.port(), http::verb::put, "/healthz", "{}").result_int() == 405);
    CHECK(test::http_request(running.port(), http::verb::get, "/ws").result_int() == 426);

    const std::string big = R"({"name":")" + std::string(4000, 'x') + "\"}";
    const test::HttpResponse too_big = test::http_request(running.port(), http::verb::post, "/api/guests", big);
    CHECK(too_big.result_int() == 413);
    CHECK(json::parse(too_big.body()).contains("error"));

    // The server is still fine afterwards.
    CHECK(test::http_request(running.port(), http::verb::get, "/healthz").result_int() == 200);
}

TEST_CASE("requests the parser refuses get a status, not silence", "[transport][http]") {
    test::RunningServer running;
    const std::string garbage = raw_exchange(running.port(), "NOT A REQUEST\r\n\r\n");
    CHECK(garbage.starts_with("HTTP/1.1 400 "));

    const std::string huge_header =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + std::string(16 * 1024, 'a') + "\r\n\r\n";
    CHECK(raw_exchange(running.port(), huge_header).starts_with("HTTP/1.1 431 "));

    // Two requests on one keep-alive connection are both answered, in order.
    const std::string two = raw_exchange(running.port(),
                                         "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
                                         "GET /api/nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    const std::size_t second = two.find("HTTP/1.1 404 ");
    CHECK(two.starts_with("HTTP/1.1 200 "));
    CHECK(second != std::string::npos);
}
