// handle_http without sockets: a request in, a response out.

#include <filesystem>
#include <fstream>
#include <future>
#include <optional>
#include <map>
#include <random>
#include <set>
#include <string>
#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/beast/http/field.hpp>
#include <boost/beast/http/verb.hpp>
#include <catch2/catch_test_macros.hpp>

#include "engine/santorini/power_catalog.hpp"
#include "protocol/json/basic_json.hpp"
#include "server/app/config.hpp"
#include "server/http/errors.hpp"
#include "server/http/routes.hpp"
#include "server/app/hub.hpp"
#include "server/app/metrics.hpp"
#include "server/match/step_store.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace http_routes_test {

namespace {

namespace fs = std::filesystem;
namespace http = boost::beast::http;
using json = nlohmann::json;
using Request = http::request<http::string_body>;
using Response = http::response<http::string_body>;

// A hub with its io_context running (the hub may post to its strands), and a web root that
// the test may fill.
struct Routes {
    boost::asio::io_context io;
    boost::asio::executor_work_guard<boost::asio::io_context::executor_type> work{io.get_executor()};
    std::thread thread{[this] { io.run(); }};
    server::Config config;
    server::Metrics metrics;
    server::MemoryStepStore store;
    std::optional<server::Hub> hub;

    explicit Routes(fs::path web_root = "/nonexistent/santorini-web-root") {
        config.web_root = web_root.string();
        hub.emplace(io, config, metrics, store);
    }
    ~Routes() {
        hub->shutdown();
        work.reset();
        io.stop();
        thread.join();
        hub.reset();
    }

    Response get(std::string target, http::verb method = http::verb::get, std::string body = {},
                 std::string_view client = "127.0.0.1") {
        Request request{method, target, 11};
        request.body() = std::move(body);
        request.prepare_payload();
        return answer(request, client);
    }

    /// handle_http, waiting for the answer (two routes answer from another thread).
    Response answer(const Request& request, std::string_view client = "127.0.0.1") {
        std::promise<Response> answered;
        auto future = answered.get_future();
        server::handle_http(request, *hub, metrics, config, client,
                            [&answered](Response response) { answered.set_value(std::move(response)); });
        return future.get();
    }
};

json body_json(const Response& response) { return json::parse(response.body(), nullptr, false); }

std::string content_type(const Response& response) {
    return std::string(response[http::field::content_type]);
}

bool is_json_error(const Response& response) {
    const json body = body_json(response);
    // Every error has a message for people and a code for programs (docs/api.md, "Errors").
    return content_type(response) == "application/json" && body.is_object() && body.contains("error") &&
           body["error"].is_string() && body.contains("code") && body["code"].is_string() &&
           body["code"] == std::string(server::http_error_code(response.result()));
}

// A temporary web root, removed afterwards.
struct WebRoot {
    fs::path root;
    fs::path outside;
    WebRoot() {
        std::random_device random;
        const fs::path base = fs::temp_directory_path() / ("santorini-web-" + std::to_string(random()));
        root = base / "web";
        outside = base / "secret.txt";
        fs::create_directories(root / "assets");
        write(root / "index.html", "<!doctype html><title>Santorini</title>");
        write(root / "app.js", "console.log('hi');");
        write(root / "assets" / "style.css", "body { color: black; }");
        write(root / "assets" / "board.PNG", std::string("\x89PNG\r\n", 6));
        write(root / ".env", "SECRET=1");
        write(outside, "top secret");
        fs::create_directories(root / "docs");
        write(root / "docs" / "index.html", "<p>docs</p>");
        std::error_code ec;
        fs::create_symlink(outside, root / "escape.txt", ec);
    }
    ~WebRoot() {
        std::error_code ec;
        fs::remove_all(root.parent_path(), ec);
    }
    static void write(const fs::path& path, const std::string& text) {
        std::ofstream out(path, std::ios::binary);
        out << text;
    }
};

}  // namespace

