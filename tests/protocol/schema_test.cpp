// The JSON Schemas in protocol/schema/ against what the code really sends and accepts: sample
// messages of every type, server messages made by the builders from real engine states, are
// written as JSON lines and checked by tests/protocol/validate_schemas.py (the same script the
// end-to-end traffic goes through). Python 3 with jsonschema is required: no python, no pass.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "engine/santorini/notation.hpp"
#include "protocol/games.hpp"
#include "protocol/messages.hpp"
#include "protocol/splendor/game.hpp"
#include "protocol/splendor/json.hpp"
#include "splendor_support.hpp"
#include "support.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using namespace protocol;
using nlohmann::json;

namespace {

// Tests run from the repository root (CMake's WORKING_DIRECTORY). __FILE__ is no guide: with
// ccache's base directory it is relative to the build tree.
const std::filesystem::path here = std::filesystem::path("tests") / "protocol";

struct Traffic {
    std::vector<json> lines;
    void client(const json& m) { lines.push_back({{"direction", "client"}, {"message", m}}); }
    void server(const std::string& text) {
        lines.push_back({{"direction", "server"}, {"message", json::parse(text)}});
    }
};

// Runs the validator on `traffic`; returns its exit status and leaves its output in `report`.
int validate(const Traffic& traffic, std::string& report, const std::string& options = "") {
    const auto stamp = std::chrono::steady_clock::now().time_since_epoch().count();
    const auto dir = std::filesystem::temp_directory_path();
    const auto input = dir / ("protocol_traffic_" + std::to_string(stamp) + ".jsonl");
    const auto output = dir / ("protocol_report_" + std::to_string(stamp) + ".txt");
    {
        std::ofstream out(input);
        for (const auto& line : traffic.lines) out << line.dump() << '\n';
    }
    const std::string command = "python3 '" + (here / "validate_schemas.py").string() + "' " +
                                options + " '" + input.string() + "' > '" + output.string() +
                                "' 2>&1";
    const int status = std::system(command.c_str());
    std::ifstream in(output);
    report.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    std::filesystem::remove(input);
    std::filesystem::remove(output);
    return status;
}

json settings_sample() {
    return {{"game", "santorini"},
            {"players", 2},
            {"powers", "custom"},
            {"pool", {"Apollo", "Pan", "Atlas"}},
            {"draft", "full"},
            {"golden_fleece", false},
            {"clock", {{"kind", "realtime"}, {"base_seconds", 300}, {"increment_seconds", 5}}},
            {"public", true}};
}

json splendor_settings_sample() {
    return {{"game", "splendor"},
            {"players", 3},
            {"rated", true},
            {"clock", {{"kind", "realtime"}, {"base_seconds", 600}, {"increment_seconds", 5}}},
            {"public", false}};
}

// One client message of every type (and variants), each also accepted by the parser.
void add_client_samples(Traffic& t) {
    const std::vector<json> samples = {
        {{"type", "hello"}, {"protocol", 1}, {"token", "0123456789abcdef0123456789abcdef"}},
        {{"type", "hello"}, {"protocol", 1}, {"token", "t"}, {"ack_in_patch", true}},
        {{"type", "ping"}, {"ref", 1}},
        {{"type", "lobby.create"}, {"settings", settings_sample()}, {"ref", "c1"}},
        {{"type", "lobby.create"},
         {"settings",
          {{"game", "santorini"},
           {"players", 4},
           {"powers", "all"},
           {"clock", {{"kind", "turn"}, {"hours_per_move", 24}}}}}},
        {{"type", "lobby.join"}, {"lobby", "l_abcdefghijklmnop"}},
        {{"type", "lobby.join"}, {"code", "ABCD2345"}, {"ref", 7}},
        {{"type", "lobby.leave"}, {"lobby", "l_abcdefghijklmnop"}},
        {{"type", "lobby.kick"}, {"lobby", "l_abcdefghijklmnop"}, {"player", "p_qrstuvwxyz234567"}},
        {{"type", "lobby.start"}, {"lobby", "l_abcdefghijklmnop"}},
        {{"type", "lobby.chat"}, {"lobby", "l_abcdefghijklmnop"}, {"text", "ready?"}, {"ref", 2}},
        {{"type", "lobbies.subscribe"}},
        {{"type", "lobbies.unsubscribe"}},
        {{"type", "matches.subscribe"}},
        {{"type", "matches.unsubscribe"}},
        {{"type", "match.open"}, {"match", "m_abcdefghijklmnop"}},
        {{"type", "match.open"}, {"match", "m_abcdefghijklmnop"}, {"since", 12}},
        {{"type", "match.close"}, {"match", "m_abcdefghijklmnop"}},
        {{"type", "match.step"},
         {"match", "m_abcdefghijklmnop"},
         {"step", {{"kind", "move"}, {"from", "B2"}, {"to", "C3"}}}},
        {{"type", "match.step"},
         {"match", "m_a"},
         {"step", {{"kind", "build"}, {"from", "C3"}, {"to", "D4"}, {"before_move", true}}}},
        {{"type", "match.step"},
         {"match", "m_a"},
         {"step", {{"kind", "offer"}, {"power", "Apollo"}}}},
        {{"type", "match.resign"}, {"match", "m_abcdefghijklmnop"}},
        {{"type", "match.abort"}, {"match", "m_abcdefghijklmnop"}, {"ref", "a"}},
        {{"type", "match.claim"}, {"match", "m_abcdefghijklmnop"}, {"seat", 1}, {"what", "win"}},
        {{"type", "match.claim"},
         {"match", "m_abcdefghijklmnop"},
         {"seat", 0},
         {"what", "abort"},
         {"ref", 4}},
        {{"type", "queue.join"},
         {"ref", "q"},
         {"queue", "santorini"},
         {"clock", {{"kind", "realtime"}, {"base_seconds", 180}, {"increment_seconds", 2}}}},
        {{"type", "queue.join"},
         {"queue", "santorini_gods"},
         {"clock", {{"kind", "realtime"}, {"base_seconds", 600}, {"increment_seconds", 5}}}},
        {{"type", "match.rematch"}, {"match", "m_abcdefghijklmnop"}, {"accept", true}},
        {{"type", "match.rematch"}, {"match", "m_abcdefghijklmnop"}, {"accept", false}, {"ref", 9}},
        {{"type", "match.chat"}, {"match", "m_abcdefghijklmnop"}, {"text", "good luck"}},
        {{"type", "match.chat"}, {"match", "m_abcdefghijklmnop"}, {"text", "gg"}, {"ref", "c1"}},
        {{"type", "queue.leave"}, {"ref", 3}},
        {{"type", "queue.leave"}},
        {{"type", "lobby.create"}, {"settings", splendor_settings_sample()}, {"ref", "s1"}},
        {{"type", "lobby.create"}, {"settings", {{"game", "splendor"}, {"players", 4}}}},
        {{"type", "lobby.create"},
         {"settings", {{"game", "santorini"}, {"players", 2}, {"rated", false}}}},
        {{"type", "queue.join"},
         {"queue", "splendor"},
         {"clock", {{"kind", "realtime"}, {"base_seconds", 300}, {"increment_seconds", 3}}}},
    };
    for (const auto& m : samples) {
        INFO(m.dump());
        CHECK(std::holds_alternative<ClientMessage>(parse_client_message(m.dump())));
        t.client(m);
    }
    // The examples step.json gives for each kind: canonical, and sent as match.step.
    std::ifstream in(std::filesystem::path("protocol") / "schema" / "step.json");
    REQUIRE(in);
    const json step_schema = json::parse(in);
    int examples = 0;
    for (const auto& kind : step_schema["oneOf"])
        for (const auto& example : kind["examples"]) {
            INFO(example.dump());
            // Canonical in the game whose kind it is (`pass` is both games').
            auto canonical = canonical_step_of("santorini", example);
            if (!std::holds_alternative<json>(canonical))
                canonical = canonical_step_of("splendor", example);
            REQUIRE(std::holds_alternative<json>(canonical));
            CHECK(std::get<json>(canonical) == example);
            const json m = {{"type", "match.step"}, {"match", "m_a"}, {"step", example}};
            CHECK(std::holds_alternative<ClientMessage>(parse_client_message(m.dump())));
            t.client(m);
            ++examples;
        }
    CHECK(examples >= 22);
}

// A Splendor match view as server::Match writes it (the envelope around the game's members and
// `state`), for `viewer` of `game`.
std::string splendor_view_text(const protocol::Game& game, const protocol::GameView& view,
                               int viewer, const std::vector<std::string>& history) {
    std::string text;
    JsonText out(text);
    out.begin_object().key("match").string("m_test").key("game").string(game.kind());
    out.key("status").string(game.status()).key("seats").begin_array();
    for (int s = 0; s < game.seat_count(); ++s) {
        out.begin_object().key("seat").number(s).key("player").begin_object();
        out.key("id")
            .string("p_player" + std::to_string(s))
            .key("name")
            .string("Player " + std::to_string(s));
        out.end_object();
        game.write_seat(view, s, out);
        out.key("connected").boolean(s != 1).key("away");
        // Seat 1 is away, with the abandonment rule's instants (docs/protocol.md).
        if (s == 1 && !game.over())
            out.raw(R"({"since_ms":1795000000000,"claim_ms":1795000060000,)"
                    R"("deadline_ms":1795000300000,"claim":"win"})");
        else
            out.null();
        out.end_object();
    }
    out.end_array().key("you");
    if (viewer >= 0)
        out.number(viewer);
    else
        out.null();
    out.key("spectators").number(1);
    out.key("clock").raw(
        R"({"kind":"realtime","remaining_ms":[1000,2000,3000,4000],"running":null})");
    if (game.over()) {
        out.key("result").begin_object().key("winners").begin_array();
        for (int s = 0; s < game.seat_count(); ++s)
            if (game.winners() >> s & 1u) out.number(s);
        out.end_array().key("reason").string("win").end_object();
    } else {
        out.key("result").null();
    }
    // A chat line of the viewer's channel (docs/protocol.md, "Chat").
    out.key("chat").begin_array().begin_object();
    out.key("n").number(1).key("channel").string(viewer >= 0 ? "players" : "spectators");
    out.key("seat");
    if (viewer >= 0)
        out.number(viewer);
    else
        out.null();
    out.key("player").string("p_4kq7m2x9ab3cd5ef").key("name").string("Ann").key("text").string("<b>gg</b>").key("at_ms").number(1795000000000);
    out.end_object().end_array();
    out.key("history").begin_array();
    for (const auto& line : history) out.string(line);
    out.end_array().key("state");
    game.write_state(view, out);
    out.end_object();
    return text;
}

// Snapshots and patches of random Splendor games (2-4 players, now and then a concession, half
// of them with confirm_turns) for each seat and the spectators, as a match sends them.
void add_splendor_samples(Traffic& t) {
    for (int players = 2; players <= 4; ++players)
        for (std::uint64_t seed = 1; seed <= 2; ++seed) {
            auto start = splendor_test::new_state(players, 0, seed * 31 + players);
            start.confirm_turns = seed == 2;  // phase confirm, end_turn and undo in `legal`
            protocol::SplendorGame game(start);
            std::mt19937_64 rng(seed);
            std::vector<int> viewers;
            for (int s = 0; s < players; ++s) viewers.push_back(s);
            viewers.push_back(protocol::spectators);
            std::vector<std::unique_ptr<protocol::GameView>> views;
            std::vector<std::vector<std::string>> history(viewers.size());
            for (std::size_t i = 0; i < viewers.size(); ++i) {
                views.push_back(game.view(viewers[i]));
                t.server(snapshot_message(
                    "m_test", 1, json::parse(splendor_view_text(game, *views[i], viewers[i], {}))));
            }
            for (std::uint64_t version = 2; !game.over(); ++version) {
                std::vector<std::string> lines;
                if (players == 4 && version == 20) {
                    REQUIRE_FALSE(game.concede(3));
                } else {
                    auto played =
                        game.play(protocol::step_json(splendor_test::pick(game.legal(), rng)));
                    lines = std::get<protocol::Played>(played).lines;
                }
                for (std::size_t i = 0; i < viewers.size(); ++i) {
                    auto next = game.view(viewers[i]);
                    std::string text;
                    protocol::PatchText patch(text);
                    game.write_patch(*views[i], *next, patch);
                    if (!lines.empty()) {
                        const std::string& line = lines[std::min(i, lines.size() - 1)];
                        patch.add("/history/-").string(line);
                        history[i].push_back(line);
                    }
                    patch.finish();
                    t.server(patch_message("m_test", version, json::parse(text)));
                    if (version % 25 == 0 || game.over())
                        t.server(snapshot_message(
                            "m_test", version,
                            json::parse(splendor_view_text(game, *next, viewers[i], history[i]))));
                    views[i] = std::move(next);
                }
            }
        }
}

json lobby_sample(bool with_code) {
    json j = {
        {"id", "l_abcdefghijklmnop"},
        {"host", "p_host000000000000"},
        {"settings",
         lobby_settings_json(std::get<LobbySettings>(lobby_settings_from_json(settings_sample())))},
        {"seats",
         json::array({json{{"player", {{"id", "p_host000000000000"}, {"name", "Ann"}}}}, nullptr})},
        {"status", "waiting"}};
    if (with_code) {
        // What members receive: the code and the chat.
        j["code"] = "ABCD2345";
        j["chat"] = json::array({json{{"n", 1},
                                      {"at_ms", 1795000000000},
                                      {"player", "p_host000000000000"},
                                      {"name", "Ann"},
                                      {"text", "hi"}}});
    }
    return j;
}

void add_server_samples(Traffic& t) {
    t.server(welcome_message("p_abcdefghijklmnop", "Ann"));
    t.server(pong_message(std::nullopt));
    t.server(pong_message(json(3)));
    t.server(event_message("playing", {{"matches", json::array({"m_abcdefghijklmnop"})}}));
    t.server(ack_message(json("c1")));
    for (int c = 0; c <= static_cast<int>(last_error_code); ++c)
        t.server(error_message(static_cast<ErrorCode>(c), "what went wrong",
                               c % 2 ? Ref(json(c)) : Ref()));
    t.server(event_message("lobby", {{"lobby", lobby_sample(true)}}));
    t.server(event_message("lobby.chat", {{"lobby", "l_abcdefghijklmnop"},
                                          {"line", lobby_sample(true)["chat"][0]}}));
    t.server(event_message("lobbies", {{"lobbies", json::array({lobby_sample(false)})}}));
    t.server(event_message("lobbies.changed", {{"changed", json::array({lobby_sample(false)})},
                                               {"removed", json::array({"l_bcdefghijklmnopq"})}}));
    t.server(event_message("matches.changed",
                           {{"changed", json::array({json{{"id", "m_abcdefghijklmnop"},
                                                          {"game", "santorini"},
                                                          {"players", {"Ann", "Bob"}},
                                                          {"powers", {"Apollo", nullptr}},
                                                          {"status", "playing"},
                                                          {"spectators", 4}}})},
                            {"removed", json::array({"m_bcdefghijklmnopq"})}}));
    t.server(event_message(
        "lobby.closed",
        {{"lobby", "l_abcdefghijklmnop"}, {"reason", "started"}, {"match", "m_abcdefghijklmnop"}}));
    t.server(
        event_message("lobby.closed", {{"lobby", "l_abcdefghijklmnop"}, {"reason", "kicked"}}));
    const json blitz = {{"kind", "realtime"}, {"base_seconds", 180}, {"increment_seconds", 2}};
    t.server(event_message("queue", {{"state", "waiting"},
                                     {"queue", "santorini_simple"},
                                     {"clock", blitz},
                                     {"since", 1795000000000}}));
    t.server(event_message("queue", {{"state", "matched"},
                                     {"queue", "santorini_simple"},
                                     {"clock", blitz},
                                     {"match", "m_abcdefghijklmnop"}}));
    t.server(event_message("queue", {{"state", "left"}, {"reason", "left"}}));
    t.server(event_message("queue", {{"state", "left"}, {"reason", "unavailable"}}));
    t.server(
        event_message("matches", {{"matches", json::array({json{{"id", "m_abcdefghijklmnop"},
                                                                {"game", "santorini"},
                                                                {"players", {"Ann", "Bob"}},
                                                                {"powers", {"Apollo", nullptr}},
                                                                {"status", "playing"},
                                                                {"spectators", 3}},
                                                           json{{"id", "m_bcdefghijklmnopq"},
                                                                {"game", "splendor"},
                                                                {"players", {"Ann", "Bob", "Cy"}},
                                                                {"points", {3, 0, 11}},
                                                                {"status", "playing"},
                                                                {"spectators", 0}}})}}));
    {
        json lobby = lobby_sample(true);
        lobby["settings"] = lobby_settings_json(
            std::get<LobbySettings>(lobby_settings_from_json(splendor_settings_sample())));
        lobby["seats"].push_back(nullptr);
        t.server(event_message("lobby", {{"lobby", lobby}}));
    }
    add_splendor_samples(t);

    // Snapshots and patches of real games, for a seat in every kind of game and for the
    // spectators of a few (Python's jsonschema takes seconds for a few thousand patches).
    // The builders write every one of them; under the sanitizers (SANTORINI_RANDOM_GAMES_PERCENT)
    // the validator reads that share of them only, since the messages are the same in both trees
    // and the release tree has all of them read (about 15 s of Python in each tree).
    const int every = 100 / protocol_test::random_games(100);
    int written = 0;
    const auto sample = [&](const std::string& text) {
        if (written++ % every == 0) t.server(text);
    };
    std::uint64_t seed = 900;
    int game = 0;
    for (const auto& base : protocol_test::varied_settings()) {
        auto settings = base;
        settings.seed = ++seed;
        auto g = protocol_test::play_random(settings, seed);
        std::vector<int> viewers = {0};
        if (game++ % 4 == 0) viewers.push_back(santorini::spectator);
        for (int viewer : viewers) {
            std::vector<std::string> history;
            json view = protocol_test::match_view(g.states[0], viewer, history);
            t.server(snapshot_message("m_test", 1, view));
            for (std::size_t i = 0; i + 1 < g.states.size(); ++i) {
                history.push_back(santorini::to_text(g.steps[i]));
                json next = protocol_test::match_view(g.states[i + 1], viewer, history);
                sample(patch_message("m_test", i + 2, diff(view, next)));
                // Every view along the way must be valid, not only the first one.
                if (i % 20 == 0 || i + 2 == g.states.size())
                    sample(snapshot_message("m_test", i + 2, next));
                view = std::move(next);
            }
        }
    }
    // A match the abandonment rule ended (docs/protocol.md, "Abandonment"): reason `abandoned`.
    {
        auto settings = protocol_test::varied_settings().front();
        settings.seed = ++seed;
        auto g = protocol_test::play_random(settings, seed);
        std::vector<std::string> history;
        json view = protocol_test::match_view(g.states.back(), 0, history);
        view["status"] = "finished";
        view["result"] = {{"winners", {1}}, {"reason", "abandoned"}};
        t.server(snapshot_message("m_test", 2, view));
    }
    // A game confirming its turns: the decider's views in phase `confirm`, `end_turn` listed.
    {
        santorini::Settings settings;
        settings.confirm_turns = true;
        settings.seed = ++seed;
        auto g = protocol_test::play_random(settings, seed);
        std::vector<std::string> history;
        int confirming = 0;
        for (std::size_t i = 0; i < g.states.size(); ++i) {
            if (i > 0) history.push_back(santorini::to_text(g.steps[i - 1]));
            if (g.states[i].phase != santorini::Phase::Confirm) continue;
            ++confirming;
            t.server(snapshot_message("m_test", i + 1,
                                      protocol_test::match_view(g.states[i], santorini::decider(g.states[i]), history)));
        }
        CHECK(confirming > 3);
    }
    // Every implemented power, 2-4 players: views of the seat that decides (so `legal` holds
    // the power's own steps) and of spectators, sampled along each game.
    for (const auto& base : protocol_test::every_power_settings()) {
        auto settings = base;
        settings.seed = ++seed;
        auto g = protocol_test::play_random(settings, seed);
        std::vector<std::string> history;
        for (std::size_t i = 0; i < g.states.size(); ++i) {
            if (i > 0) history.push_back(santorini::to_text(g.steps[i - 1]));
            if (i % 8 != 0 && i + 1 != g.states.size()) continue;
            const int decider = santorini::decider(g.states[i]);
            sample(snapshot_message(
                "m_test", i + 1,
                protocol_test::match_view(g.states[i],
                                          decider >= 0 ? decider : santorini::spectator, history)));
        }
    }
}

}  // namespace

