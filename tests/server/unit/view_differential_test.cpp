// The differential test of the typed views: random games through a real Match, over every
// pairing of the implemented powers with 2 players, and with 3 and 4 players, the Golden
// Fleece and no powers. At every version, every viewer (each seat and a spectator) holds,
// after applying the patches it received, exactly the view the old whole-view builder makes
// (tests/server/support/view_oracle.hpp); and a viewer resuming from any earlier version catches up
// to it too.

#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <map>
#include <random>

#include "engine/santorini/game.hpp"
#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/undo.hpp"
#include "server/match/match.hpp"
#include "tests/server/support/hub_harness.hpp"
#include "tests/server/support/view_oracle.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace view_differential_test {

using namespace server;
using nlohmann::json;

namespace {

/// A client: keeps the view that its snapshots and patches add up to.
class Client final : public Participant {
  public:
    Client(std::string player, std::uint64_t id) : player_(std::move(player)), id_(id) {}
    void deliver(std::shared_ptr<const std::string> message) override {
        const json m = json::parse(*message);
        const std::string type = m.value("type", "");
        if (type == "match.snapshot") {
            view = m["view"];
            version = m["version"].get<std::uint64_t>();
        } else if (type == "match.patch") {
            const auto v = m["version"].get<std::uint64_t>();
            if (v != version + 1) {
                ++errors;
                return;
            }
            view = view.patch(m["patch"]);
            version = v;
        } else if (type == "error") {
            ++errors;
            last_error = m.dump();
        }
    }
    std::uint64_t connection_id() const override { return id_; }
    const std::string& player_id() const override { return player_; }

    json view;
    std::uint64_t version = 0;
    int errors = 0;
    std::string last_error;

