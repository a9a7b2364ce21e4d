// Private means private, against PostgreSQL: a private lobby's match is not in the live list,
// and its replay and views need its invite code or one of its players' tokens, also once it is
// over (and then no shared cache may keep them). Names: 24 emoji are a fine name, and any name
// of at most 64 characters fits the database.

#include <functional>
#include <string>
#include <thread>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "server/store/repository.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/server/support/http_observer.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using e2e::json;

namespace {

// True once `holds()` is true, reading `who`'s messages for up to 5 s meanwhile (it may hold
// already: what it waits for may have come with an earlier reply).
bool soon(e2e::Player& who, const std::function<bool()>& holds) {
    return holds() || who.until([&](const json&) { return holds(); }).has_value();
}

// GET `target`, with `authorization` as the Authorization header when it is not empty.
http::response<http::string_body> fetch(std::uint16_t port, const std::string& target,
                                        const std::string& authorization = {}) {
    boost::asio::io_context io;
    boost::asio::ip::tcp::socket socket(io);
    socket.connect({boost::asio::ip::make_address("127.0.0.1"), port});
    http::request<http::string_body> request{http::verb::get, target, 11};
    request.set(http::field::host, "127.0.0.1");
    if (!authorization.empty()) request.set(http::field::authorization, authorization);
    request.keep_alive(false);
    http::write(socket, request);
    boost::beast::flat_buffer buffer;
    http::response<http::string_body> response;
    http::read(socket, buffer, response);
    test::observe_http(http::verb::get, target, response);
    return response;
}

std::string lower_case(std::string text) {
    for (char& c : text)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return text;
}

std::string repeated(const std::string& piece, int times) {
    std::string out;
    for (int i = 0; i < times; ++i) out += piece;
    return out;
}

}  // namespace

TEST_CASE("a private match's replay and views need its invite code or a player's token", "[api][privacy]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    e2e::Player e(port, traffic, "eve");
    const e2e::Guest ann = e2e::sign_in(a, port, "Ann");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    const e2e::Guest eve = e2e::sign_in(e, port, "Eve");
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"clock", {{"kind", "none"}}}};
    const e2e::Started started = e2e::start_private_match(a, b, settings);
    const std::string match = started.match;
    e2e::open_match(a, match);
    e2e::open_match(b, match);

    // Not listed live.
    const json live = json::parse(fetch(port, "/api/matches").body());
    REQUIRE(live.is_array());
    for (const json& entry : live) CHECK(entry["id"] != match);

    // Eve cannot watch without the code.
    e.send({{"type", "match.open"}, {"ref", "peek"}, {"match", match}});
    auto refused = e.until_reply("peek");
    REQUIRE(refused);
    CHECK((*refused)["type"] == "error");
    CHECK((*refused)["code"] == "not_authorized");

    // Ann aborts before the first move: the match is over (aborted) and stored.
    a.send({{"type", "match.abort"}, {"ref", "abort"}, {"match", match}});
    auto aborted = a.until_reply("abort");
    REQUIRE(aborted);
    REQUIRE((*aborted)["type"] == "ack");
    REQUIRE(soon(a, [&] { return a.match(match).view["status"] == "aborted"; }));

    // The header says who played (the players' pages list it too), but not how.
    const auto header = fetch(port, "/api/matches/" + match);
    REQUIRE(header.result() == http::status::ok);
    CHECK(json::parse(header.body())["settings"]["public"] == false);

    for (const std::string& path : {"/api/matches/" + match + "/replay", "/api/matches/" + match + "/view?after=0"}) {
        const std::string join = path.find('?') == std::string::npos ? "?" : "&";
        INFO(path);
        const auto anonymous = fetch(port, path);
        CHECK(anonymous.result() == http::status::forbidden);
        CHECK(json::parse(anonymous.body())["code"] == "forbidden");
        CHECK(fetch(port, path + join + "code=ZZZZZZZZ").result() == http::status::forbidden);
        CHECK(fetch(port, path, "Bearer " + eve.token).result() == http::status::forbidden);
        CHECK(fetch(port, path, "Bearer not-a-token").result() == http::status::forbidden);

        const auto with_code = fetch(port, path + join + "code=" + started.code);
        CHECK(with_code.result() == http::status::ok);
        // Over, but kept by the browser only: never by a shared cache.
        CHECK(with_code[http::field::cache_control] == "private, max-age=86400");
        CHECK(fetch(port, path + join + "code=" + lower_case(started.code)).result() == http::status::ok);
        CHECK(fetch(port, path, "Bearer " + ann.token).result() == http::status::ok);
        CHECK(fetch(port, path, "Bearer " + bob.token).result() == http::status::ok);
    }
}

