// End to end over real sockets with Hecate's hidden workers: a 2-player and a 3-player match
// with a custom pool (random draft), played to the end by random legal steps, with a
// spectator. After every step, every viewer outside Hecate's side (opponents, spectator)
// shows none of her workers on the board (snapshots and patches as the client applies them),
// her own seat shows them, and every history line of her steps that those viewers read names
// no space she stands on. Traffic is validated against the schemas. (docs/rulings.md H7-H11;
// the same over the protocol object, with Moerae and Tartarus too:
// tests/protocol/hidden_leak_test.cpp.)

#include <random>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "tests/server/support/e2e_support.hpp"

using e2e::json;
using namespace std::chrono_literals;

namespace {

// The side of the seat playing Hecate, from a view's seats (-1 before the draft).
int hecate_side(const json& view) {
    const json& seats = view["seats"];
    for (const auto& seat : seats)
        if (seat.contains("power") && seat["power"] == "Hecate") return seat["side"].get<int>();
    return -1;
}

void play_hidden_match(int players, const std::vector<std::string>& pool, std::uint64_t seed) {
    test::RunningServer running(e2e::config());
    const std::uint16_t port = running.port();
    e2e::Traffic traffic;
    const char* names[] = {"Alice", "Bob", "Dora"};
    std::vector<std::unique_ptr<e2e::Player>> seated;
    for (int i = 0; i < players; ++i) {
        const e2e::Guest g = e2e::http_guest(port, names[i]);
        seated.push_back(std::make_unique<e2e::Player>(port, traffic, names[i]));
        seated.back()->hello(g.token);
    }
    const e2e::Guest carol = e2e::http_guest(port, "Carol");
    e2e::Player s(port, traffic, "spectator");
    s.hello(carol.token);

    const json settings = {{"game", "santorini"}, {"players", players}, {"powers", "custom"}, {"pool", pool},
                           {"draft", "random"}, {"clock", {{"kind", "none"}}}};
    std::vector<e2e::Player*> guests;
    for (int i = 1; i < players; ++i) guests.push_back(seated[static_cast<std::size_t>(i)].get());
    const e2e::Started started = e2e::start_private_match(*seated[0], guests, settings);
    const std::string& match = started.match;
    e2e::open_match(s, match);
    std::vector<e2e::Player*> everyone;
    for (auto& p : seated) {
        e2e::open_match(*p, match);
        everyone.push_back(p.get());
    }
    everyone.push_back(&s);
    e2e::sync(everyone, match);
    std::vector<e2e::Player*> by_seat(static_cast<std::size_t>(players), nullptr);
    for (auto& p : seated) by_seat[p->match(match).view["you"].get<std::size_t>()] = p.get();

    std::mt19937_64 rng(seed);
    int steps = 0, hidden_checks = 0;
    while (seated[0]->match(match).view["status"] != "finished") {
        REQUIRE(steps < 1500);
        const int mover = e2e::decider(seated[0]->match(match).view);
        const json step = e2e::play_chosen(by_seat, everyone, match, ++steps, [&](const json& view) {
            const json& legal = view["state"]["legal"];
            return legal[static_cast<std::size_t>(rng() % legal.size())];
        });
        const int side = hecate_side(s.match(match).view);
        if (side < 0) continue;
        for (e2e::Player* p : everyone) {
            const json& view = p->match(match).view;
            const bool own = view["you"].is_number_integer() &&
                             view["seats"][view["you"].get<std::size_t>()]["side"] == side;
            const json& workers = view["state"]["workers"];
            for (const auto& w : workers) {
                if (w["side"] != side) continue;
                ++hidden_checks;
                INFO(p->label() << " after step " << steps << ": " << w.dump());
                if (!own) CHECK(w["square"].is_null());
            }
            // The history line of a step by Hecate's side names none of her spaces.
            if (own || mover < 0 || view["seats"][static_cast<std::size_t>(mover)]["side"] != side) continue;
            if (view["status"] == "finished") continue;
            const json& mine = by_seat[static_cast<std::size_t>(mover)]->match(match).view["state"]["workers"];
            const std::string line = view["history"].back().dump();
            for (const auto& w : mine)
                if (w["side"] == side && w["square"].is_string() && step.value("to", "") != w["square"]) {
                    INFO(p->label() << " reads '" << line << "' for " << step.dump());
                    CHECK(line.find(w["square"].get<std::string>()) == std::string::npos);
                }
        }
    }
    INFO("steps " << steps << ", hidden checks " << hidden_checks);
    CHECK(hidden_checks > 0);
    e2e::check_traffic(traffic);
}

}  // namespace

TEST_CASE("Hecate's workers stay hidden over real sockets: 2 players and a spectator", "[e2e][hidden]") {
    play_hidden_match(2, {"Hecate", "Pan"}, 7);
}

TEST_CASE("Hecate's workers stay hidden over real sockets: 3 players and a spectator", "[e2e][hidden]") {
    play_hidden_match(3, {"Hecate", "Pan", "Apollo"}, 8);
}
