// The WebSocket wire format the server speaks (server/net/websocket_frame.hpp) and its opening
// handshake (server/net/websocket_handshake.hpp), byte by byte: what a client may send, what
// fails the connection, and the frames the server writes. Random bytes never make the parser
// claim more than it was given.

#include <array>
#include <catch2/catch_test_macros.hpp>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/net/websocket_frame.hpp"
#include "server/net/websocket_handshake.hpp"

namespace websocket_frame_test {

using server::ws::FrameHeader;
using server::ws::HeaderStatus;
using server::ws::Opcode;
using Bytes = std::vector<unsigned char>;

// A client frame as a browser would send it: masked with `mask`, the length in its shortest form.
Bytes client_frame(unsigned char first, const std::string& payload, std::array<unsigned char, 4> mask = {1, 2, 3, 4}) {
    Bytes out{first};
    if (payload.size() < 126) {
        out.push_back(static_cast<unsigned char>(0x80 | payload.size()));
    } else if (payload.size() <= 0xFFFF) {
        out.push_back(0x80 | 126);
        out.push_back(static_cast<unsigned char>(payload.size() >> 8));
        out.push_back(static_cast<unsigned char>(payload.size()));
    } else {
        out.push_back(0x80 | 127);
        for (int i = 7; i >= 0; --i) out.push_back(static_cast<unsigned char>(std::uint64_t{payload.size()} >> (8 * i)));
    }
    out.insert(out.end(), mask.begin(), mask.end());
    for (std::size_t i = 0; i < payload.size(); ++i) out.push_back(static_cast<unsigned char>(payload[i]) ^ mask[i % 4]);
    return out;
}

HeaderStatus status_of(const Bytes& bytes) {
    FrameHeader header;
    return server::ws::read_header(bytes, header);
}

TEST_CASE("a masked text frame is read, and unmasks to its payload", "[websocket][frames]") {
    for (const std::size_t size : {0u, 5u, 125u, 126u, 300u, 65535u, 65536u, 70000u}) {
        const std::string payload(size, 'x');
        Bytes bytes = client_frame(0x81, payload, {0xA1, 0xB2, 0xC3, 0xD4});
        FrameHeader header;
        REQUIRE(server::ws::read_header(bytes, header) == HeaderStatus::Complete);
        CHECK(header.fin);
        CHECK(header.opcode == Opcode::Text);
        CHECK(header.length == size);
        CHECK(header.size == (size < 126 ? 6u : size <= 0xFFFF ? 8u : 14u));
        CHECK(header.size + size == bytes.size());
        std::span<unsigned char> body(bytes.data() + header.size, size);
        server::ws::unmask(body, header.mask);
        CHECK(std::string(body.begin(), body.end()) == payload);
    }
}

TEST_CASE("a frame cut short anywhere in its header is incomplete, not an error", "[websocket][frames]") {
    for (const std::size_t size : {3u, 200u, 70000u}) {
        const Bytes whole = client_frame(0x82, std::string(size, 'y'));
        FrameHeader header;
        REQUIRE(server::ws::read_header(whole, header) == HeaderStatus::Complete);
        for (std::size_t cut = 0; cut < header.size; ++cut) {
            CHECK(status_of(Bytes(whole.begin(), whole.begin() + static_cast<std::ptrdiff_t>(cut))) ==
                  HeaderStatus::Incomplete);
        }
    }
}

TEST_CASE("frames a client may not send fail the connection", "[websocket][frames]") {
    // Unmasked.
    CHECK(status_of(Bytes{0x81, 0x01, 'a'}) == HeaderStatus::ProtocolError);
    // RSV1 (permessage-deflate was never agreed), RSV2, RSV3.
    for (const unsigned char rsv : {0x40, 0x20, 0x10})
        CHECK(status_of(client_frame(static_cast<unsigned char>(0x81 | rsv), "a")) == HeaderStatus::ProtocolError);
    // Reserved opcodes.
    for (const unsigned char opcode : {0x3, 0x7, 0xB, 0xF})
        CHECK(status_of(client_frame(static_cast<unsigned char>(0x80 | opcode), "a")) == HeaderStatus::ProtocolError);
    // A control frame fragmented, or longer than 125 bytes.
    CHECK(status_of(client_frame(0x09, "")) == HeaderStatus::ProtocolError);
    CHECK(status_of(client_frame(0x89, std::string(126, 'p'))) == HeaderStatus::ProtocolError);
    CHECK(status_of(client_frame(0x89, std::string(125, 'p'))) == HeaderStatus::Complete);
    // A length not in its shortest form, or with the 64-bit form's top bit set.
    CHECK(status_of(Bytes{0x81, 0x80 | 126, 0x00, 0x7D, 1, 2, 3, 4}) == HeaderStatus::ProtocolError);
    CHECK(status_of(Bytes{0x81, 0x80 | 127, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 1, 2, 3, 4}) == HeaderStatus::ProtocolError);
    CHECK(status_of(Bytes{0x81, 0x80 | 127, 0x80, 0, 0, 0, 0, 1, 0, 0, 1, 2, 3, 4}) == HeaderStatus::ProtocolError);
}

TEST_CASE("unmasking from any offset equals unmasking byte by byte", "[websocket][frames]") {
    std::mt19937 random(7);
    for (int round = 0; round < 200; ++round) {
        const std::size_t size = random() % 80;
        const std::size_t offset = random() % 9;
        std::array<unsigned char, 4> mask{};
        for (auto& byte : mask) byte = static_cast<unsigned char>(random());
        Bytes bytes(size);
        for (auto& byte : bytes) byte = static_cast<unsigned char>(random());
        Bytes expected = bytes;
        for (std::size_t i = 0; i < size; ++i) expected[i] ^= mask[(offset + i) % 4];
        server::ws::unmask(bytes, mask, offset);
        CHECK(bytes == expected);
    }
}

TEST_CASE("the server's frame headers: final, unmasked, the shortest length", "[websocket][frames]") {
    unsigned char out[server::ws::max_server_header_bytes];
    CHECK(server::ws::write_header(out, Opcode::Text, 0) == 2);
    CHECK((out[0] == 0x81 && out[1] == 0));
    CHECK(server::ws::write_header(out, Opcode::Pong, 125) == 2);
    CHECK((out[0] == 0x8A && out[1] == 125));
    CHECK(server::ws::write_header(out, Opcode::Text, 126) == 4);
    CHECK((out[1] == 126 && out[2] == 0 && out[3] == 126));
    CHECK(server::ws::write_header(out, Opcode::Text, 65535) == 4);
    CHECK((out[2] == 0xFF && out[3] == 0xFF));
    CHECK(server::ws::write_header(out, Opcode::Text, 65536) == 10);
    CHECK((out[1] == 127 && out[7] == 1 && out[8] == 0 && out[9] == 0));
}

TEST_CASE("UTF-8 is checked as RFC 3629 defines it", "[websocket][frames]") {
    using server::ws::is_utf8;
    CHECK(is_utf8(""));
    CHECK(is_utf8(R"({"type":"hello","protocol":1})"));
    CHECK(is_utf8("perché è già così: 3€ 😀 ordinary ASCII after"));
    CHECK(is_utf8("\xF4\x8F\xBF\xBF"));  // U+10FFFF
    CHECK_FALSE(is_utf8("\x80"));                  // a continuation byte first
    CHECK_FALSE(is_utf8("\xC0\x80"));              // overlong NUL
    CHECK_FALSE(is_utf8("\xE0\x80\x80"));          // overlong
    CHECK_FALSE(is_utf8("\xED\xA0\x80"));          // a surrogate
    CHECK_FALSE(is_utf8("\xF4\x90\x80\x80"));      // above U+10FFFF
    CHECK_FALSE(is_utf8("\xF5\x80\x80\x80"));
    CHECK_FALSE(is_utf8("abcdefgh\xE2\x82"));      // cut short after the fast ASCII path
    CHECK_FALSE(is_utf8("\xE2\x28\xA1"));          // a bad continuation
}

TEST_CASE("close frames: codes a peer may send, and reasons cut on a character", "[websocket][frames]") {
    using server::ws::read_close;
    auto payload = [](std::uint16_t code, const std::string& reason) {
        Bytes out{static_cast<unsigned char>(code >> 8), static_cast<unsigned char>(code)};
        out.insert(out.end(), reason.begin(), reason.end());
        return out;
    };
    CHECK(read_close(Bytes{})->code == server::ws::close_code::no_status);
    CHECK_FALSE(read_close(Bytes{0x03}));
    const Bytes bye = payload(1000, "bye");  // the reason is a view into it
    const auto normal = read_close(bye);
    REQUIRE(normal);
    CHECK((normal->code == 1000 && normal->reason == "bye"));
    for (const std::uint16_t code : {1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4999})
        CHECK(read_close(payload(code, "")));
    for (const std::uint16_t code : {0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535})
        CHECK_FALSE(read_close(payload(code, "")));
    CHECK_FALSE(read_close(payload(1000, "\xC0\x80")));

    std::string long_reason;
    for (int i = 0; i < 100; ++i) long_reason += "è";
    const std::string sent = server::ws::close_payload(1008, long_reason);
    CHECK(sent.size() <= server::ws::max_control_payload);
    CHECK(sent.size() >= server::ws::max_control_payload - 1);
    CHECK(server::ws::is_utf8(sent.substr(2)));
    CHECK(server::ws::close_payload(4000, "too slow") == std::string("\x0F\xA0too slow", 10));
}

TEST_CASE("random bytes never make the header parser read past them", "[websocket][frames][fuzz]") {
    std::mt19937 random(31);
    for (int round = 0; round < 20000; ++round) {
        Bytes bytes(random() % 16);
        for (auto& byte : bytes) byte = static_cast<unsigned char>(random());
        FrameHeader header;
        if (server::ws::read_header(bytes, header) == HeaderStatus::Complete) {
            CHECK(header.size <= bytes.size());
            CHECK((header.size == 6 || header.size == 8 || header.size == 14));
            if (server::ws::is_control(header.opcode)) CHECK(header.length <= server::ws::max_control_payload);
        }
    }
}

TEST_CASE("the opening handshake: RFC 6455's own example, and requests refused", "[websocket][handshake]") {
    namespace http = boost::beast::http;
    CHECK(server::ws::accept_key("dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=");
    const std::string response = server::ws::switching_protocols("dGhlIHNhbXBsZSBub25jZQ==");
    CHECK(response.rfind("HTTP/1.1 101 Switching Protocols\r\n", 0) == 0);
    CHECK(response.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n") != std::string::npos);
    CHECK(response.ends_with("\r\n\r\n"));

    auto upgrade = [] {
        http::request<http::string_body> request{http::verb::get, "/ws", 11};
        request.set(http::field::host, "127.0.0.1");
        request.set(http::field::connection, "keep-alive, Upgrade");
        request.set(http::field::upgrade, "websocket");
        request.set(http::field::sec_websocket_key, "dGhlIHNhbXBsZSBub25jZQ==");
        request.set(http::field::sec_websocket_version, "13");
        return request;
    };
    CHECK_FALSE(server::ws::refuse_upgrade(upgrade()));
    auto post = upgrade();
    post.method(http::verb::post);
    CHECK(server::ws::refuse_upgrade(post)->status == http::status::bad_request);
    auto old = upgrade();
    old.version(10);
    CHECK(server::ws::refuse_upgrade(old)->status == http::status::bad_request);
    auto no_host = upgrade();
    no_host.erase(http::field::host);
    CHECK(server::ws::refuse_upgrade(no_host)->status == http::status::bad_request);
    auto short_key = upgrade();
    short_key.set(http::field::sec_websocket_key, "c2hvcnQ=");
    CHECK(server::ws::refuse_upgrade(short_key)->status == http::status::bad_request);
    auto version_8 = upgrade();
    version_8.set(http::field::sec_websocket_version, "8");
    CHECK(server::ws::refuse_upgrade(version_8)->status == http::status::upgrade_required);
}

}  // namespace websocket_frame_test
