// docs/openapi.yaml is the contract: real answers of every HTTP API route, from a server on a
// loopback port against PostgreSQL, are validated against its component schemas by
// tests/api/validate_openapi.py (python3-jsonschema, python3-yaml), and so are broken copies of
// them, which must be rejected (the check can fail).

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>

#include "protocol/json/basic_json.hpp"
#include "server/store/token_hash.hpp"
#include "tests/api/bearer_request.hpp"
#include "tests/api/fetch_json.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

namespace http = boost::beast::http;
using e2e::json;

namespace {

// Answers to validate, each with the schema it must (or, broken, must not) match.
class Answers {
  public:
    void add(const std::string& schema, const json& body, bool valid = true) {
        lines_.push_back({{"schema", schema}, {"body", body}, {"valid", valid}});
    }
    std::size_t size() const { return lines_.size(); }

    /// Runs the validator; its exit status, its output in `report`.
    int validate(std::string& report) const {
        const auto stamp = std::to_string(std::chrono::steady_clock::now().time_since_epoch().count());
        const auto dir = std::filesystem::temp_directory_path();
        const auto input = dir / ("openapi_answers_" + stamp + ".jsonl");
        const auto output = dir / ("openapi_report_" + stamp + ".txt");
        {
            std::ofstream out(input);
            for (const json& line : lines_) out << line.dump() << '\n';
        }
        std::filesystem::path script = std::filesystem::path(__FILE__).parent_path() / "validate_openapi.py";
        if (!std::filesystem::exists(script)) script = "tests/api/validate_openapi.py";
        const std::string command = "python3 '" + script.string() + "' '" + input.string() + "' > '" +
                                    output.string() + "' 2>&1";
        const int status = std::system(command.c_str());
        std::ifstream in(output);
        report.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        std::filesystem::remove(input);
        std::filesystem::remove(output);
        return status;
    }

  private:
    std::vector<json> lines_;
};


}  // namespace

