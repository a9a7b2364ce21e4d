// The WebSocket protocol over real sockets on loopback, as a client that is not Beast's may
// speak it: pings and pongs, fragments with control frames between them, a message arriving a
// byte at a time or in the same packet as the upgrade, the closing handshake from either side,
// and the frames that fail a connection (each with its close code, the others unharmed).

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/abuse_support.hpp"
#include "tests/server/support/transport_fixture.hpp"

namespace transport_wire_test {

using namespace std::chrono_literals;
using abuse::RawClient;
using json = nlohmann::json;

std::string hello_text(const std::string& token) {
    return json{{"type", "hello"}, {"protocol", 1}, {"token", token}}.dump();
}

// Reads raw bytes from a plain socket until `needle` shows up (or 5 s pass).
bool bytes_show(boost::asio::ip::tcp::socket& socket, std::string_view needle) {
    std::string seen;
    const auto until = std::chrono::steady_clock::now() + 5s;
    socket.non_blocking(true);
    while (std::chrono::steady_clock::now() < until) {
        char chunk[4096];
        boost::system::error_code ec;
        const std::size_t n = socket.read_some(boost::asio::buffer(chunk), ec);
        if (ec == boost::asio::error::would_block || ec == boost::asio::error::try_again) {
            std::this_thread::sleep_for(5ms);
            continue;
        }
        if (ec) return false;
        seen.append(chunk, n);
        if (seen.find(needle) != std::string::npos) return true;
    }
    return false;
}

TEST_CASE("a ping is answered with a pong that carries its payload", "[transport][wire]") {
    test::RunningServer running;
    RawClient client(running.port());
    REQUIRE(client.write(abuse::frame(abuse::Ping, true, "are you there?")));
    const auto pong = client.read_frame();
    REQUIRE(pong);
    CHECK(pong->opcode == abuse::Pong);
    CHECK(pong->payload == "are you there?");
    // An unsolicited pong is allowed and answered by nothing; the connection goes on.
    REQUIRE(client.write(abuse::frame(abuse::Pong, true, "")));
    CHECK(client.hello(running.guest_token("pinger")));
}

TEST_CASE("a message in fragments, a ping between them, sent a byte at a time, is one message", "[transport][wire]") {
    test::RunningServer running;
    RawClient client(running.port());
    const std::string hello = hello_text(running.guest_token("slow"));
    const std::string bytes = abuse::frame(abuse::Text, false, hello.substr(0, 10)) +
                              abuse::frame(abuse::Ping, true, "x") +
                              abuse::frame(abuse::Continuation, false, hello.substr(10, 7)) +
                              abuse::frame(abuse::Continuation, true, hello.substr(17));
    for (const char byte : bytes) {
        REQUIRE(client.write(std::string_view(&byte, 1)));
        std::this_thread::sleep_for(200us);
    }
    const auto pong = client.read_frame();
    REQUIRE(pong);
    CHECK(pong->opcode == abuse::Pong);
    const auto welcome = client.read_type("welcome");
    REQUIRE(welcome);
    CHECK((*welcome)["player"]["name"] == "slow");
    CHECK(client.round_trip());
}

TEST_CASE("a hello sent in the same packet as the upgrade request is answered", "[transport][wire]") {
    test::RunningServer running;
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), running.port()});
    const std::string request =
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n" +
        abuse::frame(abuse::Text, true, hello_text(running.guest_token("eager")));
    boost::asio::write(socket, boost::asio::buffer(request));
    CHECK(bytes_show(socket, R"("type":"welcome")"));
}

TEST_CASE("an upgrade the server cannot accept is refused over HTTP", "[transport][wire]") {
    test::RunningServer running;
    auto answer = [&](const std::string& headers) {
        boost::asio::io_context io;
        boost::asio::ip::tcp::socket socket(io);
        socket.connect({boost::asio::ip::make_address("127.0.0.1"), running.port()});
        const std::string request = "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n"
                                    "Connection: Upgrade\r\n" + headers + "\r\n";
        boost::asio::write(socket, boost::asio::buffer(request));
        std::string response;
        boost::system::error_code ec;
        boost::asio::read(socket, boost::asio::dynamic_buffer(response), ec);  // to the end: not kept alive
        return response;
    };
    const std::string version_8 = answer("Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n");
    CHECK(version_8.rfind("HTTP/1.1 426", 0) == 0);
    CHECK(version_8.find("Sec-WebSocket-Version: 13") != std::string::npos);
    CHECK(version_8.find(R"("code":"upgrade_required")") != std::string::npos);
    const std::string no_key = answer("Sec-WebSocket-Version: 13\r\n");
    CHECK(no_key.rfind("HTTP/1.1 400", 0) == 0);
    CHECK(running.server().sessions().session_count() == 0);
}

TEST_CASE("the client's close is answered with its code, then the server ends the connection", "[transport][wire]") {
    test::RunningServer running;
    RawClient client(running.port());
    REQUIRE(client.hello(running.guest_token("leaver")));
    REQUIRE(client.write(abuse::frame(abuse::Close, true, std::string("\x0F\xA5", 2) + "bye")));  // 4005
    const auto answer = client.read_frame();
    REQUIRE(answer);
    CHECK(answer->opcode == abuse::Close);
    CHECK(answer->payload.substr(0, 2) == std::string("\x0F\xA5", 2));
    CHECK(client.stream_ends());
    CHECK(test::eventually([&] { return running.server().sessions().session_count() == 0; }));
}

TEST_CASE("frames a client may not send close it with 1002, text that is not UTF-8 with 1007", "[transport][wire]") {
    test::RunningServer running;
    RawClient honest(running.port(), "127.0.0.2");
    REQUIRE(honest.hello(running.guest_token("honest")));

    auto closed_with = [&](const std::string& bytes) {
        RawClient client(running.port());
        REQUIRE(client.hello(running.guest_token("breaker")));
        REQUIRE(client.write(bytes));
        return client.read_close(3s);
    };
    // Unmasked.
    CHECK(closed_with(std::string("\x81\x02hi", 4)) == std::optional<std::uint16_t>(1002));
    // RSV1 set (no extension was agreed).
    std::string deflated = abuse::frame(abuse::Text, true, "{}");
    deflated[0] = static_cast<char>(deflated[0] | 0x40);
    CHECK(closed_with(deflated) == std::optional<std::uint16_t>(1002));
    // A continuation with no message begun; a new message inside a fragmented one.
    CHECK(closed_with(abuse::frame(abuse::Continuation, true, "x")) == std::optional<std::uint16_t>(1002));
    CHECK(closed_with(abuse::frame(abuse::Text, false, "{") + abuse::frame(abuse::Text, true, "}")) ==
          std::optional<std::uint16_t>(1002));
    // A close frame with a code no peer may send.
    CHECK(closed_with(abuse::frame(abuse::Close, true, std::string("\x03\xED", 2))) == std::optional<std::uint16_t>(1002));
    // Text that is not UTF-8.
    CHECK(closed_with(abuse::frame(abuse::Text, true, "\"\xC0\x80\"")) == std::optional<std::uint16_t>(1007));

    // A binary message is refused, and the connection lives on.
    RawClient binary(running.port());
    REQUIRE(binary.hello(running.guest_token("binary")));
    REQUIRE(binary.write(abuse::frame(abuse::Binary, true, "{}")));
    const auto refusal = binary.read_type("error");
    REQUIRE(refusal);
    CHECK((*refusal)["code"] == "malformed_json");
    CHECK(binary.round_trip());
    CHECK(honest.round_trip());
}

}  // namespace transport_wire_test
