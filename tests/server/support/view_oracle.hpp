#pragma once
// The whole-view builder the server used before typed views, kept only as a test oracle: the
// view of a match for one viewer built as an nlohmann tree from the engine state, exactly as
// Match::view_json built it (docs/protocol.md, "The view"). The differential test checks that
// every viewer's patched view equals this at every version.

#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

namespace server::test {

/// What the oracle needs besides the engine state: who sits where and what the match shows.
struct OracleMatch {
    std::string id;
    std::vector<std::pair<std::string, std::string>> players;  ///< (id, name) per seat
    std::vector<bool> connected;
    int spectators = 0;
    nlohmann::json clock = {{"kind", "none"}};
    nlohmann::json result = nullptr;
    bool aborted = false;
    /// The deciding seat may take back a step of its turn: `undo` ends its legal list.
    bool undo = false;
    /// Every step so far as each viewer reads it: [viewer][line], viewers = seats then spectators.
    std::vector<std::vector<std::string>> history;
};

/// The view of `viewer` (a seat, or santorini::spectator) as the old builder made it.
inline nlohmann::json oracle_view(const OracleMatch& m, const santorini::State& state, int viewer) {
    using nlohmann::json;
    const santorini::State seen = santorini::view_for(state, viewer);
    json seats = json::array();
    for (int s = 0; s < state.seat_count; ++s) {
        const auto p = seen.seat(s).power;
        seats.push_back(
            {{"seat", s},
             {"player",
              {{"id", m.players[static_cast<std::size_t>(s)].first},
               {"name", m.players[static_cast<std::size_t>(s)].second}}},
             {"power", p == santorini::PowerId::None
                           ? json(nullptr)
                           : json(std::string(santorini::power_info(p).key))},
             {"side", seen.seat(s).side},
             {"out", seen.seat(s).out},
             {"connected", static_cast<bool>(m.connected[static_cast<std::size_t>(s)])},
             {"away", nullptr}});  // the abandonment rule is off in the differential test
    }
    const bool active = !m.aborted && !state.over();
    const bool decides = active && viewer >= 0 && viewer == santorini::decider(state);
    santorini::StepList legal;
    if (decides) santorini::legal_steps(state, legal);
    if (decides && m.undo) legal.push_back(santorini::Step::undo());
    const std::size_t index = viewer >= 0 ? static_cast<std::size_t>(viewer) : m.history.size() - 1;
    return {{"match", m.id},
            {"game", "santorini"},
            {"status", m.aborted ? std::string("aborted") : protocol::status_name(state)},
            {"seats", std::move(seats)},
            {"you", viewer >= 0 ? json(viewer) : json(nullptr)},
            {"spectators", m.spectators},
            {"clock", m.clock},
            {"result", m.result},
            {"chat", json::array()},
            {"history", m.history[index]},
            {"state", protocol::state_json(seen, decides ? &legal : nullptr)}};
}

}  // namespace server::test
