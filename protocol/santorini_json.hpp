#pragma once
// Santorini engine values <-> JSON for protocol v1 (docs/protocol.md): the view of a state,
// steps, and lobby settings. The only place that knows both the engine and JSON.

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/santorini/game.hpp"
#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace protocol {

/// The `state` object of a match view, made from a state already projected for its viewer
/// (santorini::view_for). `legal`, if given, is the decider's list of legal steps and is
/// included as `legal` (only in the view of the seat that must decide).
nlohmann::json state_json(const santorini::State& view, const santorini::StepList* legal);

/// The match status a state is in: "draft", "placement", "playing" or "finished".
std::string status_name(const santorini::State& state);

/// A step as JSON, e.g. {"kind":"move","from":"B2","to":"C3"}; `state` is the state the step
/// is played in (it names workers by their squares).
nlohmann::json step_json(const santorini::State& state, const santorini::Step& step);

/// The legal step that `json` names, or an error text saying what is wrong with it (unknown
/// kind, bad field, or not legal now). Matching is against `legal`, so nothing illegal can
/// come out of here.
std::variant<santorini::Step, std::string> step_from_json(const santorini::State& state,
                                                          const santorini::StepList& legal,
                                                          const nlohmann::json& json);

/// The canonical form of a step's JSON as step_json writes it (squares upper case, powers by
/// key, false flags left out, the token number always written), or why it cannot be a step of
/// any position (unknown kind, unknown or missing field, bad value). Needs no state: the
/// parser uses it so that a malformed step is invalid_field and only a well-formed one goes on
/// to be judged legal or not.
std::variant<nlohmann::json, std::string> canonical_step(const nlohmann::json& json);

/// Lobby settings for Santorini as sent by clients (see docs/protocol.md, `lobby.create`).
struct LobbySettings {
    int players = 2;
    std::string powers = "none";          ///< none | simple | all | heroes | custom
    std::vector<santorini::PowerId> pool;  ///< custom pool
    std::string draft = "random";         ///< random | subset | full
    bool golden_fleece = false;
    std::string clock = "none";           ///< none | realtime | turn
    int base_seconds = 300;               ///< realtime: initial time per player
    int increment_seconds = 5;            ///< realtime: added after each of the player's turns
    int hours_per_move = 24;              ///< turn-based: time for each turn
    bool is_public = true;
};

/// Why lobby settings were refused: the field at fault as a path ("settings.clock.base_seconds";
/// a rule about a combination blames the field that breaks it, e.g. "settings.golden_fleece"),
/// whether it was missing, and what is wrong.
struct SettingsError {
    std::string field;
    bool missing = false;
    std::string message;
};

/// Like `lobby_settings_from_json`, but keeps the field apart so the protocol can answer with
/// missing_field or invalid_field naming it.
std::variant<LobbySettings, SettingsError> read_lobby_settings(const nlohmann::json& json);

/// Reads and validates `settings` JSON; success means `engine_settings` of the result also
/// succeeds (seed, challenger and start player are the caller's). Errors name the field.
std::variant<LobbySettings, std::string> lobby_settings_from_json(const nlohmann::json& json);
/// The JSON of validated settings (as shown in lobby lists).
nlohmann::json lobby_settings_json(const LobbySettings& settings);
/// The engine settings these lobby settings mean (draft mode and pool); checked with
/// santorini::validate so that no banned pair or impossible pool gets through.
std::variant<santorini::Settings, std::string> engine_settings(const LobbySettings& settings, std::uint64_t seed,
                                                               int challenger);

}  // namespace protocol
