// The pure replay of stored matches (server/match/replay.hpp): every position of a played game comes
// back from its settings, seed and records, events included, and bad records are refused.

#include <catch2/catch_test_macros.hpp>

#include "engine/santorini/game.hpp"
#include "engine/santorini/state_hash.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/santorini/game.hpp"
#include "server/match/replay.hpp"
#include "tests/server/support/stored_game.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace replay_test {

using server::ReplayPosition;
using server::StoredSettings;

namespace {

StoredSettings settings_of(const stored_game::Played& played) {
    return StoredSettings{played.lobby, played.challenger};
}

ReplayPosition replayed(const stored_game::Played& played, const std::vector<std::string>& records,
                        std::size_t upto) {
    auto result = server::replay(settings_of(played), played.seed, records, upto);
    if (auto* why = std::get_if<std::string>(&result)) FAIL("replay failed: " << *why);
    return std::get<ReplayPosition>(std::move(result));
}

// The engine's state behind a replayed game (the tests may look; server/ may not).
const santorini::State& state_of(const ReplayPosition& at) {
    return dynamic_cast<const protocol::SantoriniGame&>(*at.game).state();
}

}  // namespace

TEST_CASE("a replay to step N gives the state after step N, for every N", "[replay]") {
    protocol::LobbySettings lobby;
    lobby.powers = "simple";
    lobby.draft = "full";
    const auto played = stored_game::play(lobby, 0x5eed, 1);
    REQUIRE(played.states.back().over());
    for (std::size_t n = 0; n < played.states.size(); ++n) {
        const ReplayPosition at = replayed(played, played.records, n);
        INFO("after " << n);
        CHECK(at.records == n);
        CHECK(santorini::state_hash(state_of(at)) == santorini::state_hash(played.states[n]));
        CHECK(at.by_spectators.size() == n);
        CHECK(at.seats.size() == n);
        CHECK(at.revealed_history.size() == n);
        CHECK(at.spectator_history.size() == n);
        CHECK_FALSE(at.aborted);
        CHECK(at.game->state_hash() == santorini::state_hash(played.states[n]));
    }
    // The seat of each record is the decider before it.
    const ReplayPosition all = replayed(played, played.records, played.records.size());
    for (std::size_t i = 0; i < played.records.size(); ++i)
        CHECK(all.seats[i] == santorini::decider(played.states[i]));
    // History lines are the engine's step texts: the spectators' and the player's own.
    for (std::size_t i = 0; i < played.records.size(); ++i) {
        auto state = played.states[i];
        santorini::StepList legal;
        santorini::legal_steps(state, legal);
        const santorini::Step step = legal[0];  // stored_game::play always plays the first
        CHECK(all.spectator_history[i] ==
              santorini::step_text_for(state, step, all.seats[i], santorini::spectator));
        CHECK(all.revealed_history[i] == santorini::step_text_for(state, step, all.seats[i], all.seats[i]));
        // What spectators may read of the record is the engine's reading, and a step read
        // whole has the same line for spectators as for its player.
        const auto reading = santorini::reading_for(state, step, all.seats[i], santorini::spectator);
        CHECK(static_cast<int>(all.by_spectators[i]) == static_cast<int>(reading));
        if (all.by_spectators[i] == protocol::Readable::Whole)
            CHECK(all.spectator_history[i] == all.revealed_history[i]);
    }
}

TEST_CASE("the stored settings row is read back, and nonsense is refused", "[replay]") {
    protocol::LobbySettings lobby;
    lobby.powers = "simple";
    lobby.draft = "subset";
    const auto played = stored_game::play(lobby, 7, 1, 0);
    auto read = server::read_stored_settings(stored_game::settings_json(played));
    REQUIRE(std::holds_alternative<StoredSettings>(read));
    CHECK(std::get<StoredSettings>(read).challenger == 1);
    CHECK(std::get<StoredSettings>(read).lobby.powers == "simple");
    CHECK(std::get<StoredSettings>(read).lobby.draft == "subset");
    for (const char* bad : {"", "[]", "{}", R"({"lobby":{}})", R"({"lobby":{"players":9},"challenger":0})",
                            R"({"lobby":{"players":2},"challenger":"x"})"})
        CHECK(std::holds_alternative<std::string>(server::read_stored_settings(bad)));
}

