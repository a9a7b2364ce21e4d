#pragma once
// Splendor engine values <-> JSON for protocol v1 (docs/protocol.md, "Splendor"): cards,
// nobles, token counts, steps (written, and read from a client by matching the legal list),
// the protocol's words for phases and step kinds, and each viewer's history line. The only
// place besides the view writer (protocol/splendor/view) that knows both the engine and JSON.

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/splendor/gems.hpp"
#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/json_text.hpp"
#include "protocol/step_refusal.hpp"

namespace protocol {

/// "action", "return", "noble", "over", "confirm".
std::string_view splendor_phase_name(splendor::Phase phase);
/// "take", "reserve", "buy", "return", "noble", "pass", "undo", "end_turn".
std::string_view splendor_kind_name(splendor::StepKind kind);

// ---- cards, nobles and token counts, written whole ----

/// {"id":12,"level":1,"bonus":"white","points":0,"cost":{"white":0,...,"black":0}}
void write_card(JsonText& out, int id);
/// {"id":3,"points":3,"requires":{"white":0,...,"black":0}}
void write_noble(JsonText& out, int id);
/// {"white":n,"blue":n,"green":n,"red":n,"black":n,"gold":n}: always all six.
void write_tokens(JsonText& out, const splendor::Tokens& tokens);
/// {"white":n,"blue":n,"green":n,"red":n,"black":n}: always all five.
void write_colours(JsonText& out, const splendor::Colours& colours);


// ---- steps ----

/// A step as canonical JSON text, e.g. {"kind":"take","gems":["white","blue","green"]},
/// {"kind":"reserve","level":2}, {"kind":"buy","card":12,"pay":{...all six...}}.
void write_step(const splendor::Step& step, JsonText& out);
/// The same document as a tree.
nlohmann::json step_json(const splendor::Step& step);

/// The canonical form of a Splendor step's JSON as write_step writes it (the colours of a
/// take in the order white..black), or why it cannot be a Splendor step in any position:
/// not an object, unknown kind, unknown or missing field, a value of the wrong type or out of
/// range (a card id above 89, a take of four gems, a pay without all six counts...). Needs
/// no state: step_from_json reads every step through it, so a malformed step is refused as
/// such before it is matched against the legal list.
std::variant<nlohmann::json, std::string> canonical_splendor_step(const nlohmann::json& json);

/// The legal step that `json` names, or why not: malformed (canonical_splendor_step's reason)
/// or illegal ("not legal now: take red red"). Matching is against `legal` (the engine's
/// list), so nothing illegal can come out of here.
std::variant<splendor::Step, StepRefusal> step_from_json(const splendor::StepList& legal,
                                                         const nlohmann::json& json);

/// A short text of a step for error messages ("not legal now: buy #12 for blue 2 gold 1").
std::string splendor_step_words(const splendor::Step& step);

/// The history line of `step`, played by `actor` in `before`, for each viewer: seats 0..n-1,
/// then spectators last (protocol::Played::lines). The engine decides what each may read
/// (splendor::step_text_for): a card reserved from a deck is named only in its owner's line.
std::vector<std::string> step_lines(const splendor::State& before, const splendor::Step& step,
                                    int actor);

}  // namespace protocol
