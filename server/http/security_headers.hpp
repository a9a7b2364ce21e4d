#pragma once
// The security headers every HTTP answer carries (docs/api.md, "Security headers"): the browser
// client runs only the server's own scripts and styles, talks only to its own origin, and no
// other site may frame it (clickjacking) or sniff a JSON answer into a script.

#include <array>
#include <string_view>
#include <utility>

#include <boost/beast/http/message.hpp>

namespace server {

/// The client's Content-Security-Policy. Scripts, style sheets, images, fonts and connections
/// (fetch, the WebSocket: 'self' covers ws/wss of the same host) come from the server itself;
/// inline style *attributes* stay allowed because the client colours seats with
/// style="--side:..." (web/js/dom.js sets attributes), but inline <style> and <script> do not.
inline constexpr std::string_view content_security_policy =
    "default-src 'self'; script-src 'self'; style-src 'self'; style-src-attr 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/// The security headers, name and value: every answer's, and the listener's raw refusals'.
inline constexpr std::array<std::pair<std::string_view, std::string_view>, 4> security_headers{{
    {"Content-Security-Policy", content_security_policy},
    {"X-Content-Type-Options", "nosniff"},
    {"X-Frame-Options", "DENY"},
    {"Referrer-Policy", "no-referrer"},
}};

/// Sets the security headers on `response` (any body type).
template <class Body, class Fields>
void set_security_headers(boost::beast::http::response<Body, Fields>& response) {
    for (const auto& [name, value] : security_headers) response.set(name, value);
}

}  // namespace server
