#include "server/http/errors.hpp"

namespace server {

namespace http = boost::beast::http;

std::string_view http_error_code(http::status status) {
    switch (status) {
        case http::status::bad_request: return "bad_request";
        case http::status::unauthorized: return "unauthorized";
        case http::status::forbidden: return "forbidden";
        case http::status::not_found: return "not_found";
        case http::status::method_not_allowed: return "method_not_allowed";
        case http::status::conflict: return "conflict";
        case http::status::payload_too_large: return "payload_too_large";
        case http::status::upgrade_required: return "upgrade_required";
        case http::status::too_many_requests: return "rate_limited";
        case http::status::request_header_fields_too_large: return "header_too_large";
        case http::status::service_unavailable: return "unavailable";
        default: return "internal";
    }
}

nlohmann::json http_error_body(http::status status, std::string_view message) {
    return {{"error", message}, {"code", http_error_code(status)}};
}

}  // namespace server
