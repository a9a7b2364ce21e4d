#pragma once
// The `state` object of a match view written straight as JSON text from the typed view (a
// santorini::State already projected by santorini::view_for, plus the decider's legal steps),
// and the RFC 6902 patch between two typed views found by comparing their fields: no JSON
// tree is built on the path of a step. protocol::state_json, a test oracle
// (tests/support/protocol_oracles), stays the reference for what the document is;
// tests/protocol/santorini_view_test.cpp plays random games to hold them equal.

#include <string_view>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "protocol/json_text.hpp"

namespace protocol {

/// Writes the `state` object of a match view: exactly the document
/// protocol::state_json(seen, legal) builds (same keys, values and array orders; the order of
/// keys inside objects may differ). `seen` is a state projected for its viewer; `legal`, if
/// given, is written as `legal` (only the seat that must decide gets it).
void write_state(const santorini::State& seen, const santorini::StepList* legal, JsonText& out);

/// Appends to `patch` the RFC 6902 operations that turn the document of (from, from_legal)
/// into that of (to, to_legal), every path prefixed by `prefix` (e.g. "/state"). `from` and
/// `to` are states projected for the same viewer, not necessarily one step apart. Writes no
/// operation when nothing the viewer sees changed. Scalars are replaced, the board and the
/// per-seat arrays element by element, lists that change length replaced whole, and `legal`
/// replaced whole when the lists differ (added when it appears, removed when it goes).
void write_state_patch(const santorini::State& from, const santorini::StepList* from_legal,
                       const santorini::State& to, const santorini::StepList* to_legal,
                       std::string_view prefix, PatchText& patch);

/// Writes a step: exactly the document protocol::step_json(state, step) builds.
void write_step(const santorini::State& state, const santorini::Step& step, JsonText& out);

}  // namespace protocol
