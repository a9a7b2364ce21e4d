#pragma once
// The HTTP API as a function without socket I/O: request in, response out (STYLE.md: "HTTP
// request handling is a function without I/O"), the response handed to a callback because two
// routes answer later, from where their work runs (never blocking a network thread).
// http_session does the socket work around it.
//
//   GET  /healthz            200 {"status":"ok","database":"ok"|"unreachable"}; 503 stopping
//   GET  /readyz             as /healthz, but 503 (Retry-After) while the database is unreachable
//   GET  /metrics            200 Prometheus text (Metrics::render)
//   POST /api/guests         201 {"id","name","token"}; 400 for bad JSON or name; 429 (with
//                            Retry-After) past Config::guest_burst / guests_per_minute per address
//   GET  /api/lobbies        200 Hub::public_lobbies()
//   GET  /api/powers         200 the Santorini power catalog (protocol::power_catalog_json)
//   GET  /api/matches        200 Hub::live_matches()
//   GET  /api/matches/{id}   200 Hub::match_summary(id); 404 if the hub does not hold it (reached
//                            only without a database: otherwise HttpApi answers it from
//                            PostgreSQL, with the rest of docs/api.md)
//   /api/accounts, /api/account, /api/sessions, /api/sessions/current, /api/accounts/password
//                            sign-up, sign-in and out, password (server/http/account_routes.hpp)
//   GET, PUT /api/me/preferences  the player's preferences (server/http/account_routes.hpp)
//   GET  /ws                 426 unless it is a WebSocket upgrade (http_session handles those);
//                            405 for another method
//   GET  anything else       a static file under Config::web_root; 404 if there is none
// HEAD is accepted wherever GET is. Errors are JSON {"error":"...","code":"..."}
// (server/http/errors.hpp): 404 for unknown paths, 405 (with Allow, from
// server/http/route_table.hpp) for a known path with the wrong method.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/app/config.hpp"
#include "server/app/hub.hpp"
#include "server/app/metrics.hpp"

namespace server {

namespace http = boost::beast::http;

/// The answer to a request; may be called on another thread (post back to your own executor).
using HttpReply = std::function<void(http::response<http::string_body>)>;

/// Answers one request from the client address `client` (counts it in Metrics::http_requests):
/// calls `reply` exactly once, before returning for most routes; POST /api/guests answers from
/// the hub's blocking pool when a database stores the guest, and GET /api/matches/{id} from the
/// match's strand. Never throws for any input; keep-alive and HTTP version follow the request.
void handle_http(const http::request<http::string_body>& request, Hub& hub, Metrics& metrics,
                 const Config& config, std::string_view client, HttpReply reply);

/// The Content-Type for a file name, by extension ("application/octet-stream" if unknown).
std::string_view mime_type(std::string_view path);

/// The file under `root` that the URL path `target` names (query string ignored, percent
/// escapes decoded, "dir/" -> "dir/index.html"), or nullopt if the path could leave `root`
/// or names a hidden file: no segment may start with '.' (this covers ".." and "."), and no
/// backslash, NUL byte or bad escape is accepted. The file itself need not exist.
std::optional<std::filesystem::path> static_file_path(const std::filesystem::path& root,
                                                      std::string_view target);

}  // namespace server
