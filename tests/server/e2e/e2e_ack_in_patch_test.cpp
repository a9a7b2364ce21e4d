// End to end over real sockets: the acknowledgement in the patch (docs/protocol.md,
// "Conventions"). A client that says hello with ack_in_patch gets its step's ref in the patch
// the step caused and no separate ack; its opponent, who did not ask, gets the plain ack and
// patches without refs; a spectator never sees a ref; a resumed version carries none. All
// traffic is validated against the schemas.

#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace e2e_ack_in_patch_test {

using e2e::json;
using namespace std::chrono_literals;

namespace {

// Says hello with `token`, asking for the acknowledgement in the patch; REQUIREs the welcome.
void hello_acks_in_patch(e2e::Player& who, const std::string& token) {
    who.send({{"type", "hello"}, {"protocol", 1}, {"token", token}, {"ack_in_patch", true}});
    auto welcome = who.until_type("welcome");
    REQUIRE(welcome);
}

// The step the deciding seat's view lists first.
json first_legal(e2e::Player& who, const std::string& match) {
    const json& legal = who.match(match).view["state"]["legal"];
    REQUIRE(legal.is_array());
    REQUIRE_FALSE(legal.empty());
    return legal[0];
}

// The messages `who` received from index `from` on.
std::vector<json> since(e2e::Player& who, std::size_t from) {
    return {who.received().begin() + static_cast<std::ptrdiff_t>(from), who.received().end()};
}

}  // namespace

TEST_CASE("a client that asks gets its step's acknowledgement in the patch", "[e2e][ack]") {
    test::RunningServer running{e2e::config()};
    e2e::Traffic traffic;
    e2e::Player ann{running.port(), traffic, "Ann"};        // asks for the ack in the patch
    e2e::Player bob{running.port(), traffic, "Bob"};        // does not
    e2e::Player eve{running.port(), traffic, "Eve"};        // watches, and asks too
    e2e::Player tab{running.port(), traffic, "Ann's tab"};  // Ann again, asking too
    const e2e::Guest ann_guest = e2e::http_guest(running.port(), "Ann");
    hello_acks_in_patch(ann, ann_guest.token);
    hello_acks_in_patch(tab, ann_guest.token);
    e2e::sign_in(bob, running.port(), "Bob");
    hello_acks_in_patch(eve, e2e::http_guest(running.port(), "Eve").token);
    const std::string match =
        e2e::start_private_match(
            ann, bob, {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"rated", false}})
            .match;
    for (e2e::Player* p : {&ann, &bob, &eve, &tab}) e2e::open_match(*p, match);
    e2e::sync({&ann, &bob, &eve, &tab}, match);

    // Play the placement: each player places with a ref, and the server says which way it acks.
    int acked_in_patch = 0, acked_plainly = 0;
    for (int number = 1; number <= 8; ++number) {
        const int seat = e2e::decider(ann.match(match).view);
        if (seat < 0) break;
        e2e::Player& mover = seat == 0 ? ann : bob;
        e2e::Player& other = seat == 0 ? bob : ann;
        const std::uint64_t before = mover.version_of(match);
        const std::size_t mover_from = mover.received().size();
        const std::size_t other_from = other.received().size();
        const std::size_t eve_from = eve.received().size();
        const std::size_t tab_from = tab.received().size();
        const json ref = "s" + std::to_string(number);
        mover.send({{"type", "match.step"},
                    {"ref", ref},
                    {"match", match},
                    {"step", first_legal(mover, match)}});
        for (e2e::Player* p : {&ann, &bob, &eve, &tab})
            REQUIRE(p->until_version(match, before + 1));
        if (&mover == &ann) {
            // The patch of this version carries the ref; no ack for it comes, now or later.
            const auto got = since(ann, mover_from);
            bool patch_with_ref = false;
            for (const json& m : got) {
                CHECK(m.value("type", "") != "ack");
                if (m.value("type", "") == "match.patch" && m["version"] == before + 1) {
                    CHECK(m.value("ref", json()) == ref);
                    patch_with_ref = true;
                }
            }
            CHECK(patch_with_ref);
            ++acked_in_patch;
        } else {
            // Bob did not ask: the plain ack, and his patch has no ref.
            auto reply = bob.until_reply(ref);
            REQUIRE(reply);
            CHECK((*reply)["type"] == "ack");
            for (const json& m : since(bob, mover_from))
                if (m.value("type", "") == "match.patch") CHECK_FALSE(m.contains("ref"));
            ++acked_plainly;
        }
        // Nobody else's patch names the request: not the opponent, not a spectator, not the
        // mover's other connection (the ack is for the connection that asked).
        for (const json& m : since(other, other_from)) CHECK_FALSE(m.contains("ref"));
        for (const json& m : since(eve, eve_from)) CHECK_FALSE(m.contains("ref"));
        for (const json& m : since(tab, tab_from)) CHECK_FALSE(m.contains("ref"));
    }
    CHECK(acked_in_patch >= 2);
    CHECK(acked_plainly >= 2);

    // A refused step is an error with the ref, as always (an offer is illegal without powers,
    // and it may not be Ann's turn: either refusal will do).
    const std::size_t from = ann.received().size();
    ann.send({{"type", "match.step"},
              {"ref", "bad"},
              {"match", match},
              {"step", {{"kind", "offer"}, {"power", "Apollo"}}}});
    auto error = ann.until_reply("bad");
    REQUIRE(error);
    CHECK((*error)["type"] == "error");
    const std::string code = (*error)["code"];
    CHECK((code == "illegal_step" || code == "not_your_turn"));
    for (const json& m : since(ann, from)) CHECK(m.value("type", "") != "match.patch");

    // Resuming from an older version: the versions come again from the history, without refs.
    // (Read raw: this connection has no snapshot to apply them to.)
    const std::uint64_t now = ann.version_of(match);
    e2e::Player late{running.port(), traffic, "Ann, later"};
    hello_acks_in_patch(late, ann_guest.token);
    late.send({{"type", "match.open"}, {"ref", "resume"}, {"match", match}, {"since", now - 3}});
    int resent = 0;
    bool acked = false;
    while (auto text = late.raw().read(5s)) {
        const json m = json::parse(*text);
        if (m.value("type", "") == "match.patch") {
            CHECK_FALSE(m.contains("ref"));
            ++resent;
        }
        if (m.value("type", "") == "ack" && m["ref"] == "resume") {
            acked = true;  // match.open is acknowledged plainly
            break;
        }
    }
    CHECK(acked);
    CHECK(resent >= 3);

    e2e::check_traffic(traffic);
}

}  // namespace e2e_ack_in_patch_test
