#include "server/http/routes.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string_view>
#include <system_error>
#include <utility>
#include <variant>

#include <boost/beast/http/field.hpp>
#include <boost/beast/http/status.hpp>
#include <boost/beast/http/verb.hpp>
#include <boost/beast/version.hpp>

#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/power_catalog_json.hpp"
#include "server/http/account_routes.hpp"
#include "server/http/api_params.hpp"
#include "server/http/errors.hpp"
#include "server/accounts/player_name.hpp"
#include "server/http/route_table.hpp"
#include "server/http/security_headers.hpp"
#include "server/http/url_decode.hpp"

namespace server {
namespace {

using json = nlohmann::json;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

constexpr std::string_view json_type = "application/json";
constexpr std::string_view server_name = "santorini-server";
// Static files are the browser client (HTML, scripts, images): anything larger is a mistake.
constexpr std::uintmax_t max_static_file = 32u * 1024 * 1024;
constexpr std::size_t max_match_id = 64;

Response make_response(const Request& request, http::status status, std::string body,
                       std::string_view content_type) {
    Response response{status, request.version()};
    response.set(http::field::server, server_name);
    response.set(http::field::content_type, content_type);
    set_security_headers(response);
    response.keep_alive(request.keep_alive());
    response.body() = std::move(body);
    response.prepare_payload();
    return response;
}

/// An API answer whose body is JSON text already written.
Response json_text_response(const Request& request, http::status status, std::string body) {
    Response response = make_response(request, status, std::move(body), json_type);
    // API answers change all the time, and one of them carries a secret token.
    response.set(http::field::cache_control, "no-store");
    return response;
}

Response json_response(const Request& request, http::status status, const json& body) {
    return json_text_response(request, status, body.dump());
}

Response error_response(const Request& request, http::status status, std::string_view message) {
    return json_response(request, status, http_error_body(status, message));
}

Response method_not_allowed(const Request& request, std::string_view allow) {
    Response response = error_response(request, http::status::method_not_allowed, "method not allowed");
    response.set(http::field::allow, allow);
    return response;
}

bool is_get(const Request& request) {
    return request.method() == http::verb::get || request.method() == http::verb::head;
}

std::string_view path_of(std::string_view target) {
    return target.substr(0, target.find_first_of("?#"));
}

// A stopping node answers 503, so a load balancer's health check sends new connections to the
// others at once; in a fleet the answer also says which node this is and who leads.
// /healthz says how the process and its database are (the process is alive while it answers);
// /readyz fails (503, Retry-After) while this node should get no traffic: stopping, or its
// database unreachable (docs/api.md).
Response health(const Request& request, const Hub& hub, bool readiness) {
    if (!is_get(request)) return method_not_allowed(request, readiness ? allow_of("/readyz") : allow_of("/healthz"));
    json body = {{"status", hub.stopping() ? "stopping" : "ok"}};
    const std::optional<bool> database = hub.database_reachable();
    if (database) body["database"] = *database ? "ok" : "unreachable";
    if (hub.recovering()) body["recovering"] = true;
    if (json fleet = hub.fleet_status(); !fleet.is_null()) body["fleet"] = std::move(fleet);
    const bool failing = hub.stopping() || (readiness && database == false);
    if (readiness && failing && !hub.stopping()) body["status"] = "unavailable";
    Response response = json_response(
        request, failing ? http::status::service_unavailable : http::status::ok, body);
    if (failing) response.set(http::field::retry_after, "5");
    response.set(http::field::cache_control, "no-store");
    return response;
}

Response metrics_page(const Request& request, const Metrics& metrics) {
    if (!is_get(request)) return method_not_allowed(request, allow_of("/metrics"));
    Response response =
        make_response(request, http::status::ok, metrics.render(), "text/plain; version=0.0.4; charset=utf-8");
    response.set(http::field::cache_control, "no-store");
    return response;
}

// What an answer given later needs of its request (the request itself is gone by then).
Request shell_of(const Request& request) {
    Request shell{request.method(), request.target(), request.version()};
    shell.keep_alive(request.keep_alive());
    return shell;
}

// The guest is stored on the hub's pool (a database insert); the answer comes from there.
void create_guest(const Request& request, Hub& hub, std::string_view client, const HttpReply& reply) {
    if (request.method() != http::verb::post) return reply(method_not_allowed(request, allow_of("/api/guests")));
    if (!hub.allow_guest_from(client)) {
        Response response = error_response(request, http::status::too_many_requests,
                                           "too many new guests from your address; try again later");
        response.set(http::field::retry_after, "60");
        return reply(std::move(response));
    }
    const json body = json::parse(request.body(), nullptr, /*allow_exceptions=*/false);
    if (body.is_discarded()) return reply(error_response(request, http::status::bad_request, "body is not valid JSON"));
    if (!body.is_object() || !body.contains("name") || !body["name"].is_string()) {
        return reply(error_response(request, http::status::bad_request, "expected {\"name\": string}"));
    }
    // Refused here, so the answer can say what is wrong with the name.
    if (auto why = name_problem(body["name"].get_ref<const std::string&>()))
        return reply(error_response(request, http::status::bad_request, *why));
    hub.new_guest(body["name"].get<std::string>(),
                  [shell = shell_of(request), reply](std::variant<Guest, IdentityError> made) {
                      if (auto* why = std::get_if<IdentityError>(&made)) {
                          if (*why == IdentityError::Unavailable) {
                              Response response = error_response(shell, http::status::service_unavailable,
                                                                 "temporarily unavailable; try again");
                              response.set(http::field::retry_after, "5");
                              return reply(std::move(response));
                          }
                          return reply(error_response(shell, http::status::bad_request,
                                                      "name refused"));
                      }
                      const Guest& guest = std::get<Guest>(made);
                      reply(json_response(shell, http::status::created,
                                          json{{"id", guest.id}, {"name", guest.name}, {"token", guest.token}}));
                  });
}

void api(const Request& request, std::string_view path, Hub& hub, std::string_view client, const HttpReply& reply) {
    if (path == "/api/guests") return create_guest(request, hub, client, reply);
    if (is_account_path(path)) return handle_account_request(request, path, hub.accounts(), client, reply);
    if (is_preferences_path(path)) return handle_preferences_request(request, hub.preferences(), reply);
    if (path == "/api/lobbies") {
        if (!is_get(request)) return reply(method_not_allowed(request, allow_of("/api/lobbies")));
        return reply(json_response(request, http::status::ok, hub.public_lobbies()));
    }
    if (path == "/api/queues")
        return reply(is_get(request) ? json_response(request, http::status::ok, hub.queues())
                                     : method_not_allowed(request, allow_of("/api/queues")));
    if (path == "/api/powers")  // the engine's catalog: the client keeps no copy (docs/api.md)
        return reply(is_get(request) ? json_response(request, http::status::ok, protocol::power_catalog_json())
                                     : method_not_allowed(request, allow_of("/api/powers")));
    if (path == "/api/matches") {
        if (!is_get(request)) return reply(method_not_allowed(request, allow_of("/api/matches")));
        return reply(json_text_response(request, http::status::ok, hub.live_matches_text()));
    }
    constexpr std::string_view matches_prefix = "/api/matches/";
    if (path.starts_with(matches_prefix)) {
        const std::string_view id = path.substr(matches_prefix.size());
        if (id.empty() || id.size() > max_match_id || id.find('/') != std::string_view::npos) {
            return reply(error_response(request, http::status::not_found, "not found"));
        }
        if (!is_get(request)) return reply(method_not_allowed(request, allow_of("/api/matches/{id}")));
        // A private match needs its invite code (?code=), as its replay does (docs/api.md).
        std::string code;
        if (auto parsed = parse_api_request(request.method(), request.target());
            std::holds_alternative<ApiRequest>(parsed))
            if (auto* header = std::get_if<MatchHeaderRequest>(&std::get<ApiRequest>(parsed)))
                code = header->code;
        // The view is the match's: asked of its strand, answered from there.
        return hub.match_summary(std::string(id), code, [shell = shell_of(request), reply](std::optional<json> summary) {
            if (!summary) return reply(error_response(shell, http::status::not_found, "unknown match"));
            reply(json_response(shell, http::status::ok, *summary));
        });
    }
    reply(error_response(request, http::status::not_found, "not found"));
}

// A strong validator of a file's bytes: FNV-1a, 64 bits, quoted.
std::string entity_tag(std::string_view bytes) {
    std::uint64_t hash = 14695981039346656037ull;
    for (const unsigned char c : bytes) hash = (hash ^ c) * 1099511628211ull;
    char text[19];
    std::snprintf(text, sizeof text, "\"%016llx\"", static_cast<unsigned long long>(hash));
    return text;
}

// If-None-Match: "*", or a comma-separated list of tags (a weak W/ prefix compares equal here:
// the comparison for GET is the weak one, RFC 9110 13.1.2).
bool matches_entity_tag(std::string_view header, std::string_view tag) {
    while (!header.empty()) {
        const std::size_t comma = header.find(',');
        std::string_view item = header.substr(0, comma);
        header = comma == std::string_view::npos ? std::string_view() : header.substr(comma + 1);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t')) item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t')) item.remove_suffix(1);
        if (item.starts_with("W/")) item.remove_prefix(2);
        if (item == "*" || item == tag) return true;
    }
    return false;
}

