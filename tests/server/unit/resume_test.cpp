// Resuming a match with `since` (docs/protocol.md, "Resuming"): a viewer's resume history
// keeps each version's patch without the seat's legal steps (server/match/match.hpp, `Kept`),
// so the catch-up must bring the legal steps up to date at its end. Here every version a
// viewer saw is resumed from, at every point of whole games, and what the patches rebuild must
// be the live view exactly: legal steps that came, went or changed on the way included.

#include <catch2/catch_test_macros.hpp>
#include <map>
#include <random>

#include "tests/server/support/hub_harness.hpp"

// A namespace of its own: server_tests is a unity build.
namespace resume_test {

using namespace server;
using namespace server::test;

namespace {

/// Plays `match` step by step, and after each step resumes every viewer from every version it
/// saw: the patches (never a snapshot: the history holds them all) rebuild its live view.
/// Returns the number of resumes checked.
int resume_from_everywhere(Harness& h, const std::vector<Player>& players,
                           const std::vector<Player>& viewers, const std::string& match,
                           std::uint32_t seed, int steps) {
    std::mt19937 rng(seed);
    std::vector<std::map<std::uint64_t, json>> seen(viewers.size());
    auto note = [&] {
        for (std::size_t i = 0; i < viewers.size(); ++i) {
            const auto tracked = viewers[i].conn->view(match);
            REQUIRE(tracked.errors == 0);
            seen[i][tracked.version] = tracked.view;
        }
    };
    note();
    int checked = 0, legal_changed = 0;
    for (int step = 0; step < steps; ++step) {
        if (play_out(h, players, match, rng, 1) == 0) break;
        note();
        for (std::size_t i = 0; i < viewers.size(); ++i) {
            const auto live = viewers[i].conn->view(match);
            for (const auto& [since, view] : seen[i]) {
                if (since == live.version) continue;
                auto tab = h.tab(viewers[i]);
                h.send(tab, {{"type", "match.open"}, {"match", match}, {"since", since}});
                INFO("viewer " << i << " since " << since << " now " << live.version);
                REQUIRE(tab->of_type("match.snapshot").empty());
                json rebuilt = view;
                std::uint64_t version = since;
                for (const json& patch : tab->of_type("match.patch")) {
                    CHECK(patch["version"] == ++version);
                    rebuilt = rebuilt.patch(patch["patch"]);
                }
                CHECK(version == live.version);
                CHECK(rebuilt == live.view);
                if (view["state"].value("legal", json()) != live.view["state"].value("legal", json()))
                    ++legal_changed;
                ++checked;
                h.drop(tab);
            }
        }
    }
    CHECK(legal_changed > 0);  // resumes that had to bring the legal steps up to date
    return checked;
}

Config whole_history() {
    Config config;
    config.history_per_match = 10'000;
    config.history_bytes_per_viewer = 1 << 24;
    return config;
}

/// Ann and Bob play a match of `settings` that Wes watches, with the whole history kept.
struct Table {
    explicit Table(const json& settings)
        : ann(h.guest("Ann")), bob(h.guest("Bob")), wes(h.guest("Wes")),
          match(h.start_match({ann, bob}, settings)) {
        h.send(wes.conn, {{"type", "match.open"}, {"match", match}});
    }
    std::vector<Player> players() const { return {ann, bob}; }
    std::vector<Player> viewers() const { return {ann, bob, wes}; }

    Harness h{whole_history()};
    Player ann, bob, wes;
    std::string match;
};

}  // namespace

TEST_CASE("Resuming from any version rebuilds the live view, legal steps included (Santorini)",
          "[match][resume]") {
    for (const char* powers : {"none", "all"}) {
        Table t(settings_json(2, powers));
        INFO(powers);
        CHECK(resume_from_everywhere(t.h, t.players(), t.viewers(), t.match, 5, 24) > 200);
    }
}

TEST_CASE("Resuming from any version rebuilds the live view, legal steps included (Splendor)",
          "[match][resume]") {
    Table t(json{{"game", "splendor"}, {"players", 2}});
    CHECK(resume_from_everywhere(t.h, t.players(), t.viewers(), t.match, 9, 20) > 200);
}

TEST_CASE("A seat's resume history shares the spectators' texts where it sees what they see",
          "[match][resume]") {
    // Without hidden information, the patches a seat is resumed with are the spectators' own,
    // though the seat's live patches carried its legal steps.
    Table t(settings_json(2, "none"));
    auto& h = t.h;
    const auto& match = t.match;
    const auto& wes = t.wes;
    const auto since = wes.conn->view(match).version;
    std::mt19937 rng(2);
    REQUIRE(play_out(h, t.players(), match, rng, 6) == 6);
    std::vector<json> watched;
    for (const json& m : wes.conn->of_type("match.patch"))
        if (m["version"] > since) watched.push_back(m);
    auto tab = h.tab(t.ann);
    h.send(tab, {{"type", "match.open"}, {"match", match}, {"since", since}});
    const auto resumed = tab->of_type("match.patch");
    REQUIRE(resumed.size() == watched.size());
    for (std::size_t i = 0; i + 1 < resumed.size(); ++i) CHECK(resumed[i] == watched[i]);
}

}  // namespace resume_test
