// Private means private, without sockets: a private lobby's match is not in the live list and
// a spectator needs its invite code; a kicked player stays out; names that hide or reorder
// text are refused; security headers on every HTTP answer; where /metrics is served; a lobby
// closed by its host's absence says so ("disconnected").

#include <chrono>
#include <future>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <catch2/catch_test_macros.hpp>

#include "server/http/routes.hpp"
#include "server/rooms/lobby.hpp"
#include "server/net/metrics_address.hpp"
#include "server/accounts/player_name.hpp"
#include "server/http/security_headers.hpp"
#include "tests/server/support/hub_harness.hpp"

namespace {

using server::test::Harness;
using server::test::settings_json;
using nlohmann::json;
namespace http = boost::beast::http;

// A private two-player match of Ann and Bob; returns {match id, invite code}.
std::pair<std::string, std::string> private_match(Harness& h, const server::test::Player& ann,
                                                  const server::test::Player& bob) {
    json settings = settings_json(2);
    settings["public"] = false;
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings}});
    const json lobby = ann.conn->last("lobby")["lobby"];
    const std::string code = lobby["code"];
    h.send(bob.conn, {{"type", "lobby.join"}, {"code", code}});
    h.send(ann.conn, {{"type", "lobby.start"}, {"lobby", lobby["id"]}});
    const json closed = ann.conn->last("lobby.closed");
    REQUIRE(closed["reason"] == "started");
    return {closed["match"].get<std::string>(), code};
}

std::string lower(std::string text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return text;
}

}  // namespace

TEST_CASE("a private lobby's match is not listed live, and a spectator needs its invite code", "[privacy]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob"), eve = h.guest("Eve");
    auto [match, code] = private_match(h, ann, bob);
    const std::string public_match = h.start_match({h.guest("Cid"), h.guest("Dee")}, settings_json(2));

    SECTION("the live list, over HTTP and as a matches event, shows only the public match") {
        const json live = h.hub.live_matches();
        REQUIRE(live.size() == 1);
        CHECK(live[0]["id"] == public_match);
        CHECK_FALSE(live[0].contains("private"));
        h.send(eve.conn, {{"type", "matches.subscribe"}});
        const json event = eve.conn->last("matches");
        REQUIRE(event["matches"].size() == 1);
        CHECK(event["matches"][0]["id"] == public_match);
    }
    SECTION("a spectator without the code, or with a wrong one, is refused and sees nothing") {
        h.send(eve.conn, {{"type", "match.open"}, {"ref", 1}, {"match", match}});
        json refused = eve.conn->last("error");
        CHECK(refused["code"] == "not_authorized");
        CHECK(refused["ref"] == 1);
        h.send(eve.conn, {{"type", "match.open"}, {"ref", 2}, {"match", match}, {"code", "ZZZZZZZZ"}});
        CHECK(eve.conn->last("error")["ref"] == 2);
        CHECK(eve.conn->of_type("match.snapshot").empty());
        CHECK_FALSE(h.summary(match).has_value());  // GET /api/matches/{id} without a database
    }
    SECTION("with the code (in any case) the spectator watches; the players need none") {
        h.send(eve.conn, {{"type", "match.open"}, {"ref", 3}, {"match", match}, {"code", lower(code)}});
        CHECK(eve.conn->last("ack")["ref"] == 3);
        CHECK(eve.conn->of_type("match.snapshot").size() == 1);
        h.send(bob.conn, {{"type", "match.open"}, {"ref", 4}, {"match", match}});
        CHECK(bob.conn->last("ack")["ref"] == 4);
        std::optional<std::optional<json>> answer;
        h.hub.match_summary(match, code, [&answer](std::optional<json> view) { answer = std::move(view); });
        h.settle();
        REQUIRE(answer.has_value());
        CHECK(answer->has_value());
    }
    SECTION("a public match needs no code") {
        h.send(eve.conn, {{"type", "match.open"}, {"ref", 5}, {"match", public_match}});
        CHECK(eve.conn->last("ack")["ref"] == 5);
    }
}

