// The stored-data API's per-client share, over real sockets against PostgreSQL: one client
// hammering the API is answered 429 (its own rate, its own share of the pool) while another
// client's requests, at the same moment, are all answered normally (never 429, never 503).
// Clients are told apart through a trusted proxy's X-Forwarded-For.

#include <sys/socket.h>
#include <sys/time.h>

#include <mutex>
#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <catch2/catch_test_macros.hpp>
#include <map>
#include <string>
#include <thread>
#include <vector>

#include "server/net/client_address.hpp"
#include "tests/api/openapi_contract.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

namespace {

using namespace std::chrono_literals;

// One GET from 127.0.0.9 (the trusted proxy) on behalf of `client`; the status (0: no answer).
int get_for(std::uint16_t port, const std::string& client, const std::string& target) {
    namespace net = boost::asio;
    net::io_context io;
    net::ip::tcp::socket socket(io);
    socket.open(net::ip::tcp::v4());
    socket.bind(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.9"), 0));
    socket.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    timeval tv{5, 0};
    ::setsockopt(socket.native_handle(), SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    const std::string request = "GET " + target + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Forwarded-For: " +
                                client + "\r\n\r\n";
    net::write(socket, net::buffer(request));
    std::string response;
    char chunk[4096];
    boost::system::error_code ec;
    while (!ec) {
        const std::size_t n = socket.read_some(net::buffer(chunk), ec);
        response.append(chunk, n);
    }
    api_test::observe_raw_http(boost::beast::http::verb::get, target, response);
    return response.size() > 12 ? std::stoi(response.substr(9, 3)) : 0;
}

}  // namespace

TEST_CASE("one client hammering the API gets 429 while another client is served", "[api][abuse]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    config.trusted_proxies = *server::TrustedProxies::parse("127.0.0.9");
    config.api_requests_per_second = 10;
    config.api_burst = 20;
    config.api_in_flight_per_client = 4;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();

    // The attacker: 16 threads asking as fast as they can for two seconds.
    std::mutex mutex;
    std::map<int, int> attacker_statuses;
    std::vector<std::thread> attackers;
    for (int t = 0; t < 16; ++t)
        attackers.emplace_back([&, t] {
            const auto until = std::chrono::steady_clock::now() + 2s;
            while (std::chrono::steady_clock::now() < until) {
                const int status =
                    get_for(port, "198.51.100.7", "/api/leaderboard?pool=santorini&limit=50&offset=" + std::to_string(t));
                std::lock_guard lock(mutex);
                ++attacker_statuses[status];
            }
        });
    // The honest client: a request every 100 ms meanwhile.
    std::map<int, int> honest_statuses;
    for (int i = 0; i < 15; ++i) {
        ++honest_statuses[get_for(port, "203.0.113.5", "/api/leaderboard?pool=santorini")];
        std::this_thread::sleep_for(100ms);
    }
    for (auto& t : attackers) t.join();

    std::string seen;
    for (const auto& [status, n] : attacker_statuses) seen += std::to_string(status) + "x" + std::to_string(n) + " ";
    INFO("attacker: " << seen);
    CHECK(attacker_statuses[429] > 0);
    // Served, but within its burst and its rate over the two seconds (and a margin for the
    // last requests' time): every request takes a token, so those refused for having four in
    // flight spend its burst too, and how many that is depends on the machine's load.
    CHECK(attacker_statuses[200] > 0);
    CHECK(attacker_statuses[200] <= 20 + 10 * 4);
    CHECK(attacker_statuses[503] == 0);
    CHECK(honest_statuses[200] == 15);
}
