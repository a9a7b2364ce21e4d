#pragma once
// A hook on every HTTP exchange a test client makes (test::http_request and the API tests' own
// requests): the API tests install one that checks each answer, and each request body the
// server accepted, against docs/openapi.yaml (tests/api/openapi_contract.hpp), so the
// contract's coverage grows with the tests.

#include <functional>
#include <mutex>
#include <string_view>
#include <utility>

#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/verb.hpp>

namespace test {

/// Called with the method, the request target, the request's body (empty: none) and the
/// response of each HTTP exchange.
using HttpObserver = std::function<void(boost::beast::http::verb, std::string_view, std::string_view,
                                        const boost::beast::http::response<boost::beast::http::string_body>&)>;

namespace detail {
struct HttpObserverSlot {
    std::mutex mutex;
    HttpObserver observer;
};
inline HttpObserverSlot& http_observer_slot() {
    static HttpObserverSlot slot;
    return slot;
}
}  // namespace detail

/// Installs `observer` for every later exchange (an empty one removes it).
inline void set_http_observer(HttpObserver observer) {
    auto& slot = detail::http_observer_slot();
    std::lock_guard lock(slot.mutex);
    slot.observer = std::move(observer);
}

/// Hands one exchange to the installed observer, if any (called by the test HTTP clients).
inline void observe_http(boost::beast::http::verb method, std::string_view target,
                         const boost::beast::http::response<boost::beast::http::string_body>& response,
                         std::string_view request_body = {}) {
    auto& slot = detail::http_observer_slot();
    HttpObserver observer;
    {
        std::lock_guard lock(slot.mutex);
        observer = slot.observer;
    }
    if (observer) observer(method, target, request_body, response);
}

}  // namespace test
