#pragma once
// Santorini engine values <-> JSON for protocol v1 (docs/protocol.md): steps and lobby
// settings. The view of a state is written as text (protocol/santorini/view.hpp); the tree
// that text is proven against is a test oracle (tests/support/protocol_oracles).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/lobby_settings.hpp"
#include "protocol/step_refusal.hpp"

namespace protocol {

/// A step as JSON, e.g. {"kind":"move","from":"B2","to":"C3"}; `state` is the state the step
/// is played in (it names workers by their squares).
nlohmann::json step_json(const santorini::State& state, const santorini::Step& step);

/// The legal step that `json` names, or why not: malformed (unknown kind, bad field:
/// canonical_step's reason) or illegal ("not legal now: move B2 C3"). Matching is against
/// `legal` by typed keys, so nothing illegal can come out of here.
/// A step whose fields are all valid is matched by a key read from `json` directly; anything
/// else goes through canonical_step (step_from_json_canonical), so both give the same answer.
std::variant<santorini::Step, StepRefusal> step_from_json(const santorini::State& state,
                                                          const santorini::StepList& legal,
                                                          const nlohmann::json& json);
/// The same answer, always through the canonical document: how refusals are worded, and the
/// reference step_from_json's direct reading is tested against (tests/protocol/steps_test.cpp).
std::variant<santorini::Step, StepRefusal> step_from_json_canonical(
    const santorini::State& state, const santorini::StepList& legal, const nlohmann::json& json);

/// The canonical form of a step's JSON as step_json writes it (squares upper case, powers by
/// key, false flags left out, the token number always written), or why it cannot be a step of
/// any position (unknown kind, unknown or missing field, bad value). Needs no state:
/// step_from_json reads every step through it, so a malformed step is refused as such before
/// it is matched against the legal list.
std::variant<nlohmann::json, std::string> canonical_step(const nlohmann::json& json);

/// The engine settings these lobby settings mean (draft mode and pool); checked with
/// santorini::validate so that no banned pair or impossible pool gets through.
std::variant<santorini::Settings, std::string> engine_settings(const LobbySettings& settings,
                                                               std::uint64_t seed, int challenger);

}  // namespace protocol