TEST_CASE("every HTTP API answer matches its schema in docs/openapi.yaml", "[api][openapi]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    test::RunningServer running(config);
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    Answers answers;

    const auto made = test::http_request(port, http::verb::post, "/api/guests", json{{"name", "Ann"}}.dump());
    REQUIRE(made.result() == http::status::created);
    answers.add("Guest", json::parse(made.body()));
    const e2e::Guest ann{json::parse(made.body())["id"], "Ann", json::parse(made.body())["token"]};
    const e2e::Guest bob = e2e::http_guest(port, "Bob");
    const e2e::Guest sue = e2e::http_guest(port, "Sue");
    e2e::Player a(port, traffic, "ann");
    e2e::Player b(port, traffic, "bob");
    e2e::Player s(port, traffic, "sue");
    a.hello(ann.token);
    b.hello(bob.token);
    s.hello(sue.token);

    // A public lobby waiting (the lobby list), then a private match played into its turns.
    s.send({{"type", "lobby.create"}, {"ref", "c"}, {"settings", {{"game", "santorini"}, {"players", 3}, {"powers", "simple"}}}});
    REQUIRE(s.until_reply("c"));
    // The list is published on the lobby strand after the ack: a slow (sanitizer) build may
    // answer the first read before it.
    json lobbies = api_test::fetch_json(port, "/api/lobbies");
    for (int i = 0; i < 50 && lobbies.size() != 1; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        lobbies = api_test::fetch_json(port, "/api/lobbies");
    }
    REQUIRE(lobbies.size() == 1);
    for (const json& lobby : lobbies) answers.add("Lobby", lobby);

    const json settings = {{"game", "santorini"}, {"players", 2}, {"powers", "simple"}, {"draft", "random"},
                           {"clock", {{"kind", "realtime"}, {"base_seconds", 600}, {"increment_seconds", 5}}}};
    const e2e::Started started = e2e::start_private_match(a, b, settings);
    e2e::open_match(a, started.match);
    e2e::open_match(b, started.match);
    e2e::sync({&a, &b}, started.match);
    std::vector<e2e::Player*> by_seat(2, nullptr);
    by_seat[a.match(started.match).view["you"].get<std::size_t>()] = &a;
    by_seat[b.match(started.match).view["you"].get<std::size_t>()] = &b;
    int number = 0;
    while (a.match(started.match).view["status"] != "playing") {
        REQUIRE(number < 20);
        e2e::play_first_legal(by_seat, {&a, &b}, started.match, ++number);
    }

    // Live: the header, the replay and a view (with the invite code).
    answers.add("MatchHeader", api_test::fetch_json(port, "/api/matches/" + started.match));
    const json live_replay = api_test::fetch_json(port, "/api/matches/" + started.match + "/replay?code=" + started.code);
    answers.add("Replay", live_replay);
    const json live_view = api_test::fetch_json(port, "/api/matches/" + started.match + "/view?after=2&code=" + started.code);
    answers.add("ViewAfter", live_view);
    answers.add("Error", api_test::fetch_json(port, "/api/matches/" + started.match + "/replay", http::status::forbidden));
    for (const json& entry : api_test::fetch_json(port, "/api/matches")) answers.add("MatchSummary", entry);
    for (const json& queue : api_test::fetch_json(port, "/api/queues")) answers.add("Queue", queue);
    const json powers = api_test::fetch_json(port, "/api/powers");
    answers.add("PowerCatalog", powers);
    answers.add("Health", api_test::fetch_json(port, "/healthz"));

    // The player's preferences (docs/api.md, "Preferences"), with the player's token.
    const std::string preferences = "/api/me/preferences";
    const test::HttpResponse saved = api_test::bearer_request(
        port, http::verb::put, preferences, ann.token,
        json{{"language", "it"}, {"chat_off", true}, {"muted", {bob.id}}}.dump());
    REQUIRE(saved.result() == http::status::ok);
    const json kept = json::parse(saved.body());
    answers.add("Preferences", kept);
    answers.add("Preferences",
                json::parse(api_test::bearer_request(port, http::verb::get, preferences, bob.token).body()));
    answers.add("Error",
                json::parse(api_test::bearer_request(port, http::verb::get, preferences, "").body()));

    // Bob resigns: a finished, rated match.
    b.send({{"type", "match.resign"}, {"ref", "r"}, {"match", started.match}});
    auto resigned = b.until_reply("r");
    REQUIRE(resigned);
    REQUIRE((*resigned)["type"] == "ack");
    json header;
    for (int i = 0; i < 100; ++i) {
        header = api_test::fetch_json(port, "/api/matches/" + started.match);
        if (header["status"] == "finished" && !header["seats"][0]["rating_after"].is_null()) break;
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    REQUIRE(header["status"] == "finished");
    answers.add("MatchHeader", header);
    answers.add("Replay", api_test::fetch_json(port, "/api/matches/" + started.match + "/replay?code=" + started.code));
    answers.add("ViewAfter", api_test::fetch_json(port, "/api/matches/" + started.match + "/view?after=" +
                                               std::to_string(header["steps"].get<int>()) + "&code=" + started.code));
    answers.add("PlayerPage", api_test::fetch_json(port, "/api/players/" + ann.id));
    answers.add("RatingHistory", api_test::fetch_json(port, "/api/players/" + ann.id + "/rating-history?pool=santorini_powers"));
    const test::HttpResponse page = test::http_request(port, http::verb::get, "/api/players/" + bob.id + "/matches");
    REQUIRE(page.result() == http::status::ok);
    std::istringstream lines(page.body());
    int headers = 0;
    for (std::string line; std::getline(lines, line); ++headers) answers.add("MatchHeader", json::parse(line));
    CHECK(headers == 1);

    // An established player so the leaderboard has a line.
    {
        pqxx::connection c = schema.connect();
        pqxx::work w(c);
        w.exec_params0("INSERT INTO players (id, display_name, token_sha256) VALUES ('p_star', 'Star', $1)",
                       store::token_sha256("token-of-star"));
        // The leaderboard lists accounts only (docs/ratings.md).
        w.exec0("INSERT INTO accounts (player_id, username, username_key, password_hash) "
                "VALUES ('p_star', 'Star', 'star', '$argon2id$not-a-real-hash')");
        w.exec0("INSERT INTO ratings (player_id, pool, rating, deviation, volatility, games, last_rated_at) "
                "VALUES ('p_star', 'santorini_powers', 2100, 50, 0.06, 40, now())");
        w.commit();
    }
    const json board = api_test::fetch_json(port, "/api/leaderboard?pool=santorini_powers");
    REQUIRE(board["entries"].size() == 1);
    answers.add("Leaderboard", board);
    for (const char* bad : {"/api/leaderboard?pool=nope", "/api/players/p_nobody", "/api/matches/m_x/view?after=x"})
        answers.add("Error", json::parse(test::http_request(port, http::verb::get, bad).body()));

    std::string report;
    REQUIRE(answers.size() > 20);
    const int real = answers.validate(report);
    INFO("validator output:\n" << report);
    CHECK(real == 0);

    // Broken copies must be rejected: a field missing, one of the wrong type, one too many, a
    // private match in the live list, an unknown error code.
    Answers broken;
    json no_id = header;
    no_id.erase("id");
    broken.add("MatchHeader", no_id, false);
    json text_rating = header;
    text_rating["seats"][0]["rating_after"]["rating"] = "1662";
    broken.add("MatchHeader", text_rating, false);
    json extra = api_test::fetch_json(port, "/api/players/" + ann.id);
    extra["token"] = ann.token;
    broken.add("PlayerPage", extra, false);
    broken.add("MatchSummary", {{"id", started.match}, {"game", "santorini"}, {"status", "playing"}, {"private", true}}, false);
    broken.add("Error", {{"error", "x"}, {"code", "teapot"}}, false);
    json unknown_category = powers;
    unknown_category["powers"][0]["category"] = "golden";
    broken.add("PowerCatalog", unknown_category, false);
    json power_extra = powers;
    power_extra["powers"][0]["hidden"] = false;
    broken.add("PowerCatalog", power_extra, false);
    json lower_time = board;
    lower_time["entries"][0]["rank"] = 0;
    broken.add("Leaderboard", lower_time, false);
    json unknown_language = kept;
    unknown_language["language"] = "fr";
    broken.add("Preferences", unknown_language, false);
    json preference_extra = kept;
    preference_extra["theme"] = "dark";
    broken.add("Preferences", preference_extra, false);
    // The replay's steps and the view's state are closed too: a step with a field no step
    // has, a secret step's public part with its hidden square, a state with a field no state
    // has, a Santorini state under a Splendor view.
    REQUIRE(live_replay["steps"].size() >= 2);
    json odd_step = live_replay;
    odd_step["steps"][0]["step"]["hint"] = "C3";
    broken.add("Replay", odd_step, false);
    json leaky_build = live_replay;
    leaky_build["steps"][0]["step"] = {{"kind", "build"}, {"to", "D4"}, {"secret", "C3"}};
    broken.add("Replay", leaky_build, false);
    json odd_state = live_view;
    odd_state["view"]["state"]["rng"] = 12345;
    broken.add("ViewAfter", odd_state, false);
    json other_game = live_view;
    other_game["view"]["game"] = "splendor";
    broken.add("ViewAfter", other_game, false);
    std::string broken_report;
    const int rejected = broken.validate(broken_report);
    INFO("validator output (broken answers):\n" << broken_report);
    CHECK(rejected == 0);  // every broken answer got the verdict "invalid", as expected
}