TEST_CASE("GET /healthz answers ok", "[http_routes]") {
    Routes routes;
    const Response response = routes.get("/healthz");
    CHECK(response.result() == http::status::ok);
    CHECK(content_type(response) == "application/json");
    CHECK(body_json(response) == json{{"status", "ok"}});
    CHECK(routes.metrics.http_requests.load() == 1);

    SECTION("HEAD has the headers and no body") {
        const Response head = routes.get("/healthz", http::verb::head);
        CHECK(head.result() == http::status::ok);
        CHECK(head.body().empty());
        CHECK(head[http::field::content_length] == std::to_string(response.body().size()));
    }
    SECTION("a query string does not matter") {
        CHECK(routes.get("/healthz?probe=1").result() == http::status::ok);
    }
    SECTION("other methods are 405 with Allow") {
        const Response post = routes.get("/healthz", http::verb::post, "{}");
        CHECK(post.result() == http::status::method_not_allowed);
        CHECK(is_json_error(post));
        CHECK(post[http::field::allow] == "GET, HEAD");
    }
}

TEST_CASE("GET /metrics is Prometheus text", "[http_routes]") {
    Routes routes;
    routes.metrics.messages_in = 7;
    const Response response = routes.get("/metrics");
    CHECK(response.result() == http::status::ok);
    CHECK(content_type(response).starts_with("text/plain; version=0.0.4"));
    CHECK(response.body().find("santorini_messages_in_total 7\n") != std::string::npos);
    CHECK(response.body().find("santorini_open_sockets ") != std::string::npos);
    CHECK(response.body().find("santorini_http_requests_total 1\n") != std::string::npos);
    CHECK(routes.get("/metrics", http::verb::delete_).result() == http::status::method_not_allowed);
}

TEST_CASE("POST /api/guests creates a guest whose token authenticates", "[http_routes]") {
    Routes routes;
    const Response response = routes.get("/api/guests", http::verb::post, R"({"name":"Alice"})");
    REQUIRE(response.result() == http::status::created);
    CHECK(content_type(response) == "application/json");
    CHECK(response[http::field::cache_control] == "no-store");
    const json guest = body_json(response);
    REQUIRE(guest.is_object());
    CHECK(guest["name"] == "Alice");
    CHECK(guest["id"].is_string());
    REQUIRE(guest["token"].is_string());
    CHECK(guest["token"].get<std::string>().size() >= 32);  // 128 bits as hex
    const std::optional<server::Guest> known = routes.hub->authenticate(guest["token"].get<std::string>());
    REQUIRE(known);
    CHECK(known->id == guest["id"]);
    CHECK(known->name == "Alice");

    // Two guests never share an id or a token.
    const json other = body_json(routes.get("/api/guests", http::verb::post, R"({"name":"Alice"})"));
    CHECK(other["id"] != guest["id"]);
    CHECK(other["token"] != guest["token"]);
}

TEST_CASE("POST /api/guests refuses bad bodies with 400 and a JSON error", "[http_routes]") {
    Routes routes;
    for (const std::string& body : {std::string("not json"), std::string("{\"name\":"), std::string("[]"),
                                   std::string("{}"), std::string(R"({"name":42})"), std::string(R"({"name":""})"),
                                   R"({"name":")" + std::string(100, 'x') + "\"}", std::string(R"({"name":"a\u0001b"})"),
                                   std::string("")}) {
        INFO(body);
        const Response response = routes.get("/api/guests", http::verb::post, body);
        CHECK(response.result() == http::status::bad_request);
        CHECK(is_json_error(response));
    }
    const Response get = routes.get("/api/guests");
    CHECK(get.result() == http::status::method_not_allowed);
    CHECK(get[http::field::allow] == "POST");
}

