// Real sockets on 127.0.0.1: the hello handshake and what happens around it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/transport_fixture.hpp"
#include "tests/server/support/ws_client.hpp"

namespace {

using json = nlohmann::json;
using namespace std::chrono_literals;

std::string error_code_of(const std::optional<json>& message) {
    if (!message || !message->is_object() || message->value("type", "") != "error") return "<not an error>";
    return message->value("code", "");
}

}  // namespace

TEST_CASE("hello with a valid token is welcomed, then pings are answered", "[transport]") {
    test::RunningServer running;
    const auto guest = running.server().hub().create_guest("Alice");
    REQUIRE(guest);

    test::WsClient client(running.port());
    const std::optional<json> welcome = client.hello(guest->token);
    REQUIRE(welcome);
    INFO(welcome->dump());
    REQUIRE((*welcome)["type"] == "welcome");
    CHECK((*welcome)["protocol"] == 1);
    CHECK((*welcome)["player"]["id"] == guest->id);
    CHECK((*welcome)["player"]["name"] == "Alice");
    CHECK(welcome->dump().find(guest->token) == std::string::npos);  // the token is never sent back

    REQUIRE(client.send(R"({"type":"ping","ref":7})"));
    const std::optional<json> pong = client.read_json();
    REQUIRE(pong);
    CHECK((*pong)["type"] == "pong");
    CHECK((*pong)["ref"] == 7);

    CHECK(running.server().metrics().open_sockets.load() == 1);
    CHECK(running.server().metrics().messages_in.load() >= 2);
    // Counted when the write completes, which may be just after the client has the bytes.
    CHECK(test::eventually([&] { return running.server().metrics().messages_out.load() >= 2; }));

    client.close();
    CHECK(test::eventually([&] { return running.server().metrics().open_sockets.load() == 0; }));
    CHECK(test::eventually([&] { return running.server().sessions().session_count() == 0; }));
}

TEST_CASE("a bad token gets not_authenticated and the connection stays usable", "[transport]") {
    test::RunningServer running;
    const std::string token = running.guest_token();
    test::WsClient client(running.port());

    CHECK(error_code_of(client.hello("0123456789abcdef0123456789abcdef")) == "not_authenticated");
    CHECK(error_code_of(client.hello("")) != "<not an error>");
    // Nothing changed: the right token still works on the same connection.
    const std::optional<json> welcome = client.hello(token);
    REQUIRE(welcome);
    CHECK((*welcome)["type"] == "welcome");
    CHECK_FALSE(client.ended());
}

TEST_CASE("a hello with the wrong protocol version is refused", "[transport]") {
    test::RunningServer running;
    const std::string token = running.guest_token();
    test::WsClient client(running.port());

    REQUIRE(client.send_json({{"type", "hello"}, {"protocol", 99}, {"token", token}, {"ref", "h1"}}));
    const std::optional<json> reply = client.read_json();
    CHECK(error_code_of(reply) == "protocol_version");
    CHECK((*reply)["ref"] == "h1");
    // Still not authenticated.
    REQUIRE(client.send(R"({"type":"ping"})"));
    CHECK(error_code_of(client.read_json()) == "not_authenticated");
}

TEST_CASE("anything before hello is not_authenticated and changes nothing", "[transport]") {
    test::RunningServer running;
    const std::string token = running.guest_token();
    test::WsClient client(running.port());

    REQUIRE(client.send(R"({"type":"ping","ref":"p1"})"));
    const std::optional<json> reply = client.read_json();
    CHECK(error_code_of(reply) == "not_authenticated");
    CHECK((*reply)["ref"] == "p1");
    REQUIRE(client.send(R"({"type":"lobbies.subscribe","ref":2})"));
    CHECK(error_code_of(client.read_json()) == "not_authenticated");

    const std::optional<json> welcome = client.hello(token);
    REQUIRE(welcome);
    CHECK((*welcome)["type"] == "welcome");
    CHECK(running.server().metrics().render().find(
              "santorini_rejected_messages_total{reason=\"not_authenticated\"} 2") != std::string::npos);
}

TEST_CASE("malformed input is answered with an error and the connection stays open", "[transport]") {
    test::RunningServer running;
    const std::string token = running.guest_token();
    test::WsClient client(running.port());
    REQUIRE(client.hello(token));

    REQUIRE(client.send("{not json"));
    CHECK(error_code_of(client.read_json()) == "malformed_json");
    REQUIRE(client.send(R"({"type":"no.such.type","ref":1})"));
    CHECK(error_code_of(client.read_json()) == "unknown_type");
    REQUIRE(client.send_binary(R"({"type":"ping"})"));
    CHECK(error_code_of(client.read_json()) == "malformed_json");
    REQUIRE(client.send(R"({"type":"hello","protocol":1,"token":")" + token + "\"}"));
    CHECK(error_code_of(client.read_json()) == "wrong_phase");

    REQUIRE(client.send(R"({"type":"ping"})"));
    const std::optional<json> pong = client.read_json();
    REQUIRE(pong);
    CHECK((*pong)["type"] == "pong");
    CHECK_FALSE(client.ended());
}

TEST_CASE("the upgrade is only on /ws", "[transport]") {
    test::RunningServer running;
    CHECK_THROWS(test::WsClient(running.port(), "/other"));
    CHECK_THROWS(test::WsClient(running.port(), "/healthz"));
    CHECK_NOTHROW(test::WsClient(running.port(), "/ws?client=test"));
}

TEST_CASE("many clients on one server each get their own answers", "[transport]") {
    test::RunningServer running;
    std::vector<std::unique_ptr<test::WsClient>> clients;
    for (int i = 0; i < 20; ++i) {
        clients.push_back(std::make_unique<test::WsClient>(running.port()));
        REQUIRE(clients.back()->hello(running.guest_token("p" + std::to_string(i))));
    }
    for (int i = 0; i < 20; ++i) {
        REQUIRE(clients[static_cast<std::size_t>(i)]->send_json({{"type", "ping"}, {"ref", i}}));
    }
    for (int i = 0; i < 20; ++i) {
        const std::optional<json> pong = clients[static_cast<std::size_t>(i)]->read_type("pong");
        REQUIRE(pong);
        CHECK((*pong)["ref"] == i);
    }
    CHECK(running.server().metrics().open_sockets.load() == 20);
    CHECK(running.server().sessions().session_count() == 20);
}
