// store::PgBroker with the fleet's secret against a real PostgreSQL (SANTORINI_TEST_DATABASE_URL):
// sealed messages arrive; whatever another database user NOTIFYs on the fleet's channels (a
// forged envelope, a copy of a real message, a message sealed with another secret) is refused
// and counted (docs/scaling.md, "Signed broker messages").

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "server/store/pg_broker.hpp"
#include "test_database.hpp"

namespace {

using namespace std::chrono_literals;

const std::string kSecret = "a fleet secret, 32 bytes long..";

/// What one broker delivered.
struct Delivered {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<std::string> payloads;

    server::Broker::Receiver receiver() {
        return [this](std::string_view, std::string payload) {
            std::lock_guard lock(mutex);
            payloads.push_back(std::move(payload));
            changed.notify_all();
        };
    }
    bool wait_count(std::size_t n) {
        std::unique_lock lock(mutex);
        return changed.wait_for(lock, 15s, [&] { return payloads.size() >= n; });
    }
    std::vector<std::string> all() {
        std::lock_guard lock(mutex);
        return payloads;
    }
};

/// Listens on one channel as any database user could, keeping the raw notifications.
class Eavesdropper final : public pqxx::notification_receiver {
  public:
    Eavesdropper(pqxx::connection& c, const std::string& channel)
        : pqxx::notification_receiver(c, channel) {}
    void operator()(const std::string& payload, int) override { heard.push_back(payload); }
    std::vector<std::string> heard;
};

store::PgBrokerOptions options(const std::string& prefix, const std::string& node,
                               const std::string& secret) {
    store::PgBrokerOptions o;
    o.url = store_test::database_url();
    o.node = node;
    o.channel_prefix = prefix;
    o.reconnect = 50ms;
    o.secret = secret;
    return o;
}

void notify(const std::string& channel, const std::string& payload) {
    pqxx::connection c(store_test::database_url());
    pqxx::nontransaction n(c);
    n.exec_params("SELECT pg_notify($1, $2)", channel, payload);
}

/// Waits until `broker` counted `n` rejected messages (or 15 s).
bool wait_rejected(const store::PgBroker& broker, std::uint64_t n) {
    for (auto until = std::chrono::steady_clock::now() + 15s;
         std::chrono::steady_clock::now() < until; std::this_thread::sleep_for(10ms))
        if (broker.stats().rejected >= n) return true;
    return false;
}

}  // namespace

TEST_CASE("PgBroker with a secret: sealed messages arrive whole, in order, on both channels",
          "[broker][seal]") {
    const std::string prefix = store_test::unique_name("s");
    Delivered b_in;
    store::PgBroker a(options(prefix, "a", kSecret)), b(options(prefix, "b", kSecret));
    a.start({}, {});
    b.start(b_in.receiver(), {});

    std::string big;
    while (big.size() < 50'000) big += "caf\xc3\xa9 ";  // several parts, multibyte characters
    a.send("b", "one");
    a.broadcast("two");
    a.send("b", big);
    REQUIRE(b_in.wait_count(3));
    CHECK(b_in.all() == std::vector<std::string>{"one", "two", big});
    CHECK(b.stats().rejected == 0);
}

TEST_CASE("PgBroker with a secret: forged, replayed and foreign messages are refused and counted",
          "[broker][seal]") {
    const std::string prefix = store_test::unique_name("s");
    const std::string b_channel = prefix + "_node_b";
    Delivered b_in;
    store::PgBroker a(options(prefix, "a", kSecret)), b(options(prefix, "b", kSecret));
    store::PgBroker stranger(options(prefix, "a", "some other secret, also long"));
    store::PgBroker plain(options(prefix, "p", ""));
    a.start({}, {});
    b.start(b_in.receiver(), {});
    stranger.start({}, {});
    plain.start({}, {});

    // A real message, heard on the way by another database user.
    pqxx::connection spy_connection(store_test::database_url());
    Eavesdropper spy(spy_connection, b_channel);
    a.send("b", "{\"t\":\"real\"}");
    REQUIRE(b_in.wait_count(1));
    for (auto until = std::chrono::steady_clock::now() + 15s;
         spy.heard.empty() && std::chrono::steady_clock::now() < until;)
        spy_connection.await_notification(0, 100'000);
    REQUIRE(spy.heard.size() == 1);

    SECTION("a copy of a real message") {
        notify(b_channel, spy.heard[0]);
        REQUIRE(wait_rejected(b, 1));
    }
    SECTION("an unsealed envelope in the right form") {
        notify(b_channel, "a:99:0:1:{\"t\":\"forged\"}");
        REQUIRE(wait_rejected(b, 1));
    }
    SECTION("a real message with its payload changed") {
        std::string altered = spy.heard[0];
        altered.replace(altered.find("real"), 4, "fake");
        notify(b_channel, altered);
        REQUIRE(wait_rejected(b, 1));
    }
    SECTION("a node with another secret, or none") {
        stranger.send("b", "{\"t\":\"stranger\"}");
        plain.send("b", "{\"t\":\"plain\"}");
        REQUIRE(wait_rejected(b, 2));
    }
    // The refused were not delivered, and the fleet's own messages still are.
    a.send("b", "{\"t\":\"after\"}");
    REQUIRE(b_in.wait_count(2));
    std::this_thread::sleep_for(100ms);
    CHECK(b_in.all() == std::vector<std::string>{"{\"t\":\"real\"}", "{\"t\":\"after\"}"});
}

TEST_CASE("PgBroker: a secret shorter than 16 bytes is refused", "[broker][seal]") {
    CHECK_THROWS_AS(store::PgBroker(options("s_short", "a", "short")), std::invalid_argument);
}