TEST_CASE("POST /api/guests is limited per client address with 429", "[http_routes]") {
    Routes routes;
    const std::string name = R"({"name":"Flood"})";
    // The default burst lets a family behind one address in; a script creating players is cut off.
    int created = 0;
    Response refused;
    for (int i = 0; i < 100; ++i) {
        Response r = routes.get("/api/guests", http::verb::post, name, "127.0.0.7");
        if (r.result() == http::status::created) {
            ++created;
        } else {
            refused = std::move(r);
            break;
        }
    }
    CHECK(created == static_cast<int>(routes.config.guest_burst));
    CHECK(refused.result() == http::status::too_many_requests);
    CHECK(refused[http::field::retry_after] == "60");
    CHECK(is_json_error(refused));
    // Other addresses are not affected.
    CHECK(routes.get("/api/guests", http::verb::post, name, "127.0.9.8").result() == http::status::created);  // another /24
}

TEST_CASE("GET /api/lobbies and /api/matches return the hub's lists", "[http_routes]") {
    Routes routes;
    const Response lobbies = routes.get("/api/lobbies");
    CHECK(lobbies.result() == http::status::ok);
    CHECK(content_type(lobbies) == "application/json");
    CHECK(body_json(lobbies) == routes.hub->public_lobbies());

    const Response matches = routes.get("/api/matches");
    CHECK(matches.result() == http::status::ok);
    CHECK(body_json(matches) == routes.hub->live_matches());

    CHECK(routes.get("/api/lobbies", http::verb::post, "{}").result() == http::status::method_not_allowed);
    CHECK(routes.get("/api/matches", http::verb::put, "{}").result() == http::status::method_not_allowed);
}

TEST_CASE("GET /api/powers answers the engine's catalog, without a database", "[http_routes][powers]") {
    Routes routes;  // no database_url: the route must not need one
    REQUIRE(routes.config.database_url.empty());
    const Response response = routes.get("/api/powers");
    REQUIRE(response.result() == http::status::ok);
    CHECK(content_type(response) == "application/json");
    const json body = body_json(response);
    REQUIRE(body.is_object());
    REQUIRE(body.size() == 1);
    const json& powers = body.at("powers");
    const auto catalog = santorini::all_powers();
    REQUIRE(powers.size() == catalog.size());
    REQUIRE(powers.size() == static_cast<std::size_t>(santorini::power_count));

    const std::map<santorini::PowerCategory, std::string> category{
        {santorini::PowerCategory::Simple, "simple"},
        {santorini::PowerCategory::Advanced, "advanced"},
        {santorini::PowerCategory::Hero, "hero"}};
    std::map<std::string, std::set<std::string>> banned_of;
    for (std::size_t i = 0; i < catalog.size(); ++i) {
        const santorini::PowerInfo& info = catalog[i];
        const json& p = powers[i];
        INFO(info.name);
        CHECK(p.size() == 8);  // id, number, name, category, players, golden_fleece, banned, text
        CHECK(p.at("id") == std::string(info.key));
        CHECK(p.at("number") == static_cast<int>(info.id));
        CHECK(p.at("name") == std::string(info.name));
        CHECK(p.at("category") == category.at(info.category));
        json players = json::array();
        for (int n = 1; n <= 5; ++n)
            if (santorini::allowed_with_players(info.id, n)) players.push_back(n);
        CHECK(p.at("players") == players);
        CHECK(p.at("golden_fleece") == info.golden_fleece);
        CHECK_FALSE(p.at("text").get<std::string>().empty());
        // Exactly the engine's banned pairs, each by the other power's key.
        std::set<std::string> listed;
        for (const json& other : p.at("banned")) listed.insert(other.get<std::string>());
        CHECK(listed.size() == p.at("banned").size());
        for (const santorini::PowerInfo& other : catalog) {
            INFO("against " << other.name);
            CHECK(listed.count(std::string(other.key)) == (santorini::banned_pair(info.id, other.id) ? 1u : 0u));
        }
        banned_of[std::string(info.key)] = listed;
    }
    // The banned lists are symmetric, and the rulebook's best-known pair is among them.
    for (const auto& [power, banned] : banned_of)
        for (const std::string& other : banned) {
            INFO(power << " bans " << other);
            CHECK(banned_of.at(other).count(power) == 1);
        }
    CHECK(banned_of.at("Pan").count("Hades") == 1);
    CHECK(powers[33].at("name") == "Europa & Talus");

    CHECK(routes.get("/api/powers", http::verb::head).result() == http::status::ok);
    CHECK(routes.get("/api/powers", http::verb::post, "{}").result() == http::status::method_not_allowed);
    CHECK(routes.get("/api/powers/Apollo").result() == http::status::not_found);
}