  private:
    std::string player_;
    std::uint64_t id_;
};

int games_percent() {
    const char* p = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    return p ? std::max(1, std::atoi(p)) : 100;
}

struct Saved {
    int viewer;
    std::uint64_t version;
    json view;
};

// Plays one random game with `settings` through a Match and checks every view at every version.
void play_and_compare(const json& settings_doc, std::uint64_t seed) {
    INFO("settings " << settings_doc.dump() << " seed " << seed);
    auto read = protocol::lobby_settings_from_json(settings_doc);
    REQUIRE(std::holds_alternative<protocol::LobbySettings>(read));
    const auto settings = std::get<protocol::LobbySettings>(read);
    const int players = settings.players;
    const int challenger = static_cast<int>(seed % static_cast<std::uint64_t>(players));

    boost::asio::io_context io;
    MemoryStepStore store;
    Metrics metrics;
    MatchOptions options;
    options.id = "m_differential";
    options.spectators_interval = std::chrono::milliseconds(0);  // counts at once: the oracle counts every viewer
    options.settings = settings;
    options.seed = seed;
    options.challenger = challenger;
    test::OracleMatch oracle;
    oracle.id = options.id;
    for (int s = 0; s < players; ++s) {
        const std::string id = "p_" + std::to_string(s), name = "Player " + std::to_string(s);
        options.seats.push_back(Member{id, name});
        oracle.players.emplace_back(id, name);
    }
    auto created = Match::create(io, options, store, metrics, [](auto&&...) {});
    REQUIRE(std::holds_alternative<std::shared_ptr<Match>>(created));
    auto match = std::get<std::shared_ptr<Match>>(created);

    // The engine's own game beside the match: the oracle's state.
    auto engine = protocol::engine_settings(settings, seed, challenger);
    REQUIRE(std::holds_alternative<santorini::Settings>(engine));
    auto game = santorini::new_game(std::get<santorini::Settings>(engine));
    REQUIRE(game.ok());
    santorini::State state = *game;

    std::vector<std::shared_ptr<Client>> viewers;  // seats, then the spectator
    std::uint64_t next_id = 1;
    for (int s = 0; s < players; ++s)
        viewers.push_back(
            std::make_shared<Client>(options.seats[static_cast<std::size_t>(s)].id, next_id++));
    viewers.push_back(std::make_shared<Client>("p_watcher", next_id++));
    auto settle = [&] {
        io.restart();
        io.poll();
    };
    for (auto& v : viewers) {
        match->open(v, std::nullopt, {});
        settle();
    }
    oracle.connected.assign(static_cast<std::size_t>(players), true);
    oracle.spectators = 1;
    oracle.history.assign(static_cast<std::size_t>(players) + 1, {});
    auto viewer_of = [&](std::size_t i) {
        return i + 1 == viewers.size() ? santorini::spectator : static_cast<int>(i);
    };

    std::mt19937_64 rng(seed);
    std::vector<Saved> saved;
    auto check_all = [&](const char* when) {
        INFO(when);
        const std::uint64_t version = viewers.front()->version;
        for (std::size_t i = 0; i < viewers.size(); ++i) {
            const auto& v = *viewers[i];
            INFO("viewer " << viewer_of(i) << " " << v.last_error);
            REQUIRE(v.errors == 0);
            REQUIRE(v.version == version);
            const json expected = test::oracle_view(oracle, state, viewer_of(i));
            if (v.view != expected) {
                INFO("patched " << v.view.dump());
                INFO("oracle  " << expected.dump());
                INFO("diff    " << json::diff(v.view, expected).dump());
                REQUIRE(v.view == expected);
            }
        }
        if (rng() % 7 == 0) {
            const std::size_t i = rng() % viewers.size();
            saved.push_back(Saved{viewer_of(i), viewers[i]->version, viewers[i]->view});
        }
    };
    // Resuming from a saved version ends on the current view (patches or a snapshot).
    auto check_resumes = [&] {
        for (const auto& s : saved) {
            const std::string player =
                s.viewer >= 0 ? options.seats[static_cast<std::size_t>(s.viewer)].id : "p_watcher";
            auto tab = std::make_shared<Client>(player, next_id++);
            tab->view = s.view;
            tab->version = s.version;
            match->open(tab, s.version, {});
            settle();
            INFO("resume of viewer " << s.viewer << " from version " << s.version);
            REQUIRE(tab->errors == 0);
            REQUIRE(tab->version == viewers.front()->version);
            REQUIRE(tab->view == test::oracle_view(oracle, state, s.viewer));
            match->close(tab, {});
            settle();
        }
        saved.clear();
    };
    auto settle_result = [&](const santorini::State& before, std::string reason) {
        for (int s = 0; s < players; ++s)
            if (state.seat(s).out && !before.seat(s).out && reason == "win") reason = "no_turn";
        if (state.over()) {
            json winners = json::array();
            for (int s = 0; s < players; ++s)
                if (state.winners >> s & 1u) winners.push_back(s);
            oracle.result = {{"winners", winners}, {"reason", reason}};
        }
    };

    // The states the decider may go back to (protocol/turn_undo.hpp, kept here independently).
    std::vector<santorini::State> back;
    check_all("opened");
    for (int steps = 0; steps < 3000 && !state.over(); ++steps) {
        const int decider = santorini::decider(state);
        REQUIRE(decider >= 0);
        // Now and then a seat resigns in play (3 players: it is eliminated and play goes on).
        if (santorini::in_play(state) && rng() % 97 == 0) {
            const int seat = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
            if (!state.seat(seat).out) {
                const santorini::State before = state;
                REQUIRE(!santorini::concede(state, seat));
                back.clear();
                oracle.undo = false;
                match->resign(viewers[static_cast<std::size_t>(seat)], {});
                settle();
                settle_result(before, "resign");
                check_all("after a resignation");
                continue;
            }
        }
        // Now and then the decider takes back its last step: everyone reads "undo".
        if (!back.empty() && rng() % 5 == 0) {
            match->step(viewers[static_cast<std::size_t>(decider)], json{{"kind", "undo"}}, {});
            settle();
            for (auto& lines : oracle.history) lines.push_back("undo");
            state = back.back();
            back.pop_back();
            oracle.undo = !back.empty();
            check_all("after an undo");
            continue;
        }
        santorini::StepList legal;
        santorini::legal_steps(state, legal);
        REQUIRE(!legal.empty());
        const santorini::Step step =
            legal[static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()))];
        match->step(viewers[static_cast<std::size_t>(decider)], protocol::step_json(state, step),
                    {});
        settle();
        for (std::size_t i = 0; i < viewers.size(); ++i)
            oracle.history[i].push_back(
                santorini::step_text_for(state, step, decider, viewer_of(i)));
        const santorini::State before = state;
        santorini::apply_step(state, step);
        if (decider == before.turn.seat && !santorini::closes_undo(before, step, state)) {
            back.push_back(before);
            if (back.size() > 16) back.erase(back.begin());
        } else {
            back.clear();
        }
        oracle.undo = !back.empty();
        settle_result(before, "win");
        check_all("after a step");
        if (rng() % 23 == 0) check_resumes();
    }
    REQUIRE(state.over());
    check_resumes();
}