TEST_CASE("a kicked player cannot rejoin the lobby, by id or by code", "[privacy]") {
    server::LobbyBook book;
    protocol::LobbySettings settings;
    settings.is_public = false;
    auto made = book.create(server::Member{"p_host", "Host"}, settings);
    const server::Lobby lobby = *std::get<const server::Lobby*>(made);
    REQUIRE(std::holds_alternative<const server::Lobby*>(book.join(lobby.id, {"p_kid", "Kid"})));
    REQUIRE(std::holds_alternative<server::Departure>(book.kick(lobby.id, "p_host", "p_kid")));

    auto again = book.join(lobby.id, {"p_kid", "Kid"});
    REQUIRE(std::holds_alternative<server::LobbyError>(again));
    CHECK(std::get<server::LobbyError>(again).code == protocol::ErrorCode::NotAuthorized);
    auto by_code = book.join_by_code(lobby.code, {"p_kid", "Kid"});
    REQUIRE(std::holds_alternative<server::LobbyError>(by_code));
    CHECK(book.find(lobby.id)->seats.size() == 1);  // nothing changed
    CHECK(book.lobby_of("p_kid") == nullptr);
    // Someone else still may, and a player who left by themselves may come back.
    REQUIRE(std::holds_alternative<const server::Lobby*>(book.join_by_code(lobby.code, {"p_amy", "Amy"})));
    REQUIRE(std::holds_alternative<server::Departure>(book.leave(lobby.id, "p_amy")));
    CHECK(std::holds_alternative<const server::Lobby*>(book.join(lobby.id, {"p_amy", "Amy"})));
}

TEST_CASE("the kick over the hub: the kicked player's lobby.join is refused", "[privacy]") {
    Harness h;
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(3, "simple")}});
    const std::string lobby = ann.conn->last("lobby")["lobby"]["id"];
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", lobby}});
    h.send(ann.conn, {{"type", "lobby.kick"}, {"lobby", lobby}, {"player", bob.id}});
    CHECK(bob.conn->last("lobby.closed")["reason"] == "kicked");
    h.send(bob.conn, {{"type", "lobby.join"}, {"ref", "back"}, {"lobby", lobby}});
    const json refused = bob.conn->last("error");
    CHECK(refused["ref"] == "back");
    CHECK(refused["code"] == "not_authorized");
    CHECK(ann.conn->last("lobby")["lobby"]["seats"][1].is_null());
}

TEST_CASE("display names: control, bidi-override and zero-width characters are refused", "[privacy]") {
    using server::name_problem;
    CHECK_FALSE(name_problem("Ann"));
    CHECK_FALSE(name_problem("Zoë Ἀθηνᾶ"));
    std::string emoji;
    for (int i = 0; i < 24; ++i) emoji += "\xF0\x9F\x98\x80";  // 24 x U+1F600: 96 bytes, 24 characters
    CHECK_FALSE(name_problem(emoji));
    CHECK(name_problem(emoji + "\xF0\x9F\x98\x80"));  // 25
    CHECK_FALSE(name_problem(std::string(24, 'a')));
    CHECK(name_problem(std::string(25, 'a')));
    for (const char* bad : {"", "   ", "a\tb", "a\nb", "a\x7F", "a\xC2\x85",  // NEL (C1)
                            "evil\xE2\x80\xAE" "txt.exe",                      // U+202E override
                            "a\xE2\x81\xA6" "b",                              // U+2066 isolate
                            "a\xE2\x80\x8F",                                  // U+200F RLM
                            "a\xE2\x80\x8B" "b",                              // U+200B zero-width space
                            "a\xE2\x80\x8D" "b",                              // U+200D joiner
                            "a\xEF\xBB\xBF",                                  // U+FEFF
                            "a\xE2\x81\xA0",                                  // U+2060 word joiner
                            "\xC3",                                           // cut short
                            "\xC0\xAF",                                       // overlong
                            "\xED\xA0\x80",                                   // surrogate
                            "\xFF"}) {
        INFO(bad);
        CHECK(name_problem(bad));
    }
    // The hub refuses them too (POST /api/guests answers 400 with the reason).
    Harness h;
    CHECK_FALSE(h.hub.create_guest("a\xE2\x80\xAE" "b"));
    CHECK(h.hub.create_guest(emoji));
}

TEST_CASE("metrics addresses: on the main port, off, or a listener of its own", "[privacy]") {
    using server::MetricsPlacement;
    using Where = MetricsPlacement::Where;
    auto placed = [](std::string_view text) { return std::get<MetricsPlacement>(server::parse_metrics_address(text)); };
    CHECK(placed("").where == Where::MainPort);
    CHECK(placed("off").where == Where::Off);
    CHECK(placed("127.0.0.1:9090").where == Where::Own);
    CHECK(placed("127.0.0.1:9090").host == "127.0.0.1");
    CHECK(placed("127.0.0.1:9090").port == 9090);
    CHECK(placed("[::1]:0").host == "::1");
    for (const char* bad : {"on", "9090", ":9090", "127.0.0.1:", "127.0.0.1:x", "127.0.0.1:70000", "::1:9090", "[::1:9090"}) {
        INFO(bad);
        CHECK(std::holds_alternative<std::string>(server::parse_metrics_address(bad)));
    }
}

