// Fuzzed WebSocket input against a live server over real sockets: connections that send random
// bytes, frames with random headers, valid frames cut at random places, and valid messages
// mutated a byte here and there. The server must never crash or hang, must end every such
// connection or answer it, and an honest client's round trips must go on meanwhile. The
// random streams are seeded (the seed is printed), so a failure can be replayed.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "tests/server/support/abuse_support.hpp"
#include "tests/server/support/transport_fixture.hpp"

namespace abuse_fuzz_frames_test {

using namespace std::chrono_literals;
using abuse::Clock;
using abuse::RawClient;

// A frame with a random header (any bits, any length form, masked or not) and a short payload.
std::string random_frame(std::mt19937& random) {
    std::string out;
    out += static_cast<char>(random());
    const int form = static_cast<int>(random() % 4);
    const bool masked = random() % 4 != 0;
    const std::size_t size = random() % 40;
    if (form == 0) {
        out += static_cast<char>((masked ? 0x80 : 0) | size);
    } else if (form == 1) {
        out += static_cast<char>((masked ? 0x80 : 0) | 126);
        out += static_cast<char>(random());
        out += static_cast<char>(random());
    } else if (form == 2) {
        out += static_cast<char>((masked ? 0x80 : 0) | 127);
        for (int i = 0; i < 8; ++i) out += static_cast<char>(random() % 3 == 0 ? random() : 0);
    } else {
        out += static_cast<char>(random());
    }
    if (masked) {
        for (int i = 0; i < 4; ++i) out += static_cast<char>(random());
    }
    for (std::size_t i = 0; i < size; ++i) out += static_cast<char>(random());
    return out;
}

// A valid client message, then a few of its bytes changed.
std::string mutated_message(std::mt19937& random) {
    static const std::vector<std::string> texts = {
        R"({"type":"ping","ref":1})",
        R"({"type":"match.open","match":"m_nothere","since":3})",
        R"({"type":"lobby.create","game":"santorini","players":2})",
        R"({"type":"match.step","match":"m_x","step":{"kind":"move","worker":0,"to":"C3"}})",
    };
    const std::string& text = texts[random() % texts.size()];
    std::string bytes = random() % 2 ? abuse::frame(abuse::Text, true, text)
                                     : abuse::frame(abuse::Text, false, text.substr(0, 5)) +
                                           abuse::frame(abuse::Ping, true, "p") +
                                           abuse::frame(abuse::Continuation, true, text.substr(5));
    const int changes = 1 + static_cast<int>(random() % 3);
    for (int i = 0; i < changes; ++i) bytes[random() % bytes.size()] = static_cast<char>(random());
    return bytes;
}

TEST_CASE("fuzzed frames never crash or hang the server, and honest clients are served meanwhile",
          "[abuse][frames][fuzz]") {
    const std::uint32_t seed = std::random_device{}();
    INFO("seed " << seed);
    std::mt19937 random(seed);
    test::RunningServer running;
    RawClient honest(running.port(), "127.0.0.2");
    REQUIRE(honest.hello(running.guest_token("honest")));
    const int rounds = abuse::sanitized ? 60 : 200;
    int ended = 0;
    for (int round = 0; round < rounds; ++round) {
        RawClient client(running.port());
        // Half of them say hello first, so the fuzz also reaches the hub.
        if (round % 2 == 0) REQUIRE(client.hello(running.guest_token("fuzz")));
        std::string bytes;
        const int pieces = 1 + static_cast<int>(random() % 6);
        for (int i = 0; i < pieces; ++i) {
            switch (random() % 4) {
                case 0: bytes += random_frame(random); break;
                case 1: bytes += mutated_message(random); break;
                case 2: {
                    const std::string whole = abuse::frame(abuse::Text, true, R"({"type":"ping","ref":"cut"})");
                    bytes += whole.substr(0, random() % whole.size());
                    break;
                }
                default:
                    for (int k = static_cast<int>(random() % 64); k > 0; --k) bytes += static_cast<char>(random());
            }
        }
        // In pieces of random sizes, as a network would cut them.
        std::string_view rest = bytes;
        while (!rest.empty() && !client.ended()) {
            const std::size_t n = 1 + random() % rest.size();
            if (!client.write(rest.substr(0, n), Clock::now() + 2s)) break;
            rest.remove_prefix(n);
        }
        // Whatever the server made of it: read what comes for a moment. A connection the fuzz
        // broke is closed (a close frame or the stream's end); one it did not is still served.
        if (client.read_close(150ms) || client.ended()) {
            ++ended;
        } else {
            // A cut frame leaves the server waiting for its rest: finish it with a close frame.
            client.write(abuse::frame(abuse::Close, true, std::string("\x03\xE8", 2)), Clock::now() + 1s);
        }
        if (round % 20 == 0) REQUIRE(honest.round_trip());
    }
    INFO(ended << " of " << rounds << " fuzzed connections were closed by the server");
    CHECK(ended > 0);
    // Served promptly after it all, and every fuzzed connection is gone in the end (the
    // unfinished ones after their closing handshake or its deadline).
    const auto trip = honest.round_trip();
    REQUIRE(trip);
    CHECK(*trip < (abuse::sanitized ? 1000ms : 250ms));
    CHECK(test::eventually([&] { return running.server().sessions().session_count() == 1; }, 15s));
}

}  // namespace abuse_fuzz_frames_test