Response static_file(const Request& request, const Config& config) {
    if (!is_get(request)) return method_not_allowed(request, "GET, HEAD");
    const std::optional<std::filesystem::path> file = static_file_path(config.web_root, request.target());
    if (!file) return error_response(request, http::status::not_found, "not found");

    std::error_code ec;
    if (!std::filesystem::is_regular_file(*file, ec)) {
        return error_response(request, http::status::not_found, "not found");
    }
    // A symbolic link inside the web root must not lead outside it.
    const std::filesystem::path root = std::filesystem::canonical(config.web_root, ec);
    if (ec) return error_response(request, http::status::not_found, "not found");
    const std::filesystem::path real = std::filesystem::canonical(*file, ec);
    if (ec) return error_response(request, http::status::not_found, "not found");
    const auto [root_end, real_it] = std::mismatch(root.begin(), root.end(), real.begin(), real.end());
    if (root_end != root.end()) return error_response(request, http::status::not_found, "not found");

    const std::uintmax_t size = std::filesystem::file_size(real, ec);
    if (ec || size > max_static_file) return error_response(request, http::status::not_found, "not found");
    std::ifstream in(real, std::ios::binary);
    if (!in) return error_response(request, http::status::not_found, "not found");
    std::string body(static_cast<std::size_t>(size), '\0');
    in.read(body.data(), static_cast<std::streamsize>(size));
    body.resize(static_cast<std::size_t>(in.gcount()));
    // no-cache: a browser asks again each time, and an unchanged file costs a 304 and no body
    // (the client is some forty modules: a phone on a slow link must not fetch them all again).
    const std::string tag = entity_tag(body);
    if (matches_entity_tag(request[http::field::if_none_match], tag)) {
        Response response = make_response(request, http::status::not_modified, std::string(), mime_type(real.string()));
        response.erase(http::field::content_length);  // not the file's length: none at all
        response.set(http::field::etag, tag);
        response.set(http::field::cache_control, "no-cache");
        return response;
    }
    Response response = make_response(request, http::status::ok, std::move(body), mime_type(real.string()));
    response.set(http::field::etag, tag);
    response.set(http::field::cache_control, "no-cache");
    return response;
}

