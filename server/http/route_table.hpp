#pragma once
// The HTTP routes the server answers (the browser client's static files aside): each path, with
// "{id}" for one segment, and the methods it takes as its Allow header (HEAD wherever GET).
// The routes' 405 answers take their Allow header from here (allow_of), and the API tests
// check this table against docs/openapi.yaml both ways and against the server's answers to
// every method on every path (tests/api/api_openapi_test.cpp): a route added to the server
// without its line here, or here without its paths in the docs, fails a test.

#include <array>
#include <string_view>

namespace server {

/// One route: its path and the methods it answers.
struct HttpRoute {
    std::string_view path;
    std::string_view allow;
};

/// Every route; the order is the docs' (docs/openapi.yaml).
inline constexpr std::array<HttpRoute, 22> http_routes{{
    {"/api/guests", "POST"},
    {"/api/lobbies", "GET, HEAD"},
    {"/api/matches", "GET, HEAD"},
    {"/api/queues", "GET, HEAD"},
    {"/api/powers", "GET, HEAD"},
    {"/api/matches/{id}", "GET, HEAD"},
    {"/api/matches/{id}/replay", "GET, HEAD"},
    {"/api/matches/{id}/view", "GET, HEAD"},
    {"/api/players/{id}", "GET, HEAD"},
    {"/api/players/{id}/rating-history", "GET, HEAD"},
    {"/api/players/{id}/matches", "GET, HEAD"},
    {"/api/leaderboard", "GET, HEAD"},
    {"/api/accounts", "POST"},
    {"/api/account", "GET, HEAD"},
    {"/api/sessions", "POST"},
    {"/api/sessions/current", "DELETE"},
    {"/api/accounts/password", "POST"},
    {"/api/me/preferences", "GET, HEAD, PUT"},
    {"/healthz", "GET, HEAD"},
    {"/readyz", "GET, HEAD"},
    {"/metrics", "GET, HEAD"},
    {"/ws", "GET, HEAD"},
}};

/// The Allow header of the route `path` (as written in http_routes); a path not in the table
/// does not compile where the answer is a constant expression.
consteval std::string_view allow_of(std::string_view path) {
    for (const HttpRoute& route : http_routes)
        if (route.path == path) return route.allow;
    throw "allow_of: the path is not in http_routes";
}

}  // namespace server
