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
#include "protocol/lobby_settings.hpp"

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

/// The engine settings these lobby settings mean (draft mode and pool); checked with
/// santorini::validate so that no banned pair or impossible pool gets through.
std::variant<santorini::Settings, std::string> engine_settings(const LobbySettings& settings, std::uint64_t seed,
                                                               int challenger);

}  // namespace protocol
