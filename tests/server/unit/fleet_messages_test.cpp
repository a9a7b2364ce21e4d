// server::fleet's node-to-node messages (docs/scaling.md, "Node-to-node messages"): every kind
// survives a write and a parse unchanged, and what is not a message of this build is a
// ParseError value, never an exception.

#include "server/fleet/fleet_messages.hpp"

#include <catch2/catch_test_macros.hpp>

namespace {

using namespace server::fleet;
using nlohmann::json;

template <class T>
T round_trip(const T& message) {
    auto parsed = parse(write(message));
    REQUIRE(std::holds_alternative<Message>(parsed));
    const Message& m = std::get<Message>(parsed);
    REQUIRE(std::holds_alternative<T>(m));
    // write(Message) and write(T) agree.
    CHECK(write(m) == write(message));
    return std::get<T>(m);
}

std::string rejected(std::string_view payload) {
    std::variant<Message, ParseError> parsed = Message{Sync{}};
    REQUIRE_NOTHROW(parsed = parse(payload));
    REQUIRE(std::holds_alternative<ParseError>(parsed));
    return std::get<ParseError>(parsed).reason;
}

}  // namespace

TEST_CASE("fleet messages: every kind survives write then parse") {
    auto connected = round_trip(Connected{42, "p-1", "Ann"});
    CHECK(connected.connection == 42);
    CHECK(connected.player == "p-1");
    CHECK(connected.name == "Ann");

    const std::string text = R"({"type":"match.open","match":"m-1","ref":"r \"1\"\n é"})";
    auto request = round_trip(Request{18446744073709551615ULL, "p-2", "", text});
    CHECK(request.connection == 18446744073709551615ULL);
    CHECK(request.player == "p-2");
    CHECK(request.name.empty());
    CHECK(request.text == text);

    auto deliver = round_trip(Deliver{7, text});
    CHECK(deliver.connection == 7);
    CHECK(deliver.text == text);

    CHECK(round_trip(Gone{9}).connection == 9);
    CHECK(round_trip(Restart{10}).connection == 10);
    CHECK(round_trip(Moved{"m-3"}).match == "m-3");
    CHECK(round_trip(Adopt{"m-4"}).match == "m-4");

    const json entry = {{"id", "m-5"}, {"game", "santorini"}, {"spectators", 3}};
    auto live = round_trip(Live{"m-5", "node-a", entry});
    CHECK(live.match == "m-5");
    CHECK(live.owner == "node-a");
    CHECK(live.entry == entry);
    CHECK(round_trip(Live{"m-5", "node-a", nullptr}).entry.is_null());

    const json list = json::array({{{"id", "l-1"}, {"seats", 2}}});
    CHECK(round_trip(Lobbies{list}).list == list);
    CHECK(round_trip(Queues{list}).list == list);
    CHECK(round_trip(Queues{json::array()}).list == json::array());

    round_trip(Sync{});
    round_trip(Leader{});
    round_trip(Bye{});

    const std::string hash(64, 'a');
    auto revoked = round_trip(Revoked{"p-6", hash, ""});
    CHECK(revoked.player == "p-6");
    CHECK(revoked.token_sha256 == hash);
    CHECK(revoked.keep_sha256.empty());
    CHECK(round_trip(Revoked{"p-6", "", hash}).keep_sha256 == hash);
}

TEST_CASE("fleet messages: the wire carries the version and a readable type") {
    const json wire = json::parse(write(Gone{5}));
    CHECK(wire == json{{"version", message_version}, {"type", "gone"}, {"connection", 5}});
    CHECK(type_name(Message{Request{}}) == "request");
    CHECK(type_name(Message{Bye{}}) == "bye");
}

TEST_CASE("fleet messages: malformed, unknown and other-version payloads are rejected") {
    CHECK(rejected("") == "not a JSON object");
    CHECK(rejected("{") == "not a JSON object");
    CHECK(rejected("[1,2]") == "not a JSON object");
    CHECK(rejected(R"("sync")") == "not a JSON object");
    CHECK(rejected(R"({"type":"sync"})") == "no version");
    CHECK(rejected(R"({"version":"1","type":"sync"})") == "no version");
    CHECK(rejected(R"({"version":2,"type":"sync"})").find("version 2") == 0);
    CHECK(rejected(R"({"version":1})") == "no type");
    CHECK(rejected(R"({"version":1,"type":7})") == "no type");
    CHECK(rejected(R"({"version":1,"type":"req"})") == R"(unknown type "req")");
    // The previous build's short keys are not this build's messages.
    CHECK(rejected(R"({"t":"out","c":1,"m":"x"})") == "no version");

    // Missing and mistyped fields.
    CHECK(rejected(R"({"version":1,"type":"gone"})") ==
          R"(gone: field "connection" must be an unsigned integer)");
    CHECK(rejected(R"({"version":1,"type":"gone","connection":-1})") ==
          R"(gone: field "connection" must be an unsigned integer)");
    CHECK(rejected(R"({"version":1,"type":"gone","connection":"1"})") ==
          R"(gone: field "connection" must be an unsigned integer)");
    CHECK(rejected(R"({"version":1,"type":"restart"})") ==
          R"(restart: field "connection" must be an unsigned integer)");
    CHECK(rejected(R"({"version":1,"type":"deliver","connection":1})") ==
          R"(deliver: field "text" must be a string)");
    CHECK(rejected(R"({"version":1,"type":"request","connection":1,"player":"p","name":"n"})") ==
          R"(request: field "text" must be a string)");
    CHECK(rejected(R"({"version":1,"type":"moved","match":""})") ==
          R"(moved: field "match" must be a non-empty string)");
    CHECK(rejected(R"({"version":1,"type":"adopt","match":3})") ==
          R"(adopt: field "match" must be a string)");
    CHECK(rejected(R"({"version":1,"type":"live","match":"m","owner":"n","entry":[]})") ==
          R"(live: field "entry" must be an object or null)");
    CHECK(rejected(R"({"version":1,"type":"live","match":"m","entry":null})") ==
          R"(live: field "owner" must be a string)");
    CHECK(rejected(R"({"version":1,"type":"lobbies","list":{}})") ==
          R"(lobbies: field "list" must be an array)");
    CHECK(rejected(R"({"version":1,"type":"queues"})") ==
          R"(queues: field "list" must be an array)");
    // A revocation names exactly one session hash, in SHA-256 form.
    const std::string hash(64, 'b');
    CHECK(rejected(R"({"version":1,"type":"revoked","player":"p","token_sha256":"","keep_sha256":""})") ==
          R"(revoked: field "token_sha256" must be set when the other is not (one of two))");
    CHECK(rejected(R"({"version":1,"type":"revoked","player":"p","token_sha256":")" + hash +
                   R"(","keep_sha256":")" + hash + R"("})") ==
          R"(revoked: field "token_sha256" must be set when the other is not (one of two))");
    CHECK(rejected(R"({"version":1,"type":"revoked","player":"p","token_sha256":"secret-token","keep_sha256":""})") ==
          R"(revoked: field "token_sha256" must be a SHA-256 in 64 lowercase hex digits)");
    CHECK(rejected(R"({"version":1,"type":"revoked","player":"p","token_sha256":"","keep_sha256":")" +
                   std::string(64, 'G') + R"("})") ==
          R"(revoked: field "keep_sha256" must be a SHA-256 in 64 lowercase hex digits)");
}
