// Accounts end to end (docs/api.md, "Accounts"): a real server on a loopback port
// against a real PostgreSQL, over real HTTP and WebSocket: sign-up, sign-in from a second
// client, wrong passwords, the sign-in rate limits, sign-out, password change, ratings kept by
// the account, the anti-farming cap and the leaderboard of accounts.

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/write.hpp>
#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>

#include "protocol/json/basic_json.hpp"
#include "server/net/websocket_session.hpp"
#include "tests/api/bearer_request.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using namespace std::chrono_literals;
using e2e::json;

namespace {

struct AccountCall {
    test::HttpResponse response;
    json body;
};

// One HTTP request with an optional bearer token (api_test::bearer_request), its body parsed.
AccountCall account_call(std::uint16_t port, http::verb method, const std::string& target,
                         const json& body = nullptr, const std::string& token = {}) {
    AccountCall call;
    call.response = api_test::bearer_request(port, method, target, token,
                                             body.is_null() ? std::string() : body.dump());
    call.body = json::parse(call.response.body(), nullptr, false);
    return call;
}

// A new guest called `name` that claims `username` with `password` (the claim must succeed).
e2e::Guest signed_up(std::uint16_t port, const std::string& name, const std::string& username,
                     const std::string& password) {
    const e2e::Guest guest = e2e::http_guest(port, name);
    REQUIRE(account_call(port, http::verb::post, "/api/accounts",
                         {{"username", username}, {"password", password}}, guest.token)
                .response.result() == http::status::created);
    return guest;
}

AccountCall sign_in(std::uint16_t port, const std::string& username, const std::string& password) {
    return account_call(port, http::verb::post, "/api/sessions",
                        {{"username", username}, {"password", password}});
}

void check_refused(const AccountCall& call, http::status status, const std::string& code) {
    INFO(call.response.result_int() << " " << call.response.body());
    CHECK(call.response.result() == status);
    CHECK(call.body.value("code", "") == code);
    CHECK(call.body["error"].is_string());
}

// The player id a WebSocket hello with `token` is welcomed as, or "" when it is refused.
std::string hello_as(std::uint16_t port, e2e::Traffic& traffic, const std::string& token) {
    e2e::Player p(port, traffic, "device");
    p.send({{"type", "hello"}, {"protocol", 1}, {"token", token}});
    auto reply = p.next();
    REQUIRE(reply);
    if ((*reply)["type"] != "welcome") return "";
    return (*reply)["player"]["id"].get<std::string>();
}

server::Config account_config(const store_test::TestSchema& schema) {
    server::Config config = e2e::config();
    config.database_url = schema.url();
    return config;
}

}  // namespace