TEST_CASE("a public lobby's match is listed and its replay needs nothing", "[api][privacy]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    const e2e::Guest ann = e2e::sign_in(a, port, "Ann");
    const e2e::Guest bob = e2e::sign_in(b, port, "Bob");
    a.send({{"type", "lobby.create"},
            {"ref", "c"},
            {"settings", {{"game", "santorini"}, {"players", 2}, {"clock", {{"kind", "none"}}}, {"public", true}}}});
    auto lobby = a.until_type("lobby");
    REQUIRE(lobby);
    b.send({{"type", "lobby.join"}, {"ref", "j"}, {"lobby", (*lobby)["lobby"]["id"]}});
    REQUIRE(b.until_reply("j"));
    REQUIRE(a.until([](const json& m) { return m.value("type", "") == "lobby" && m["lobby"]["status"] == "full"; }));
    a.send({{"type", "lobby.start"}, {"ref", "s"}, {"lobby", (*lobby)["lobby"]["id"]}});
    auto closed = a.until_type("lobby.closed");
    REQUIRE(closed);
    const std::string match = (*closed)["match"];

    bool listed = false;
    for (int i = 0; i < 100 && !listed; ++i) {
        for (const json& entry : json::parse(fetch(port, "/api/matches").body())) listed = listed || entry["id"] == match;
        if (!listed) std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    CHECK(listed);
    CHECK(fetch(port, "/api/matches/" + match + "/replay").result() == http::status::ok);
}

TEST_CASE("names: 24 emoji make a guest; a name of 64 characters fits the database", "[api][privacy]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();

    const std::string emoji = repeated("\xF0\x9F\x8F\x9B", 24);  // U+1F3DB (classical building), 96 bytes
    const auto made = test::http_request(port, http::verb::post, "/api/guests", json{{"name", emoji}}.dump());
    INFO(made.body());
    REQUIRE(made.result() == http::status::created);
    CHECK(json::parse(made.body())["name"] == emoji);

    for (const std::string& bad : {std::string("Ann\xE2\x80\xAE" "txt"), std::string("A\xE2\x80\x8B" "nn"),
                                   std::string("Ann\x1B[31m"), repeated("a", 25)}) {
        const auto refused = test::http_request(port, http::verb::post, "/api/guests", json{{"name", bad}}.dump());
        INFO(refused.body());
        CHECK(refused.result() == http::status::bad_request);
        CHECK(json::parse(refused.body())["error"].get<std::string>().starts_with("a name"));
    }

    // The store's own limit is the column's: 64 characters, however many bytes.
    store::Repository repository(schema.url());
    auto fits = repository.create_guest(store::NewPlayer{"p_sixtyfour", repeated("\xF0\x9F\x98\x80", 64), "token-64", store_test::now_ms()});
    INFO((fits ? std::string() : fits.error().message));
    CHECK(fits.ok());
    auto too_long = repository.create_guest(store::NewPlayer{"p_sixtyfive", repeated("\xF0\x9F\x98\x80", 65), "token-65", store_test::now_ms()});
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.error().kind == store::StoreError::Kind::Invalid);
}