TEST_CASE("python3 with jsonschema is available for the schema tests", "[schema]") {
    INFO("install python3 and python3-jsonschema (scripts/setup)");
    REQUIRE(std::system("python3 -c 'import jsonschema' > /dev/null 2>&1") == 0);
}

TEST_CASE("sample messages of every type validate against protocol/schema", "[schema]") {
    Traffic t;
    add_client_samples(t);
    add_server_samples(t);
    // Every type of both closed sets is covered.
    std::set<std::string> client_types, server_types;
    for (const auto& line : t.lines)
        (line["direction"] == "client" ? client_types : server_types)
            .insert(line["message"]["type"].get<std::string>());
    CHECK(client_types.size() == 22);
    CHECK(server_types == std::set<std::string>{"welcome", "pong", "error", "ack", "lobby",
                                                "lobbies", "lobbies.changed", "lobby.closed",
                                                "lobby.chat", "matches", "matches.changed", "match.snapshot",
                                                "match.patch", "queue", "playing"});
    std::string report;
    const int status = validate(t, report);
    INFO(report);
    CHECK(status == 0);
    CHECK(report.find(" 0 failures") != std::string::npos);
}

TEST_CASE("the schemas refuse what the parser (or, for a step, every game) refuses", "[schema]") {
    // Each of these must fail validation on its own.
    std::vector<std::pair<std::string, json>> bad = {
        {"client", {{"type", "hello"}, {"protocol", 2}, {"token", "t"}}},
        {"client", {{"type", "hello"}, {"protocol", 1}, {"token", "t"}, {"ack_in_patch", 1}}},
        {"client", {{"type", "ping"}, {"extra", true}}},
        {"client", {{"type", "ping"}, {"ref", std::string(65, 'r')}}},
        {"client", {{"type", "lobby.join"}, {"lobby", "l_a"}, {"code", "X"}}},
        {"client",
         {{"type", "lobby.create"}, {"settings", {{"game", "santorini"}, {"players", 3}}}}},
        {"client",
         {{"type", "lobby.create"},
          {"settings", {{"game", "santorini"}, {"players", 2}, {"powers", "custom"}}}}},
        {"client",
         {{"type", "lobby.create"},
          {"settings",
           {{"game", "santorini"},
            {"players", 2},
            {"clock", {{"kind", "turn"}, {"hours_per_move", 500}}}}}}},
        {"client", {{"type", "match.open"}, {"match", "m_a"}, {"since", -1}}},
        {"client", {{"type", "match.step"}, {"match", "m_a"}, {"step", {{"kind", "teleport"}}}}},
        {"client",
         {{"type", "match.step"}, {"match", "m_a"}, {"step", {{"kind", "move"}, {"from", "B2"}}}}},
        {"client", {{"type", "welcome"}}},
        {"client",
         {{"type", "queue.join"},
          {"queue", "santorini"},
          {"clock", {{"kind", "turn"}, {"hours_per_move", 24}}}}},
        {"client", {{"type", "queue.join"}, {"queue", "santorini"}}},
        {"client",
         {{"type", "queue.join"},
          {"queue", "santorini"},
          {"clock", {{"kind", "realtime"}, {"base_seconds", 180}}}}},
        {"client", {{"type", "queue.leave"}, {"queue", "santorini"}}},
        {"server", {{"type", "error"}, {"code", "oops"}, {"message", "x"}}},
        {"server", {{"type", "ack"}}},
        {"server",
         {{"type", "match.patch"}, {"match", "m_a"}, {"version", 0}, {"patch", json::array()}}},
        {"server", {{"type", "hello"}}},
        {"server", {{"type", "queue"}, {"state", "waiting"}, {"queue", "santorini"}}},
        {"server",
         {{"type", "queue"}, {"state", "matched"}, {"queue", "santorini"}, {"match", "m_a"}}},
        {"server", {{"type", "queue"}, {"state", "left"}, {"reason", "bored"}}},
    };
    // Views: a card field the schema does not know (Chaos' deck is face down: a `deck` list
    // would leak it), a card without its holder, and a turn without its seat.
    auto chaos = santorini::parse_notation(
        "00000/00000/00000/00000/00000 A:A1,E5 B:C5,E1 A powers=Chaos,Pan chaos=Artemis "
        "deck=Atlas,Demeter discards=Hephaestus");
    REQUIRE(chaos.ok());
    const json view = json::parse(
        snapshot_message("m_test", 1, protocol_test::match_view(*chaos, santorini::spectator, {})));
    json leaked = view, no_holder = view, no_seat = view;
    leaked["view"]["state"]["cards"][0]["deck"] = {"Atlas", "Demeter"};
    no_holder["view"]["state"]["cards"][1].erase("holder");
    no_seat["view"]["state"]["this_turn"].erase("seat");
    bad.push_back({"server", leaked});
    bad.push_back({"server", no_holder});
    bad.push_back({"server", no_seat});
    // Splendor: steps no position allows, Santorini's settings, and views with a deck's order
    // (never shown), a hand without `out`, a Santorini member on a seat, a card cut short.
    for (const char* step :
         {R"({"kind":"take","gems":["red","red","red"]})", R"({"kind":"take","gems":["gold"]})",
          R"({"kind":"reserve","card":12,"level":1})", R"({"kind":"reserve"})",
          R"({"kind":"buy","card":12})",
          R"({"kind":"buy","card":12,"pay":{"white":0,"blue":2,"green":0,"red":0,"black":0}})",
          R"({"kind":"return","gem":"purple"})", R"({"kind":"noble","noble":10})"})
        bad.push_back(
            {"client", {{"type", "match.step"}, {"match", "m_a"}, {"step", json::parse(step)}}});
    bad.push_back({"client",
                   {{"type", "lobby.create"},
                    {"settings", {{"game", "splendor"}, {"players", 2}, {"powers", "none"}}}}});
    bad.push_back(
        {"client",
         {{"type", "lobby.create"}, {"settings", {{"game", "splendor"}, {"players", 5}}}}});
    protocol::SplendorGame splendor(splendor_test::new_state(2, 0, 5));
    REQUIRE(splendor.play(protocol::step_json(splendor.legal()[0])).index() == 0);
    auto seen = splendor.view(0);  // a view is written while it is the game's own (asserted)
    const json good = json::parse(
        snapshot_message("m_test", 1, json::parse(splendor_view_text(splendor, *seen, 0, {}))));
    json deck_order = good, no_out = good, power = good, short_card = good, draft = good;
    deck_order["view"]["state"]["deck_order"] = {{1, 2, 3}, {}, {}};
    no_out["view"]["state"]["hands"][1].erase("out");
    power["view"]["seats"][0]["power"] = "Apollo";
    short_card["view"]["state"]["rows"][0][0].erase("cost");
    draft["view"]["status"] = "draft";
    for (const json& v : {deck_order, no_out, power, short_card, draft})
        bad.push_back({"server", v});
    Traffic t;
    for (const auto& [direction, message] : bad) {
        t.lines.push_back({{"direction", direction}, {"message", message}});
        INFO(message.dump());
        if (direction != "client") continue;
        if (message["type"] == "match.step") {
            // The parser passes a step on untouched; neither game can read these (a match of
            // either would refuse them as malformed: Game::play).
            for (const char* game : {"santorini", "splendor"})
                CHECK(std::holds_alternative<std::string>(
                    protocol::canonical_step_of(game, message["step"])));
        } else {
            CHECK(std::holds_alternative<ProtocolError>(parse_client_message(message.dump())));
        }
    }
    std::string report;
    const int status = validate(t, report, "--expect-invalid");
    INFO(report);
    CHECK(status == 0);
    CHECK(report.find(std::to_string(bad.size()) + " messages checked, 0 failures") !=
          std::string::npos);
}
