// store::broker_seal: sealing broker messages with the fleet's secret, without a database.

#include "server/store/broker_seal.hpp"

#include <catch2/catch_test_macros.hpp>
#include <string>

namespace {

namespace seal = store::broker_seal;

const std::string kSecret = "0123456789abcdef-fleet";
const seal::Route kRoute{"santorini_node_b", "node-a", 7};

}  // namespace

TEST_CASE("broker_seal: HMAC-SHA256 matches RFC 4231's second test case", "[broker][seal]") {
    CHECK(seal::hmac_sha256_hex("Jefe", "what do ya want for nothing?") ==
          "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

TEST_CASE("broker_seal: a sealed payload opens with the same secret and route", "[broker][seal]") {
    const std::string boot = seal::new_boot_id();
    CHECK(boot.size() == 16);
    CHECK(boot != seal::new_boot_id());
    const std::string payload = "{\"t\":\"step\",\"text\":\"caf\xc3\xa9 : colons\"}";
    const std::string sealed = seal::seal(kSecret, kRoute, boot, 1'700'000'000'123, payload);
    CHECK(sealed.rfind("s1:" + boot + ":1700000000123:", 0) == 0);

    const auto opened = seal::open(kSecret, kRoute, sealed);
    REQUIRE(opened);
    CHECK(opened->boot == boot);
    CHECK(opened->at_ms == 1'700'000'000'123);
    CHECK(opened->payload == payload);

    // An empty payload is a message too.
    const auto empty = seal::open(kSecret, kRoute, seal::seal(kSecret, kRoute, boot, 5, ""));
    REQUIRE(empty);
    CHECK(empty->payload.empty());
}

TEST_CASE("broker_seal: anything changed, or another secret, does not open", "[broker][seal]") {
    const std::string sealed = seal::seal(kSecret, kRoute, "00ff00ff00ff00ff", 1000, "{\"t\":\"x\"}");
    REQUIRE(seal::open(kSecret, kRoute, sealed));

    CHECK_FALSE(seal::open("another secret of 16+ bytes", kRoute, sealed));
    CHECK_FALSE(seal::open(kSecret, {"santorini_fleet", kRoute.sender, kRoute.seq}, sealed));
    CHECK_FALSE(seal::open(kSecret, {kRoute.channel, "node-c", kRoute.seq}, sealed));
    CHECK_FALSE(seal::open(kSecret, {kRoute.channel, kRoute.sender, 8}, sealed));

    std::string altered = sealed;
    altered.back() = 'y';  // the payload
    CHECK_FALSE(seal::open(kSecret, kRoute, altered));
    altered = sealed;
    altered[3] = '1';  // the boot id
    CHECK_FALSE(seal::open(kSecret, kRoute, altered));
    altered = sealed;
    altered.replace(sealed.find(":1000:"), 6, ":1001:");  // the time
    CHECK_FALSE(seal::open(kSecret, kRoute, altered));
    altered = sealed;
    const auto mac = sealed.find(":1000:") + 6;
    altered[mac] = altered[mac] == 'a' ? 'b' : 'a';  // the MAC
    CHECK_FALSE(seal::open(kSecret, kRoute, altered));

    // Not sealed, or malformed: nothing, never a throw.
    for (const char* text : {"", "{\"t\":\"x\"}", "s1:", "s1:00ff::", "s1:00ff:12:abc:{}",
                             "s1:ZZ:1:0000000000000000000000000000000000000000000000000000000000000000:x",
                             "s1:00ff:x1:0000000000000000000000000000000000000000000000000000000000000000:x"})
        CHECK_FALSE(seal::open(kSecret, kRoute, text));
}

TEST_CASE("broker_seal: the replay guard takes each message of a boot once, and new boots only "
          "when fresh",
          "[broker][seal]") {
    seal::ReplayGuard guard;
    const std::int64_t now = 1'700'000'000'000;
    CHECK(guard.admit("a", "b1", 5, now - 1000, now));
    CHECK_FALSE(guard.admit("a", "b1", 5, now - 1000, now));  // the same message again
    CHECK_FALSE(guard.admit("a", "b1", 3, now - 2000, now));  // an older one
    CHECK(guard.admit("a", "b1", 6, now - 3'600'000, now));   // the same boot: order, not time
    CHECK(guard.admit("b", "c1", 1, now, now));               // senders are apart

    // A node that started again: taken when its message is fresh, then the old boot is stale.
    CHECK_FALSE(guard.admit("a", "b2", 0, now - 31'000, now));
    CHECK_FALSE(guard.admit("a", "b2", 0, now + 31'000, now));
    CHECK(guard.admit("a", "b2", 0, now - 29'000, now));
    CHECK_FALSE(guard.admit("a", "b2", 0, now, now));
    CHECK_FALSE(guard.admit("a", "b1", 7, now - 3'600'000, now));
}