TEST_CASE("accounts: sign up, sign in on a second client, sign out, change the password",
          "[api][accounts]") {
    store_test::TestSchema schema;
    test::RunningServer running(account_config(schema));
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest ann = e2e::http_guest(port, "Ann");
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const std::string password = "correct horse battery";

    // A guest: no username yet.
    AccountCall me = account_call(port, http::verb::get, "/api/account", nullptr, ann.token);
    REQUIRE(me.response.result() == http::status::ok);
    CHECK(me.body == json{{"id", ann.id}, {"name", "Ann"}, {"username", nullptr}});
    CHECK(me.response[http::field::cache_control] == "no-store");
    check_refused(account_call(port, http::verb::get, "/api/account"), http::status::unauthorized,
                  "unauthorized");

    // Refusals change nothing.
    const json good = {{"username", "Ann_the_Builder"}, {"password", password}};
    check_refused(account_call(port, http::verb::post, "/api/accounts", good),
                  http::status::unauthorized, "unauthorized");
    check_refused(account_call(port, http::verb::post, "/api/accounts", good, "not-a-token"),
                  http::status::unauthorized, "unauthorized");
    for (const json& bad : {json{{"username", "ab"}, {"password", password}},
                            json{{"username", "Ann\u202eredliub"}, {"password", password}},
                            json{{"username", "Ann\u200b"}, {"password", password}},
                            json{{"username", "Ann_the_Builder"}, {"password", "short"}},
                            json{{"username", "Ann_the_Builder"}}, json("not an object")})
        check_refused(account_call(port, http::verb::post, "/api/accounts", bad, ann.token),
                      http::status::bad_request, "bad_request");
    check_refused(account_call(port, http::verb::get, "/api/accounts", nullptr, ann.token),
                  http::status::method_not_allowed, "method_not_allowed");
    CHECK(schema.scalar("SELECT count(*) FROM accounts") == "0");

    // Sign-up keeps the player id and name; the username is unique whatever its case.
    AccountCall made = account_call(port, http::verb::post, "/api/accounts", good, ann.token);
    INFO(made.response.body());
    REQUIRE(made.response.result() == http::status::created);
    CHECK(made.body == json{{"id", ann.id}, {"name", "Ann"}, {"username", "Ann_the_Builder"}});
    check_refused(account_call(port, http::verb::post, "/api/accounts",
                               {{"username", "ANN_THE_BUILDER"}, {"password", password}}, bob.token),
                  http::status::conflict, "conflict");
    check_refused(account_call(port, http::verb::post, "/api/accounts",
                               {{"username", "Another_name"}, {"password", password}}, ann.token),
                  http::status::conflict, "conflict");
    // Stored as Argon2id, never the password.
    const std::string stored = schema.scalar("SELECT password_hash FROM accounts");
    CHECK(stored.rfind("$argon2id$", 0) == 0);
    CHECK(stored.find(password) == std::string::npos);

    // A second device signs in (any case of the username) and is the same player.
    AccountCall second = sign_in(port, "ann_THE_builder", password);
    REQUIRE(second.response.result() == http::status::created);
    CHECK(second.body["id"] == ann.id);
    CHECK(second.body["username"] == "Ann_the_Builder");
    const std::string laptop = second.body["token"].get<std::string>();
    CHECK(laptop != ann.token);
    CHECK(hello_as(port, traffic, laptop) == ann.id);
    CHECK(hello_as(port, traffic, ann.token) == ann.id);

    // Wrong password and unknown username answer alike.
    const AccountCall wrong = sign_in(port, "Ann_the_Builder", "not the password");
    check_refused(wrong, http::status::unauthorized, "unauthorized");
    const AccountCall unknown = sign_in(port, "Nobody_here", password);
    check_refused(unknown, http::status::unauthorized, "unauthorized");
    CHECK(wrong.body["error"] == unknown.body["error"]);

    // Sign-out revokes that device only, at once (the hub forgets the token too).
    AccountCall out = account_call(port, http::verb::delete_, "/api/sessions/current", nullptr, laptop);
    CHECK(out.response.result() == http::status::no_content);
    CHECK(hello_as(port, traffic, laptop).empty());
    check_refused(account_call(port, http::verb::get, "/api/account", nullptr, laptop),
                  http::status::unauthorized, "unauthorized");
    CHECK(hello_as(port, traffic, ann.token) == ann.id);

    // A password change needs the old password and signs every other device out.
    const std::string phone = sign_in(port, "Ann_the_Builder", password).body["token"].get<std::string>();
    const std::string tablet = sign_in(port, "Ann_the_Builder", password).body["token"].get<std::string>();
    check_refused(account_call(port, http::verb::post, "/api/accounts/password",
                               {{"old_password", "wrong guess!"}, {"new_password", "a new secret"}}, phone),
                  http::status::unauthorized, "unauthorized");
    check_refused(account_call(port, http::verb::post, "/api/accounts/password",
                               {{"old_password", password}, {"new_password", "tiny"}}, phone),
                  http::status::bad_request, "bad_request");
    check_refused(account_call(port, http::verb::post, "/api/accounts/password",
                               {{"old_password", password}, {"new_password", "a new secret"}}, bob.token),
                  http::status::bad_request, "bad_request");  // a guest has no password
    AccountCall changed = account_call(port, http::verb::post, "/api/accounts/password",
                                       {{"old_password", password}, {"new_password", "a new secret"}}, phone);
    REQUIRE(changed.response.result() == http::status::ok);
    CHECK(hello_as(port, traffic, phone) == ann.id);
    CHECK(hello_as(port, traffic, tablet).empty());
    CHECK(hello_as(port, traffic, ann.token).empty());
    check_refused(sign_in(port, "Ann_the_Builder", password), http::status::unauthorized, "unauthorized");
    CHECK(sign_in(port, "Ann_the_Builder", "a new secret").body["id"] == ann.id);
    // Bob was never touched.
    CHECK(hello_as(port, traffic, bob.token) == bob.id);
}

