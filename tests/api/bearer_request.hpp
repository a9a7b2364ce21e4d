#pragma once
// A request of the HTTP API with the player's token in `Authorization: Bearer`, as the account
// and preference routes want it (the token never goes in the URL).

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include "tests/server/support/http_observer.hpp"
#include "tests/server/support/ws_client.hpp"

namespace api_test {

/// One request to `target` with `Authorization: Bearer <token>` (none when `token` is empty)
/// and `body` sent as it is (JSON); gives up after 15 s. Any method, HEAD too.
inline test::HttpResponse bearer_request(std::uint16_t port, boost::beast::http::verb method,
                                         const std::string& target, const std::string& token,
                                         const std::string& body = {}) {
    namespace http = boost::beast::http;
    boost::asio::io_context io;
    boost::beast::tcp_stream stream(io);
    stream.expires_after(std::chrono::seconds(15));
    http::request<http::string_body> request{method, target, 11};
    request.set(http::field::host, "127.0.0.1");
    if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
    if (!body.empty()) {
        request.set(http::field::content_type, "application/json");
        request.body() = body;
    }
    request.keep_alive(false);
    request.prepare_payload();
    // The answer to HEAD has GET's Content-Length and no body: the parser is told so.
    http::response_parser<http::string_body> parser;
    if (method == http::verb::head) parser.skip(true);
    boost::beast::flat_buffer buffer;
    boost::system::error_code result = boost::asio::error::timed_out;
    stream.async_connect(
        boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port),
        [&](boost::system::error_code ec) {
            if (ec) return void(result = ec);
            http::async_write(stream, request, [&](boost::system::error_code ec, std::size_t) {
                if (ec) return void(result = ec);
                http::async_read(stream, buffer, parser,
                                 [&](boost::system::error_code ec, std::size_t) { result = ec; });
            });
        });
    io.run_for(std::chrono::seconds(20));
    if (result) throw std::runtime_error(target + ": " + result.message());
    test::HttpResponse response = parser.release();
    test::observe_http(method, target, response, request.body());
    return response;
}

}  // namespace api_test