std::vector<santorini::PowerId> playable_powers(int players) {
    return santorini::eligible_powers(players, false);
}

// Every pairing of two powers, in four parts (pairings 0, 4, 8, ... in the first; 1, 5, 9, ...
// in the second; and so on): the same games with the same seeds as one test, but four tests of
// a quarter of the time each, which ctest runs side by side with the others instead of as one
// long tail at the end of a run.
void every_pairing(int part) {
    constexpr int parts = 4;
    const auto powers = playable_powers(2);
    REQUIRE(powers.size() >= 30);
    const int percent = games_percent();
    int played = 0, pair = 0;
    for (std::size_t a = 0; a < powers.size(); ++a)
        for (std::size_t b = a + 1; b < powers.size(); ++b, ++pair) {
            if (pair % parts != part || pair % 100 >= percent) continue;
            json settings = test::settings_json(2, "custom");
            settings["pool"] = {std::string(santorini::power_info(powers[a]).key),
                                std::string(santorini::power_info(powers[b]).key)};
            // Pairs the rulebook bans cannot make a game; they are refused before any match.
            auto read = protocol::lobby_settings_from_json(settings);
            if (!std::holds_alternative<protocol::LobbySettings>(read)) continue;
            auto engine = protocol::engine_settings(std::get<protocol::LobbySettings>(read), 1, 0);
            if (!std::holds_alternative<santorini::Settings>(engine)) continue;
            play_and_compare(settings, 1000 + static_cast<std::uint64_t>(pair));
            ++played;
        }
    CHECK(played > 0);
}

}  // namespace

TEST_CASE("Patched views equal the whole-view oracle: every pairing of two powers, part 1 of 4",
          "[match][views][differential]") {
    every_pairing(0);
}

TEST_CASE("Patched views equal the whole-view oracle: every pairing of two powers, part 2 of 4",
          "[match][views][differential]") {
    every_pairing(1);
}

TEST_CASE("Patched views equal the whole-view oracle: every pairing of two powers, part 3 of 4",
          "[match][views][differential]") {
    every_pairing(2);
}

TEST_CASE("Patched views equal the whole-view oracle: every pairing of two powers, part 4 of 4",
          "[match][views][differential]") {
    every_pairing(3);
}

TEST_CASE(
    "Patched views equal the whole-view oracle: no powers, 3 and 4 players, drafts and "
    "the Golden Fleece",
    "[match][views][differential]") {
    const int games = std::max(2, 24 * games_percent() / 100);
    for (int g = 0; g < games; ++g) {
        const auto seed = 77 + static_cast<std::uint64_t>(g);
        play_and_compare(test::settings_json(2, "none"), seed);
        play_and_compare(test::settings_json(3, "all"), seed);
        play_and_compare(test::settings_json(4, "all"), seed);
        play_and_compare(test::settings_json(2, "simple", g % 2 ? "full" : "subset"), seed);
        json fleece = test::settings_json(2, "all");
        fleece["golden_fleece"] = true;
        play_and_compare(fleece, seed);
    }
}

}  // namespace view_differential_test
