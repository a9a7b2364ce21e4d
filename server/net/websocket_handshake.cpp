#include "server/net/websocket_handshake.hpp"

#include <array>
#include <cctype>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/rfc7230.hpp>
#include <openssl/evp.h>

namespace server::ws {

namespace http = boost::beast::http;

namespace {

// A Sec-WebSocket-Key is 16 bytes in base64: 22 characters of the alphabet and "==".
bool valid_key(std::string_view key) {
    if (key.size() != 24 || key.substr(22) != "==") return false;
    for (std::size_t i = 0; i < 22; ++i) {
        const unsigned char c = static_cast<unsigned char>(key[i]);
        if (!std::isalnum(c) && c != '+' && c != '/') return false;
    }
    return true;
}

}  // namespace

std::optional<UpgradeRefusal> refuse_upgrade(const http::request<http::string_body>& request) {
    if (request.version() < 11) return UpgradeRefusal{http::status::bad_request, "HTTP/1.1 is required"};
    if (request.method() != http::verb::get) return UpgradeRefusal{http::status::bad_request, "the upgrade must be a GET"};
    if (request.find(http::field::host) == request.end())
        return UpgradeRefusal{http::status::bad_request, "the Host header is missing"};
    // Token lists, compared without case ("keep-alive, Upgrade").
    if (!http::token_list(request[http::field::connection]).exists("upgrade") ||
        !http::token_list(request[http::field::upgrade]).exists("websocket"))
        return UpgradeRefusal{http::status::bad_request, "expected Connection: upgrade and Upgrade: websocket"};
    if (!valid_key(request[http::field::sec_websocket_key]))
        return UpgradeRefusal{http::status::bad_request, "Sec-WebSocket-Key is missing or invalid"};
    if (request[http::field::sec_websocket_version] != "13")
        return UpgradeRefusal{http::status::upgrade_required, "only WebSocket version 13 is spoken here"};
    return std::nullopt;
}

std::string accept_key(std::string_view client_key) {
    static constexpr std::string_view guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    std::string input;
    input.reserve(client_key.size() + guid.size());
    input.append(client_key).append(guid);
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int length = 0;
    EVP_Digest(input.data(), input.size(), digest.data(), &length, EVP_sha1(), nullptr);
    std::array<unsigned char, 4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1> encoded{};
    const int written = EVP_EncodeBlock(encoded.data(), digest.data(), static_cast<int>(length));
    return std::string(reinterpret_cast<const char*>(encoded.data()), static_cast<std::size_t>(written));
}

std::string switching_protocols(std::string_view client_key) {
    std::string response =
        "HTTP/1.1 101 Switching Protocols\r\n"
        "Upgrade: websocket\r\n"
        "Connection: Upgrade\r\n"
        "Server: santorini-server\r\n"
        "Sec-WebSocket-Accept: ";
    response += accept_key(client_key);
    response += "\r\n\r\n";
    return response;
}

}  // namespace server::ws