namespace {

// handle_http on a hub whose io_context runs on its own thread.
struct PrivacyRoutes {
    boost::asio::io_context io;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
    std::thread thread{[this] { io.run(); }};
    server::Config config;
    server::Metrics metrics;
    server::MemoryStepStore store;
    std::optional<server::Hub> hub;

    explicit PrivacyRoutes(server::Config c = {}) : config(std::move(c)) { hub.emplace(io, config, metrics, store); }
    ~PrivacyRoutes() {
        hub->shutdown();
        work.reset();
        io.stop();
        thread.join();
        hub.reset();
    }
    http::response<http::string_body> get(std::string target) {
        http::request<http::string_body> request{http::verb::get, target, 11};
        std::promise<http::response<http::string_body>> answered;
        auto future = answered.get_future();
        server::handle_http(request, *hub, metrics, config, "127.0.0.1",
                            [&answered](http::response<http::string_body> r) { answered.set_value(std::move(r)); });
        return future.get();
    }
};

}  // namespace

TEST_CASE("every HTTP answer carries the security headers", "[privacy]") {
    PrivacyRoutes routes;
    for (const char* target : {"/healthz", "/metrics", "/api/lobbies", "/api/matches", "/nothing-here", "/ws"}) {
        INFO(target);
        const auto response = routes.get(target);
        CHECK(response["Content-Security-Policy"] == server::content_security_policy);
        CHECK(response["X-Content-Type-Options"] == "nosniff");
        CHECK(response["X-Frame-Options"] == "DENY");
        CHECK(response["Referrer-Policy"] == "no-referrer");
    }
    // The policy lets the client's own module scripts, style sheet and WebSocket run, and
    // nobody frame it.
    const std::string csp(server::content_security_policy);
    CHECK(csp.find("script-src 'self'") != std::string::npos);
    CHECK(csp.find("connect-src 'self'") != std::string::npos);
    CHECK(csp.find("frame-ancestors 'none'") != std::string::npos);
    CHECK(csp.find("'unsafe-eval'") == std::string::npos);
}

TEST_CASE("/metrics is 404 on the main port when it is off or served elsewhere", "[privacy]") {
    SECTION("default: served") {
        PrivacyRoutes routes;
        CHECK(routes.get("/metrics").result() == http::status::ok);
    }
    SECTION("off") {
        server::Config config;
        config.metrics_address = "off";
        PrivacyRoutes routes(config);
        CHECK(routes.get("/metrics").result() == http::status::not_found);
        CHECK(routes.get("/healthz").result() == http::status::ok);
    }
    SECTION("elsewhere: the main port says 404, the metrics listener serves /metrics only") {
        server::Config config;
        config.metrics_address = "127.0.0.1:0";
        PrivacyRoutes main_port(config);
        CHECK(main_port.get("/metrics").result() == http::status::not_found);
        config.metrics_only = true;
        PrivacyRoutes metrics_port(config);
        CHECK(metrics_port.get("/metrics").result() == http::status::ok);
        CHECK(metrics_port.get("/healthz").result() == http::status::not_found);
        CHECK(metrics_port.get("/api/matches").result() == http::status::not_found);
    }
}

TEST_CASE("a lobby closed because its host was gone too long tells the others \"disconnected\"", "[privacy]") {
    server::Config config;
    config.lobby_seat_grace = std::chrono::milliseconds(1);
    Harness h(config);
    auto ann = h.guest("Ann"), bob = h.guest("Bob");
    h.send(ann.conn, {{"type", "lobby.create"}, {"settings", settings_json(3, "simple")}});
    const std::string lobby = ann.conn->last("lobby")["lobby"]["id"];
    h.send(bob.conn, {{"type", "lobby.join"}, {"lobby", lobby}});
    h.drop(ann.conn);
    for (int i = 0; i < 200 && bob.conn->last("lobby.closed").is_null(); ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
        h.settle();
    }
    const json closed = bob.conn->last("lobby.closed");
    REQUIRE(closed.is_object());
    CHECK(closed["lobby"] == lobby);
    CHECK(closed["reason"] == "disconnected");
}
