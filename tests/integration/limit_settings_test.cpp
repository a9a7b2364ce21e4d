// The account limits and the half-open HTTP cap are settings of the real binary (deploy/README.md,
// "Configuration"): a flag or its environment variable changes what the server does, and
// without either it does what it always did.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/integration/support.hpp"
#include "tests/server/support/ws_client.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace limit_settings_test {

namespace {

using namespace integration;
namespace http = boost::beast::http;

// The statuses of `n` sign-in attempts with a wrong password, from this one address.
std::vector<int> sign_in_attempts(std::uint16_t port, int n) {
    std::vector<int> out;
    const std::string body = json{{"username", "nobody_here"}, {"password", "not the password"}}.dump();
    for (int i = 0; i < n; ++i)
        out.push_back(test::http_request(port, http::verb::post, "/api/sessions", body, 15s).result_int());
    return out;
}

// A server of its own (a fresh schema) with `extra` arguments.
std::unique_ptr<ServerProcess> server_with(std::uint16_t port, std::vector<std::string> extra) {
    const std::string log = std::string(SANTORINI_SERVER_LOG) + ".limits";
    auto server = std::make_unique<ServerProcess>(port, fresh_schema_url(database_url()), log, std::move(extra));
    server->start();
    return server;
}

// The value of a counter in GET /metrics (-1 if absent).
long metric(std::uint16_t port, const std::string& name) {
    const std::string text = test::http_request(port, http::verb::get, "/metrics", {}, 5s).body();
    const auto at = text.find("\n" + name + " ");
    return at == std::string::npos ? -1 : std::stol(text.substr(at + name.size() + 2));
}

// Polls `condition` until it holds or 10 s pass.
template <class Condition>
bool within_10s(Condition condition) {
    const auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::sleep_for(50ms);
    }
    return true;
}

}  // namespace

TEST_CASE("the sign-in limit per address is a setting: by flag, by environment, else 20",
          "[integration][postgres][limits]") {
    const std::uint16_t port = free_port();
    SECTION("default: three wrong passwords are three 401s") {
        auto server = server_with(port, {});
        CHECK(sign_in_attempts(port, 3) == std::vector<int>{401, 401, 401});
    }
    SECTION("--sign-in-burst-per-address 2: the third attempt is refused") {
        auto server = server_with(port, {"--sign-in-burst-per-address", "2"});
        CHECK(sign_in_attempts(port, 3) == std::vector<int>{401, 401, 429});
    }
    SECTION("SANTORINI_SIGN_IN_BURST_PER_ADDRESS=2: the same") {
        ::setenv("SANTORINI_SIGN_IN_BURST_PER_ADDRESS", "2", 1);
        std::unique_ptr<ServerProcess> server;
        try {
            server = server_with(port, {});
        } catch (...) {
            ::unsetenv("SANTORINI_SIGN_IN_BURST_PER_ADDRESS");
            throw;
        }
        ::unsetenv("SANTORINI_SIGN_IN_BURST_PER_ADDRESS");
        CHECK(sign_in_attempts(port, 3) == std::vector<int>{401, 401, 429});
    }
    SECTION("--sign-ins-per-username 1 --sign-in-burst-per-username 1: the second attempt is refused") {
        auto server = server_with(port, {"--sign-ins-per-username", "1", "--sign-in-burst-per-username", "1"});
        CHECK(sign_in_attempts(port, 2) == std::vector<int>{401, 429});
    }
}

TEST_CASE("the half-open HTTP cap is a setting: --max-half-open-requests sheds slow senders",
          "[integration][postgres][limits]") {
    const std::uint16_t port = free_port();
    for (const bool capped : {false, true}) {
        auto server = capped ? server_with(port, {"--max-half-open-requests", "2"}) : server_with(port, {});
        boost::asio::io_context io;
        std::vector<std::unique_ptr<boost::asio::ip::tcp::socket>> slow;
        for (int i = 0; i < 4; ++i) {
            slow.push_back(std::make_unique<boost::asio::ip::tcp::socket>(io));
            slow.back()->connect({boost::asio::ip::make_address("127.0.0.1"), port});
            boost::asio::write(*slow.back(), boost::asio::buffer(std::string("GET /healthz HTTP/1.1\r\nHost: x\r\n")));
        }
        // The slow senders wait; a prompt client is served either way.
        INFO("capped: " << capped);
        long shed = 0;
        CHECK(within_10s([&] {
            shed = metric(port, "santorini_http_half_open_shed_total");
            return capped ? shed >= 2 : shed == 0;
        }));
        CHECK(test::http_request(port, http::verb::get, "/healthz", {}, 5s).result_int() == 200);
    }
}

}  // namespace limit_settings_test