void route(const Request& request, Hub& hub, Metrics& metrics, const Config& config, std::string_view client,
           const HttpReply& reply) {
    const std::string_view path = path_of(request.target());
    if (path == "/metrics") {
        // Served here only when no separate address took it (Config::metrics_address).
        if (config.metrics_only || config.metrics_address.empty()) return reply(metrics_page(request, metrics));
        return reply(error_response(request, http::status::not_found, "not found"));
    }
    // The metrics listener answers nothing else.
    if (config.metrics_only) return reply(error_response(request, http::status::not_found, "not found"));
    if (path == "/healthz") return reply(health(request, hub, false));
    if (path == "/readyz") return reply(health(request, hub, true));
    if (path == "/api" || path.starts_with("/api/")) return api(request, path, hub, client, reply);
    if (path == "/ws") {
        if (!is_get(request)) return reply(method_not_allowed(request, allow_of("/ws")));
        Response response =
            error_response(request, http::status::upgrade_required, "this path only accepts WebSocket upgrades");
        response.set(http::field::upgrade, "websocket");
        return reply(std::move(response));
    }
    reply(static_file(request, config));
}

}  // namespace

void handle_http(const http::request<http::string_body>& request, Hub& hub, Metrics& metrics, const Config& config,
                 std::string_view client, HttpReply reply) {
    metrics.http_requests.fetch_add(1, std::memory_order_relaxed);
    route(request, hub, metrics, config, client,
          [head = request.method() == http::verb::head, reply = std::move(reply)](Response response) {
              if (head && response.result() != http::status::not_modified) {
                  // Same headers as GET, no body: the Content-Length still tells the size.
                  const std::size_t size = response.body().size();
                  response.body().clear();
                  response.content_length(size);
              }
              reply(std::move(response));
          });
}