TEST_CASE("GET /api/matches/{id} of an unknown match is 404", "[http_routes]") {
    Routes routes;
    for (const char* target : {"/api/matches/m_doesnotexist00000", "/api/matches/", "/api/matches/a/b"}) {
        INFO(target);
        const Response response = routes.get(target);
        CHECK(response.result() == http::status::not_found);
        CHECK(is_json_error(response));
    }
    const std::string long_id = "/api/matches/m_" + std::string(500, 'a');
    CHECK(routes.get(long_id).result() == http::status::not_found);
}

TEST_CASE("unknown API paths are 404 JSON errors", "[http_routes]") {
    Routes routes;
    for (const char* target : {"/api", "/api/", "/api/nothing", "/api/guests/extra", "/api/lobbies/l_1"}) {
        INFO(target);
        const Response response = routes.get(target);
        CHECK(response.result() == http::status::not_found);
        CHECK(is_json_error(response));
    }
}

TEST_CASE("/ws without an upgrade is 426", "[http_routes]") {
    Routes routes;
    const Response response = routes.get("/ws");
    CHECK(response.result() == http::status::upgrade_required);
    CHECK(is_json_error(response));
}

TEST_CASE("without a web root every page is a 404 JSON error", "[http_routes]") {
    Routes routes;
    for (const char* target : {"/", "/index.html", "/app.js"}) {
        INFO(target);
        const Response response = routes.get(target);
        CHECK(response.result() == http::status::not_found);
        CHECK(is_json_error(response));
    }
}

TEST_CASE("static files come from the web root with their mime types", "[http_routes]") {
    WebRoot web;
    Routes routes(web.root);

    const Response index = routes.get("/");
    CHECK(index.result() == http::status::ok);
    CHECK(content_type(index) == "text/html; charset=utf-8");
    CHECK(index.body() == "<!doctype html><title>Santorini</title>");

    CHECK(routes.get("/index.html").body() == index.body());
    CHECK(routes.get("/index.html?v=3").body() == index.body());
    CHECK(content_type(routes.get("/app.js")) == "text/javascript; charset=utf-8");
    CHECK(content_type(routes.get("/assets/style.css")) == "text/css; charset=utf-8");
    CHECK(routes.get("/assets/style.css").body() == "body { color: black; }");
    const Response png = routes.get("/assets/board.PNG");
    CHECK(content_type(png) == "image/png");
    CHECK(png.body().size() == 6);
    CHECK(routes.get("/docs/").body() == "<p>docs</p>");
    CHECK(routes.get("/assets/st%79le.css").result() == http::status::ok);  // %79 = 'y'

    const Response head = routes.get("/app.js", http::verb::head);
    CHECK(head.result() == http::status::ok);
    CHECK(head.body().empty());
    CHECK(head[http::field::content_length] == "18");

    CHECK(routes.get("/app.js", http::verb::post, "x").result() == http::status::method_not_allowed);
}