TEST_CASE("accounts: sign-out and a password change close the revoked sessions' open sockets",
          "[api][accounts]") {
    store_test::TestSchema schema;
    test::RunningServer running(account_config(schema));
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const std::string password = "correct horse battery";
    const e2e::Guest cy = signed_up(port, "Cy", "Cy_builds", password);
    const std::string laptop = sign_in(port, "Cy_builds", password).body["token"].get<std::string>();
    const std::string phone = sign_in(port, "Cy_builds", password).body["token"].get<std::string>();
    e2e::Player on_laptop(port, traffic, "laptop"), on_phone(port, traffic, "phone"),
        first(port, traffic, "first");
    on_laptop.hello(laptop);
    on_phone.hello(phone);
    first.hello(cy.token);

    // Signing the laptop out closes the laptop's socket, and only it.
    REQUIRE(account_call(port, http::verb::delete_, "/api/sessions/current", nullptr, laptop)
                .response.result() == http::status::no_content);
    CHECK(on_laptop.raw().read_close(5s) == std::optional<std::uint16_t>(server::close_codes::signed_out));
    on_phone.send({{"type", "ping"}, {"ref", 1}});
    CHECK(on_phone.until_type("pong"));

    // A password change on the phone closes every other session's socket.
    REQUIRE(account_call(port, http::verb::post, "/api/accounts/password",
                         {{"old_password", password}, {"new_password", "a new secret"}}, phone)
                .response.result() == http::status::ok);
    CHECK(first.raw().read_close(5s) == std::optional<std::uint16_t>(server::close_codes::signed_out));
    on_phone.send({{"type", "ping"}, {"ref", 2}});
    CHECK(on_phone.until_type("pong"));
}

TEST_CASE("accounts: a sign-in beyond the sessions kept signs the oldest device out",
          "[api][accounts]") {
    store_test::TestSchema schema;
    server::Config config = account_config(schema);
    config.max_sessions_per_account = 2;
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const std::string password = "eve's long password";
    const e2e::Guest eve = signed_up(port, "Eve", "Eve_plays", password);
    const std::string oldest = sign_in(port, "Eve_plays", password).body["token"].get<std::string>();
    const std::string second = sign_in(port, "Eve_plays", password).body["token"].get<std::string>();
    e2e::Player on_oldest(port, traffic, "oldest"), on_second(port, traffic, "second");
    on_oldest.hello(oldest);
    on_second.hello(second);

    // The third device's sign-in revokes the oldest session: its socket is closed with 4001,
    // its token is refused from then on; the second device and the guest token stay.
    const AccountCall third = sign_in(port, "Eve_plays", password);
    REQUIRE(third.response.result() == http::status::created);
    CHECK(on_oldest.raw().read_close(5s) == std::optional<std::uint16_t>(server::close_codes::signed_out));
    CHECK(hello_as(port, traffic, oldest).empty());
    check_refused(account_call(port, http::verb::get, "/api/account", nullptr, oldest),
                  http::status::unauthorized, "unauthorized");
    on_second.send({{"type", "ping"}, {"ref", 1}});
    CHECK(on_second.until_type("pong"));
    CHECK(hello_as(port, traffic, third.body["token"].get<std::string>()) == eve.id);
    CHECK(hello_as(port, traffic, eve.token) == eve.id);
    CHECK(schema.scalar("SELECT count(*) FROM sessions") == "2");
}

TEST_CASE("accounts: sign-in attempts are limited per username and per address", "[api][accounts]") {
    store_test::TestSchema schema;
    test::RunningServer running(account_config(schema));
    const std::uint16_t port = running.port();
    const e2e::Guest cid = signed_up(port, "Cid", "Cid_plays", "cid's password");

    // Five attempts a minute per username (Accounts::Limits): the sixth is refused, even with
    // the right password, before any hashing.
    for (int i = 0; i < 5; ++i)
        check_refused(sign_in(port, "Cid_plays", "guess " + std::to_string(i)), http::status::unauthorized,
                      "unauthorized");
    const AccountCall limited = sign_in(port, "cid_plays", "cid's password");
    check_refused(limited, http::status::too_many_requests, "rate_limited");
    const std::string retry = std::string(limited.response[http::field::retry_after]);
    INFO("Retry-After: " << retry);
    CHECK(std::stoi(retry) >= 1);
    CHECK(std::stoi(retry) <= 60);
    CHECK(schema.scalar("SELECT count(*) FROM sessions") == "0");

    // A success gives its attempt back: signing in on several devices never locks one out.
    // (Checked on another account, Cid's is spent.)
    const e2e::Guest dan = signed_up(port, "Dan", "Dan_plays", "dan's password");
    for (int i = 0; i < 7; ++i)
        CHECK(sign_in(port, "Dan_plays", "dan's password").response.result() == http::status::created);

    // Twenty a minute per address, whatever the usernames (13 spent above; the bucket refills
    // one every 3 s while this runs): refused within a few dozen attempts.
    int refused_after = -1;
    for (int i = 0; i < 40 && refused_after < 0; ++i) {
        const AccountCall call = sign_in(port, "someone_" + std::to_string(i), "password");
        if (call.response.result() == http::status::too_many_requests) {
            refused_after = i;
            check_refused(call, http::status::too_many_requests, "rate_limited");
            CHECK_FALSE(std::string(call.response[http::field::retry_after]).empty());
        } else {
            check_refused(call, http::status::unauthorized, "unauthorized");
        }
    }
    INFO("refused after " << refused_after << " more attempts");
    CHECK(refused_after >= 7);
}

