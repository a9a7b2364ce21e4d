// End to end over real sockets: bad input during a live match is answered with the right error
// code (the ref echoed) and changes nothing: no other client hears anything, no version moves.

#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

// Sends `text` from `who`, reads its one reply, and checks it is error `code` with `ref`.
// `text` is recorded for schema validation when it is a well-formed message of a known type.
void expect_error(e2e::Player& who, const std::string& text, const std::string& code, const json& ref) {
    INFO(who.label() << " sent " << text);
    if (code == "malformed_json" || code == "unknown_type")
        who.send_raw(text);
    else
        who.send(json::parse(text));
    auto reply = who.next();
    REQUIRE(reply);
    INFO("reply " << reply->dump());
    CHECK((*reply)["type"] == "error");
    CHECK((*reply)["code"] == code);
    CHECK((*reply)["message"].is_string());
    if (ref.is_null())
        CHECK((!reply->contains("ref") || (*reply)["ref"].is_null()));
    else
        CHECK((*reply)["ref"] == ref);
}

}  // namespace

TEST_CASE("bad messages during a match get the right error and change nothing", "[e2e]") {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest alice = e2e::http_guest(port, "Alice");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const e2e::Guest carol = e2e::http_guest(port, "Carol");
    e2e::Player a(port, traffic, "alice");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "spectator");
    a.hello(alice.token);
    b.hello(bob.token);
    s.hello(carol.token);
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"clock", {{"kind", "none"}}}};
    const std::string match = e2e::start_private_match(a, b, settings).match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);
    e2e::open_match(s, match);
    const std::uint64_t version = e2e::sync({&a, &b, &s}, match);
    for (e2e::Player* p : {&a, &b, &s}) e2e::drain(*p, 100ms);

    std::vector<e2e::Player*> by_seat(2);
    by_seat[a.match(match).view["you"].get<std::size_t>()] = &a;
    by_seat[b.match(match).view["you"].get<std::size_t>()] = &b;
    const int decider = e2e::decider(a.match(match).view);
    REQUIRE(decider >= 0);
    e2e::Player& mover = *by_seat[static_cast<std::size_t>(decider)];
    e2e::Player& other = *by_seat[static_cast<std::size_t>(1 - decider)];
    const json legal = mover.match(match).view["state"]["legal"];
    REQUIRE(legal.is_array());
    REQUIRE_FALSE(legal.empty());
    const json views_before = {a.match(match).view, b.match(match).view, s.match(match).view};

    // Malformed JSON: nothing to echo.
    expect_error(mover, "{\"type\":\"match.step\",\"ref\":1,", "malformed_json", nullptr);
    expect_error(mover, "[1,2", "malformed_json", nullptr);
    // Unknown type.
    expect_error(mover, R"({"type":"match.undo","ref":"u1","match":")" + match + "\"}", "unknown_type", "u1");
    expect_error(s, R"({"type":"nonsense","ref":99})", "unknown_type", 99);
    // A legal step, but from the player whose turn it is not.
    expect_error(other,
                 json{{"type", "match.step"}, {"ref", "w1"}, {"match", match}, {"step", legal[0]}}.dump(),
                 "not_your_turn", "w1");
    // A spectator has no seat to play from.
    expect_error(s, json{{"type", "match.step"}, {"ref", "w2"}, {"match", match}, {"step", legal[0]}}.dump(),
                 "not_authorized", "w2");
    // Illegal steps from the decider: a build during placement, a place off the legal list
    // (an occupied square is never offered, so pick a square not in legal), a nonsense square.
    expect_error(mover,
                 json{{"type", "match.step"}, {"ref", 42}, {"match", match},
                      {"step", {{"kind", "build"}, {"from", "A1"}, {"to", "B1"}}}}
                     .dump(),
                 "illegal_step", 42);
    expect_error(mover,
                 json{{"type", "match.step"}, {"ref", "i2"}, {"match", match}, {"step", {{"kind", "offer"}, {"power", "Apollo"}}}}
                     .dump(),
                 "illegal_step", "i2");
    // A step for a match that does not exist.
    expect_error(mover,
                 json{{"type", "match.step"}, {"ref", "m1"}, {"match", "m_doesnotexist"}, {"step", legal[0]}}.dump(),
                 "unknown_match", "m1");
    // A lobby request that is refused.
    expect_error(other, R"({"type":"lobby.join","ref":"j1","code":"ZZZZ9999"})", "unknown_lobby", "j1");

    // Nobody heard anything else, and no version moved.
    for (e2e::Player* p : {&a, &b, &s}) {
        const std::vector<json> extra = e2e::drain(*p, 300ms);
        INFO(p->label() << " received " << json(extra).dump());
        CHECK(extra.empty());
        CHECK(p->version_of(match) == version);
    }
    CHECK(a.match(match).view == views_before[0]);
    CHECK(b.match(match).view == views_before[1]);
    CHECK(s.match(match).view == views_before[2]);
    // A fresh look agrees.
    e2e::Player tab(port, traffic, "carol-tab");
    tab.hello(carol.token);
    e2e::open_match(tab, match);
    CHECK(tab.version_of(match) == version);
    CHECK(tab.match(match).view["history"].empty());

    // The rejected requests are counted by reason.
    const std::string metrics = running.server().metrics().render();
    CHECK(metrics.find("reason=\"illegal_step\"} 2") != std::string::npos);
    CHECK(metrics.find("reason=\"not_your_turn\"} 1") != std::string::npos);
    CHECK(metrics.find("reason=\"not_authorized\"} 1") != std::string::npos);

    // And the right step is still accepted afterwards.
    e2e::play_first_legal(by_seat, {&a, &b, &s}, match, 1000);
    CHECK(a.version_of(match) == version + 1);

    e2e::check_traffic(traffic);
}