TEST_CASE("static files carry an entity tag; an unchanged one is a 304 without a body", "[http_routes]") {
    WebRoot web;
    Routes routes(web.root);
    const Response first = routes.get("/app.js");
    REQUIRE(first.result() == http::status::ok);
    const std::string tag(first[http::field::etag]);
    REQUIRE(tag.size() == 18);
    CHECK(tag.front() == '"');
    CHECK(first[http::field::cache_control] == "no-cache");
    CHECK(routes.get("/assets/style.css")[http::field::etag] != tag);  // other bytes, other tag

    auto revalidate = [&](std::string target, std::string if_none_match, http::verb method = http::verb::get) {
        Request request{method, target, 11};
        request.set(http::field::if_none_match, if_none_match);
        request.prepare_payload();
        return routes.answer(request);
    };
    for (const std::string& header : {tag, "\"0000000000000000\", " + tag, "W/" + tag, std::string("*")}) {
        INFO(header);
        const Response again = revalidate("/app.js", header);
        CHECK(again.result() == http::status::not_modified);
        CHECK(again.body().empty());
        CHECK(again[http::field::etag] == tag);
        CHECK(again[http::field::content_length].empty());
    }
    CHECK(revalidate("/app.js", tag, http::verb::head).result() == http::status::not_modified);
    // Another tag, or the same file changed: the whole file again, with its new tag.
    const Response other = revalidate("/app.js", "\"0000000000000000\"");
    CHECK(other.result() == http::status::ok);
    CHECK(other.body() == "console.log('hi');");
    WebRoot::write(web.root / "app.js", "console.log('hello');");
    const Response changed = revalidate("/app.js", tag);
    CHECK(changed.result() == http::status::ok);
    CHECK(changed.body() == "console.log('hello');");
    CHECK(changed[http::field::etag] != tag);
}

TEST_CASE("static paths cannot leave the web root", "[http_routes]") {
    WebRoot web;
    Routes routes(web.root);
    for (const char* target :
         {"/../secret.txt", "/assets/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt",
          "/assets/%2e%2e/%2e%2e/secret.txt", "/..%5csecret.txt", "/.env", "/./index.html", "/escape.txt",
          "/nothing.html", "/assets", "/assets/missing.css", "/index.html%00.js", "/%zz", "/%2", "relative",
          "/docs/.."}) {
        INFO(target);
        const Response response = routes.get(target);
        CHECK(response.result() == http::status::not_found);
        CHECK(is_json_error(response));
        CHECK(response.body().find("top secret") == std::string::npos);
    }
}

TEST_CASE("static_file_path maps URL paths under the root", "[http_routes]") {
    const fs::path root = "/srv/web";
    CHECK(server::static_file_path(root, "/") == root / "index.html");
    CHECK(server::static_file_path(root, "/a/b.js") == root / "a" / "b.js");
    CHECK(server::static_file_path(root, "//a//b.js") == root / "a" / "b.js");
    CHECK(server::static_file_path(root, "/a/?x=1") == root / "a" / "index.html");
    CHECK(server::static_file_path(root, "/a%20b.txt") == root / "a b.txt");
    CHECK_FALSE(server::static_file_path(root, "/a/../b"));
    CHECK_FALSE(server::static_file_path(root, "/..."));
    CHECK_FALSE(server::static_file_path(root, "/.git/config"));
    CHECK_FALSE(server::static_file_path(root, "/a\\b"));
    CHECK_FALSE(server::static_file_path(root, ""));
    CHECK_FALSE(server::static_file_path(root, "a.txt"));
}

TEST_CASE("mime types by extension", "[http_routes]") {
    CHECK(server::mime_type("index.html") == "text/html; charset=utf-8");
    CHECK(server::mime_type("/x/y/app.mjs") == "text/javascript; charset=utf-8");
    CHECK(server::mime_type("logo.SVG") == "image/svg+xml");
    CHECK(server::mime_type("photo.jpeg") == "image/jpeg");
    CHECK(server::mime_type("data.json") == "application/json");
    CHECK(server::mime_type("font.woff2") == "font/woff2");
    CHECK(server::mime_type("engine.wasm") == "application/wasm");
    CHECK(server::mime_type("README") == "application/octet-stream");
    CHECK(server::mime_type("archive.tar.gz") == "application/octet-stream");
    CHECK(server::mime_type("dir.d/file") == "application/octet-stream");
}

TEST_CASE("responses follow the request's version and keep-alive", "[http_routes]") {
    Routes routes;
    Request request{http::verb::get, "/healthz", 10};
    const Response old = routes.answer(request);
    CHECK(old.version() == 10);
    CHECK_FALSE(old.keep_alive());

    Request keep{http::verb::get, "/healthz", 11};
    CHECK(routes.answer(keep).keep_alive());
    keep.keep_alive(false);
    CHECK_FALSE(routes.answer(keep).keep_alive());
}

}  // namespace http_routes_test