TEST_CASE("resignations, timeouts and aborts replay as the match applied them", "[replay]") {
    const protocol::LobbySettings lobby;  // no powers: placement, then play
    const auto played = stored_game::play(lobby, 11, 0, 6);
    REQUIRE(santorini::in_play(played.states.back()));

    SECTION("a resignation in play ends the game") {
        auto records = played.records;
        records.push_back(R"({"kind":"resign","seat":0})");
        const ReplayPosition at = replayed(played, records, records.size());
        CHECK(at.game->over());
        CHECK(state_of(at).over());
        CHECK_FALSE(at.aborted);
        CHECK(at.seats.back() == 0);
        CHECK(at.revealed_history.size() == played.records.size());  // events are not steps
    }
    SECTION("a timeout before play aborts") {
        std::vector<std::string> records = {played.records[0], R"({"kind":"timeout","seat":1})"};
        const ReplayPosition at = replayed(played, records, 2);
        CHECK(at.aborted);
    }
    SECTION("an abort aborts, and nothing may follow it") {
        std::vector<std::string> records = {R"({"kind":"abort","seat":1})", played.records[0]};
        CHECK(replayed(played, records, 1).aborted);
        CHECK(std::holds_alternative<std::string>(server::replay(settings_of(played), played.seed, records, 2)));
    }
}

TEST_CASE("records the engine does not accept are refused with the step's number", "[replay]") {
    const protocol::LobbySettings lobby;
    const auto played = stored_game::play(lobby, 3, 0, 4);
    for (const char* bad : {"not json", "[1]", R"({"kind":"fly"})", R"({"kind":"resign"})",
                            R"({"kind":"resign","seat":5})", R"({"kind":"move","from":"A1","to":"E5"})"}) {
        auto records = played.records;
        records[2] = bad;
        auto result = server::replay(settings_of(played), played.seed, records, records.size());
        REQUIRE(std::holds_alternative<std::string>(result));
        CHECK(std::get<std::string>(result).starts_with("step 3: "));
        // The steps before the bad one still replay.
        CHECK(std::holds_alternative<ReplayPosition>(server::replay(settings_of(played), played.seed, records, 2)));
    }
    CHECK(std::holds_alternative<std::string>(
        server::replay(settings_of(played), played.seed, played.records, played.records.size() + 1)));
    // A record played again in the wrong position is not legal there.
    const std::vector<std::string> twice = {played.records[0], played.records[0]};
    auto again = server::replay(settings_of(played), played.seed, twice, 2);
    REQUIRE(std::holds_alternative<std::string>(again));
    CHECK(std::get<std::string>(again).starts_with("step 2: "));
    CHECK(std::holds_alternative<ReplayPosition>(server::replay(settings_of(played), played.seed, twice, 1)));
}

TEST_CASE("the revealed viewer: the engine's revealed view, never deciding", "[replay]") {
    protocol::LobbySettings lobby;
    lobby.powers = "simple";
    lobby.draft = "full";
    const auto played = stored_game::play(lobby, 0x5eed, 1);
    for (std::size_t n : {std::size_t{0}, std::size_t{4}, played.records.size()}) {
        INFO("after " << n);
        const ReplayPosition at = replayed(played, played.records, n);
        const auto view = at.game->view(protocol::revealed);
        std::string text;
        protocol::JsonText out(text);
        at.game->write_state(*view, out);
        const nlohmann::json state = nlohmann::json::parse(text);
        CHECK(state == protocol::state_json(santorini::revealed_view(state_of(at)), nullptr));
        CHECK_FALSE(state.contains("legal"));
        // The decider's own view carries the legal steps; the revealed one never does.
        if (!at.game->over()) {
            CHECK_FALSE(at.game->same(*view, *at.game->view(at.game->decider())));
        }
        for (int s = 0; s < at.game->seat_count(); ++s) {
            std::string seat_text;
            protocol::JsonText seat_out(seat_text);
            seat_out.begin_object();
            at.game->write_seat(*view, s, seat_out);
            seat_out.end_object();
            const nlohmann::json members = nlohmann::json::parse(seat_text);
            CHECK(members.contains("power"));
            CHECK(members["side"] == state_of(at).seat(s).side);
        }
    }
}

}  // namespace replay_test