std::string_view mime_type(std::string_view path) {
    const std::size_t slash = path.find_last_of("/\\");
    const std::string_view name = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const std::size_t dot = name.rfind('.');
    if (dot == std::string_view::npos) return "application/octet-stream";
    std::string extension(name.substr(dot + 1));
    for (char& c : extension) {
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    }
    static constexpr std::array<std::pair<std::string_view, std::string_view>, 20> types{{
        {"html", "text/html; charset=utf-8"},
        {"htm", "text/html; charset=utf-8"},
        {"css", "text/css; charset=utf-8"},
        {"js", "text/javascript; charset=utf-8"},
        {"mjs", "text/javascript; charset=utf-8"},
        {"json", "application/json"},
        {"map", "application/json"},
        {"txt", "text/plain; charset=utf-8"},
        {"md", "text/markdown; charset=utf-8"},
        {"svg", "image/svg+xml"},
        {"png", "image/png"},
        {"jpg", "image/jpeg"},
        {"jpeg", "image/jpeg"},
        {"gif", "image/gif"},
        {"webp", "image/webp"},
        {"ico", "image/vnd.microsoft.icon"},
        {"wasm", "application/wasm"},
        {"woff", "font/woff"},
        {"woff2", "font/woff2"},
        {"webmanifest", "application/manifest+json"},
    }};
    for (const auto& [ext, type] : types) {
        if (ext == extension) return type;
    }
    return "application/octet-stream";
}

std::optional<std::filesystem::path> static_file_path(const std::filesystem::path& root,
                                                      std::string_view target) {
    const std::optional<std::string> path = url_decode(path_of(target), /*plus_is_space=*/false);
    if (!path || path->empty() || path->front() != '/') return std::nullopt;
    if (path->find('\\') != std::string::npos || path->find('\0') != std::string::npos) return std::nullopt;

    std::filesystem::path relative;
    std::size_t start = 1;
    while (start <= path->size()) {
        std::size_t end = path->find('/', start);
        if (end == std::string::npos) end = path->size();
        const std::string_view segment = std::string_view(*path).substr(start, end - start);
        if (!segment.empty()) {
            // ".." would climb out; "." and dotfiles (.git, .env) are never served.
            if (segment.front() == '.') return std::nullopt;
            relative /= std::string(segment);
        }
        start = end + 1;
    }
    if (path->back() == '/') relative /= "index.html";
    return root / relative;
}

}  // namespace server