TEST_CASE("accounts: ratings stay with the account; farming is capped; the leaderboard lists accounts",
          "[api][accounts][farming]") {
    store_test::TestSchema schema;
    test::RunningServer running(account_config(schema));
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const e2e::Guest dee = signed_up(port, "Dee", "Dee_farmer", "dee's password");
    const e2e::Guest eve = e2e::http_guest(port, "Eve");  // stays a guest
    e2e::Player d(port, traffic, "dee");
    e2e::Player e(port, traffic, "eve");
    d.hello(dee.token);
    e.hello(eve.token);

    // Five rated games in a row between the same two players; Eve resigns each at once.
    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"rated", true},
                           {"clock", {{"kind", "none"}}}};
    std::vector<std::string> matches;
    for (int g = 0; g < 5; ++g) {
        const e2e::Started started = e2e::start_private_match(d, e, settings);
        e2e::open_match(d, started.match);
        e2e::open_match(e, started.match);
        e2e::sync({&d, &e}, started.match);
        // The workers are placed first: a match that ends before its first move is aborted.
        std::vector<e2e::Player*> by_seat(2, nullptr);
        by_seat[d.match(started.match).view["you"].get<std::size_t>()] = &d;
        by_seat[e.match(started.match).view["you"].get<std::size_t>()] = &e;
        int steps = 0;
        while (d.match(started.match).view["state"]["phase"] != "begin" ||
               d.match(started.match).view["status"] != "playing")
            e2e::play_first_legal(by_seat, {&d, &e}, started.match, ++steps);
        e.send({{"type", "match.resign"}, {"ref", "gg"}, {"match", started.match}});
        auto ack = e.until_reply("gg");
        REQUIRE(ack);
        REQUIRE((*ack)["type"] == "ack");
        matches.push_back(started.match);
    }
    // The rating commits with the last step; the header is read once the match is stored.
    for (std::size_t g = 0; g < matches.size(); ++g) {
        INFO("match " << g);
        json header;
        for (int tries = 0; tries < 100; ++tries) {
            header = account_call(port, http::verb::get, "/api/matches/" + matches[g]).body;
            if (header.value("status", "") == "finished") break;
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        REQUIRE(header["status"] == "finished");
        CHECK(header["pool"] == "santorini");
        const bool rated = g < 3;
        CHECK(header["rated"] == rated);
        CHECK(header["unrated"] == (rated ? json(nullptr) : json("farming_cap")));
        for (const json& seat : header["seats"]) CHECK(seat["rating_after"].is_null() == !rated);
    }

    // A second device of the account sees the same player, ratings and games.
    const AccountCall second = sign_in(port, "Dee_farmer", "dee's password");
    REQUIRE(second.response.result() == http::status::created);
    e2e::Player phone(port, traffic, "dee's phone");
    CHECK(phone.hello(second.body["token"].get<std::string>())["player"]["id"] == dee.id);
    const json page = account_call(port, http::verb::get, "/api/players/" + dee.id).body;
    INFO(page.dump());
    REQUIRE(page["ratings"].size() == 1);
    CHECK(page["ratings"][0]["pool"] == "santorini");
    CHECK(page["ratings"][0]["games"] == 3);
    CHECK(page["ratings"][0]["rating"].get<double>() > 1500);

    // Only the account is on the board, although the guest has a rating too. The board shows
    // established players only (a deviation of 110 or less): three games are not enough, so
    // both players are made established in the database first.
    {
        pqxx::connection c = schema.connect();
        pqxx::work w(c);
        w.exec0("UPDATE ratings SET deviation = 50, last_rated_at = now()");
        w.commit();
    }
    const json board = account_call(port, http::verb::get, "/api/leaderboard?pool=santorini").body;
    INFO(board.dump());
    REQUIRE(board["entries"].size() == 1);
    CHECK(board["entries"][0]["player"]["id"] == dee.id);
    CHECK(account_call(port, http::verb::get, "/api/players/" + eve.id).body["ratings"].size() == 1);
}
