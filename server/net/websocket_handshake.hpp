#pragma once
// The opening handshake of a WebSocket connection (RFC 6455, section 4.2), server side: whether
// an upgrade request may be accepted, and the 101 response that accepts it. HttpSession reads
// the request and refuses a bad one with an ordinary HTTP error; WebsocketSession writes the
// 101 and speaks WebSocket from then on.

#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/string_body.hpp>

namespace server::ws {

/// Why an upgrade request is refused: the HTTP status and a message for people.
struct UpgradeRefusal {
    boost::beast::http::status status;
    std::string_view message;
};

/// nullopt when `request` is a WebSocket upgrade the server accepts: HTTP/1.1 GET with Host,
/// `Connection: upgrade`, `Upgrade: websocket`, a Sec-WebSocket-Key of 16 bytes in base64 and
/// Sec-WebSocket-Version 13. Otherwise 400, or 426 for another protocol version (the response
/// then names version 13, section 4.4).
std::optional<UpgradeRefusal> refuse_upgrade(const boost::beast::http::request<boost::beast::http::string_body>& request);

/// Sec-WebSocket-Accept for a client's Sec-WebSocket-Key: base64(SHA-1(key + the RFC's GUID)).
std::string accept_key(std::string_view client_key);

/// The whole 101 Switching Protocols response for an accepted `client_key`.
std::string switching_protocols(std::string_view client_key);

}  // namespace server::ws
