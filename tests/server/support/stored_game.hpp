#pragma once
// A game played with the engine alone (always the first legal step) and written down as the
// store keeps it (settings row, step records, a StoredMatch), for the tests of the replay and
// of the API's JSON without a database.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"
#include "server/match/replay.hpp"
#include "engine/santorini/state_hash.hpp"
#include "server/store/repository.hpp"

namespace stored_game {

/// A played game: its settings, every record and every state (states[0] is the setup).
struct Played {
    protocol::LobbySettings lobby;
    int challenger = 0;
    std::uint64_t seed = 0;
    std::vector<std::string> records;
    std::vector<santorini::State> states;
};

/// Plays from `lobby` until the game is over or `max_records` steps were played.
inline Played play(const protocol::LobbySettings& lobby, std::uint64_t seed, int challenger,
                   std::size_t max_records = 10000) {
    Played out{lobby, challenger, seed, {}, {}};
    auto engine = std::get<santorini::Settings>(protocol::engine_settings(lobby, seed, challenger));
    auto game = santorini::new_game(engine);
    santorini::State state = std::move(*game);
    out.states.push_back(state);
    santorini::StepList legal;
    while (!state.over() && out.records.size() < max_records) {
        santorini::legal_steps(state, legal);
        const santorini::Step step = legal[0];
        out.records.push_back(protocol::step_json(state, step).dump());
        santorini::apply_step(state, step);
        out.states.push_back(state);
    }
    return out;
}

/// The settings row of `played`.
inline std::string settings_json(const Played& played) {
    return nlohmann::json{{"lobby", protocol::lobby_settings_json(played.lobby)},
                          {"challenger", played.challenger}}
        .dump();
}

/// `played` as the repository would return it, with two seats ("p_ann", "p_bob").
inline store::StoredMatch as_stored(const Played& played, const std::string& status,
                                    const std::string& result_json = "") {
    store::StoredMatch m;
    m.id = "m_test";
    m.game = "santorini";
    m.settings_json = settings_json(played);
    m.seed = played.seed;
    m.status = status;
    m.created_at_ms = 1732380000123;
    m.finished_at_ms = status == "live" ? 0 : 1732380060000;
    m.result_json = result_json;
    m.seats.push_back(store::StoredSeat{0, "p_ann", "Ann", "", std::nullopt, std::nullopt, std::nullopt,
                                        std::nullopt, std::nullopt});
    m.seats.push_back(store::StoredSeat{1, "p_bob", "Bob", "", std::nullopt, std::nullopt, std::nullopt,
                                        std::nullopt, std::nullopt});
    const santorini::State* before = &played.states[0];
    for (std::size_t i = 0; i < played.records.size(); ++i) {
        const int seat = santorini::decider(*before);
        m.steps.push_back(store::StoredStep{static_cast<std::uint32_t>(i + 1), seat == 0 ? "p_ann" : "p_bob",
                                            played.records[i], 1732380000123 + static_cast<std::int64_t>(i) * 1000,
                                            santorini::state_hash(played.states[i + 1])});
        before = &played.states[i + 1];
    }
    m.step_count = static_cast<std::uint32_t>(m.steps.size());
    return m;
}

}  // namespace stored_game
