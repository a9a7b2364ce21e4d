// The broker envelope alone (no database): splitting at character boundaries, joining, and
// what a lost part does.

#include "server/store/broker_envelope.hpp"

#include <catch2/catch_test_macros.hpp>

namespace envelope = store::broker_envelope;

namespace {

std::vector<std::string> parts_of(std::string_view payload, std::uint64_t seq = 7) {
    std::vector<std::string> out;
    envelope::split("node-a", seq, payload, [&](const std::string& n) { out.push_back(n); });
    return out;
}

}  // namespace

TEST_CASE("broker envelope: valid_text is UTF-8 without NUL", "[broker]") {
    CHECK(envelope::valid_text(""));
    CHECK(envelope::valid_text("plain {\"json\":1}"));
    CHECK(envelope::valid_text("\xC3\xA9\xE2\x82\xAC\xF0\x9F\x8F\x9B"));
    CHECK_FALSE(envelope::valid_text(std::string_view("a\0b", 3)));
    CHECK_FALSE(envelope::valid_text("\xC3"));          // cut short
    CHECK_FALSE(envelope::valid_text("\xC0\xAF"));      // overlong
    CHECK_FALSE(envelope::valid_text("\xED\xA0\x80"));  // a surrogate
    CHECK_FALSE(envelope::valid_text("\xFF"));
}

TEST_CASE("broker envelope: a short payload is one notification", "[broker]") {
    auto parts = parts_of("hello");
    REQUIRE(parts.size() == 1);
    CHECK(parts[0] == "node-a:7:0:1:hello");
    auto p = envelope::parse(parts[0]);
    REQUIRE(p);
    CHECK(p->sender == "node-a");
    CHECK(p->seq == 7);
    CHECK(p->data == "hello");
    CHECK(parts_of("").size() == 1);
    CHECK_FALSE(envelope::parse("not an envelope"));
    CHECK_FALSE(envelope::parse("a:1:2:2:index past count"));
}

TEST_CASE("broker envelope: long payloads split below 8000 bytes, at characters, and join",
          "[broker]") {
    std::string payload;
    for (int i = 0; payload.size() < 50000; ++i) payload += (i % 3 ? "\xE2\x82\xAC" : "ab");
    auto parts = parts_of(payload);
    REQUIRE(parts.size() > 6);
    envelope::Joiner joiner;
    std::optional<envelope::Message> done;
    for (const auto& n : parts) {
        CHECK(n.size() < 8000);
        CHECK(envelope::valid_text(n));
        REQUIRE_FALSE(done);
        auto p = envelope::parse(n);
        REQUIRE(p);
        done = joiner.add(*p);
    }
    REQUIRE(done);
    CHECK(done->sender == "node-a");
    CHECK(done->payload == payload);
    CHECK(joiner.pending_bytes() == 0);
}

TEST_CASE("broker envelope: a message with a lost part is dropped, the next one arrives",
          "[broker]") {
    const std::string payload(20000, 'p');
    auto first = parts_of(payload, 1);
    auto second = parts_of(payload, 2);
    REQUIRE(first.size() == 3);
    envelope::Joiner joiner;
    CHECK_FALSE(joiner.add(*envelope::parse(first[0])));
    // first[1] lost
    CHECK_FALSE(joiner.add(*envelope::parse(first[2])));
    CHECK(joiner.dropped() == 1);
    std::optional<envelope::Message> done;
    for (const auto& n : second) done = joiner.add(*envelope::parse(n));
    REQUIRE(done);
    CHECK(done->payload == payload);

    // A gap (the listener reconnected) forgets a message in progress.
    CHECK_FALSE(joiner.add(*envelope::parse(first[0])));
    joiner.clear();
    CHECK(joiner.dropped() == 2);
    CHECK_FALSE(joiner.add(*envelope::parse(first[1])));
    CHECK(joiner.pending_bytes() == 0);
}
