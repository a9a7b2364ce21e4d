#pragma once
// The stored-data HTTP API (docs/api.md): match headers, replays, the view after any step,
// player pages, rating histories, a player's matches as NDJSON pages, leaderboards.
//
// Every answer needs the database, whose calls block for a round trip or more, so they never
// run on a network thread or a strand: HttpSession hands a request to HttpApi::handle, which
// parses it at once (a 4xx is answered inline), runs the queries on the API's own small thread
// pool, and calls the reply with the finished response there; the session posts it back to its
// strand and writes it. The routes that need no database stay in handle_http.

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/string_body.hpp>

#include "server/limits/address_limiter.hpp"
#include "server/http/api_params.hpp"
#include "server/limits/client_share.hpp"
#include "server/app/metrics.hpp"

namespace store {
class Repository;
}

namespace server {

namespace http = boost::beast::http;

/// What an answer needs to know about its request (the request itself stays with the session).
struct ApiRequestInfo {
    unsigned version = 11;
    bool keep_alive = true;
    bool head = false;  ///< HEAD: the headers of GET, no body
    std::string token = {};  ///< Authorization: Bearer <token> ("" if none): a private match's player
};

/// Answers `request` from `repository` (blocking: call it off the network threads), as of
/// `now_ms` (ratings' deviations grow with time). Never throws for any stored data.
http::response<http::string_body> answer_api(const ApiRequest& request, const ApiRequestInfo& info,
                                             store::Repository& repository, std::int64_t now_ms);

/// A response for a refused or failed request: {"error", "code"} with `status`.
http::response<http::string_body> api_error(const ApiRequestInfo& info, http::status status,
                                            std::string_view message);

/// Each client's part of the API (one client must not make the others' requests fail).
struct ClientLimits {
    double per_second = 20;          ///< requests per client and second (refill) ...
    double burst = 40;               ///< ... and at once; beyond: 429 with Retry-After
    std::size_t in_flight = 8;       ///< of one client waiting for or running on the pool; beyond: 429
};

/// The asynchronous front of the API, owned by the Server.
class HttpApi {
  public:
    using Reply = std::function<void(http::response<http::string_body>)>;
    /// Requests waiting for or running on the pool beyond this are answered 503 at once.
    static constexpr std::size_t max_pending = 64;

    /// `repository` null: the server has no database (every stored-data request is 503, except
    /// a match header, which handle_http answers from memory). `threads` run the queries.
    HttpApi(store::Repository* repository, Metrics& metrics, std::size_t threads = 2,
            ClientLimits limits = {});
    /// Waits for the queries still running (their replies are called before it returns).
    ~HttpApi();
    HttpApi(const HttpApi&) = delete;
    HttpApi& operator=(const HttpApi&) = delete;

    /// False when `request` is not the stored-data API's (handle_http answers it). Otherwise
    /// counts it in Metrics::http_requests and calls `reply` exactly once with the response:
    /// inline for a refusal, else on one of the API's threads. `client` (the client's address,
    /// server/net/client_address.hpp) is what the per-client limits count by.
    bool handle(const http::request<http::string_body>& request, Reply reply, std::string_view client = {});
    /// From now on a query still running after `deadline` is answered 503 (with Retry-After)
    /// by a timer on `io`, and its late response is dropped. Call before the first request.
    void set_deadline(boost::asio::io_context& io, std::chrono::milliseconds deadline);

  private:
    boost::asio::io_context* io_ = nullptr;
    std::chrono::milliseconds deadline_{0};
    store::Repository* repository_;
    Metrics& metrics_;
    std::atomic<std::size_t> pending_{0};
    AddressLimiter rate_;
    ClientShare share_;
    boost::asio::thread_pool pool_;
};

}  // namespace server
