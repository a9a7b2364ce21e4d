#pragma once
// The JSON body of every HTTP error the server answers: {"error": "<for people>", "code":
// "<for programs>"} (docs/api.md, "Errors"). One place, so every route speaks the same codes.

#include <string_view>
// Boost 1.81's core/string_view (under beast/http) uses std::ostream without including it.
#include <ostream>

#include <boost/beast/http/status.hpp>

#include "protocol/json/basic_json.hpp"

namespace server {

/// The machine code for an error status: "bad_request" (400), "unauthorized" (401),
/// "not_found" (404), "method_not_allowed" (405), "conflict" (409), "payload_too_large" (413),
/// "upgrade_required" (426), "rate_limited" (429), "header_too_large" (431), "unavailable" (503), "internal" otherwise.
std::string_view http_error_code(boost::beast::http::status status);

/// {"error": message, "code": http_error_code(status)}.
nlohmann::json http_error_body(boost::beast::http::status status, std::string_view message);

}  // namespace server
