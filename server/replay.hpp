#pragma once
// A stored match replayed through the engine, without a Match, an io_context or a clock: the
// settings row back to a game, one stored record back to an action, and the state after any
// number of records. Recovery (Match::restore, Hub::recover) and the HTTP API's replays
// (server/http_api.hpp) read stored matches with the same functions, so a replay shows exactly
// the game that recovery would rebuild.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "protocol/santorini_json.hpp"

namespace server {

/// What the `settings` column of a match holds: {"lobby": <lobby settings>, "challenger": n}.
struct StoredSettings {
    protocol::LobbySettings lobby;
    int challenger = 0;
};

/// The settings of a stored match, or why they cannot be read.
std::variant<StoredSettings, std::string> read_stored_settings(std::string_view settings_json);

/// One stored record read back: a step, or an event the server recorded for a seat.
struct RecordedAction {
    enum class Kind { Step, Resign, Abort, Timeout } kind = Kind::Step;
    int seat = -1;           ///< who played it (the decider for a step)
    santorini::Step step{};  ///< Kind::Step only
};

/// The record `step_json` (a step as protocol JSON, or {"kind":"resign"|"abort"|"timeout",
/// "seat":n}) read in `state`, or why it is not one (not JSON, no seat, a step the engine does
/// not list as legal there).
std::variant<RecordedAction, std::string> read_action(const santorini::State& state,
                                                      std::string_view step_json);

/// The game after some records of a stored match.
struct ReplayPosition {
    santorini::State state;  ///< the full state (nothing projected yet)
    bool aborted = false;    ///< an abort (or a resignation or timeout before play) ended it
    std::size_t records = 0;  ///< records applied
    /// Every step so far as text (santorini::step_text_for): as spectators read it, and in
    /// full (what a finished game's replay shows). Events (resign, timeout) are not steps.
    std::vector<std::string> spectator_history;
    std::vector<std::string> revealed_history;
    /// Per record applied: true when spectators may read only its kind (a step of a game with
    /// secrets in play, santorini::step_text_for), so a live replay shows only {"kind": ...}.
    std::vector<bool> secret;
    /// Per record applied: the seat that played it (the decider, or the event's seat).
    std::vector<int> seats;
};

/// Replays the first `upto` of `records` (each a stored step's JSON, in order of their numbers)
/// from the new game that `settings` and `seed` make. `upto` 0 is the setup position; it must
/// not exceed records.size(). Returns why the replay failed instead (bad settings, a record the
/// engine refuses, a record after the game was over).
std::variant<ReplayPosition, std::string> replay(const StoredSettings& settings,
                                                 std::uint64_t seed,
                                                 const std::vector<std::string>& records,
                                                 std::size_t upto);

/// The action applied to `state` as a match applies it: a step is played; a resignation or
/// timeout concedes in play and aborts before it (true is returned: the match ends without a
/// game); an abort aborts. Never fails for an action read_action gave for this state.
bool apply_action(santorini::State& state, const RecordedAction& action);

}  // namespace server
