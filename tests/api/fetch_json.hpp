#pragma once
// A GET of the HTTP API that must answer a given status with a JSON body: the API tests' common
// request.

#include <cstdint>
#include <string>

#include <boost/beast/http.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/ws_client.hpp"

namespace api_test {

/// The body of GET `target` on the server at `port`, which must answer `status`, as JSON.
inline nlohmann::json fetch_json(std::uint16_t port, const std::string& target,
                                 boost::beast::http::status status = boost::beast::http::status::ok) {
    const test::HttpResponse response = test::http_request(port, boost::beast::http::verb::get, target);
    INFO(target << " -> " << response.result_int() << " " << response.body());
    REQUIRE(response.result() == status);
    const nlohmann::json body = nlohmann::json::parse(response.body(), nullptr, false);
    REQUIRE_FALSE(body.is_discarded());
    return body;
}

}  // namespace api_test
