#pragma once
// docs/openapi.yaml is the contract of every HTTP answer: the API tests' main (tests/api/main.cpp)
// installs a test::HttpObserver that sends each exchange any API test makes to
// tests/api/validate_openapi.py --serve (one process for the whole run), which checks its route,
// method, status, content type and body against the document, and the request's body too when
// the server accepted it (a 2xx): what the server takes, the document must allow. Violations
// are kept and fail the run; the test case that received the answer is named with each.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include <boost/beast/http/verb.hpp>

#include "tests/server/support/http_observer.hpp"

namespace api_test {

/// Hands a raw HTTP/1.1 answer (as read off a socket) to the observer, parsed; an answer that
/// does not parse is a violation.
void observe_raw_http(boost::beast::http::verb method, std::string_view target, const std::string& raw);

/// Starts checking every answer (the validator starts at the first one).
void start_openapi_contract();

/// Names the test case running now, for the violations found while it runs.
void openapi_contract_case(std::string name);

/// Stops the validator; the violations found, one line each, and how many answers were checked.
std::vector<std::string> finish_openapi_contract(std::size_t& checked);

/// The validator's verdict on one exchange: "" when it conforms, else why not (used by the
/// contract's own tests: a deliberately wrong answer, or an accepted request body the document
/// does not allow, must be refused).
std::string openapi_verdict(boost::beast::http::verb method, std::string_view target,
                            const boost::beast::http::response<boost::beast::http::string_body>& response,
                            std::string_view request_body = {});

}  // namespace api_test
