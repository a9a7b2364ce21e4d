#pragma once
// The `state` object of a Splendor match view written straight as JSON text from the typed
// view (a splendor::View, already projected for its viewer by splendor::view_for, plus the
// decider's legal steps), and the RFC 6902 patch between two typed views found by comparing
// their fields (docs/protocol.md, "Splendor"). tests/protocol/splendor_view_test.cpp holds
// the writer to an independently built tree and every patch to the documents it joins.

#include <string_view>

#include "engine/splendor/step.hpp"
#include "engine/splendor/view.hpp"
#include "protocol/json_text.hpp"

namespace protocol {

/// Writes the `state` object of a Splendor match view. `decider` is the seat that decides
/// (-1 once the game is over: `null`); `legal`, if given, is written as `legal` (only the
/// seat that must decide gets it).
void write_state(const splendor::View& seen, int decider, const splendor::StepList* legal,
                 JsonText& out);

/// Appends to `patch` the operations that turn the document of (from, from_decider,
/// from_legal) into that of (to, to_decider, to_legal), every path prefixed by `prefix`
/// ("/state"). Both views are of the same viewer and game, not necessarily one step apart.
/// Writes nothing when nothing the viewer sees changed. Scalars are replaced; a row's slot,
/// and each member of a hand (tokens, bonuses, points, cards, reserved, nobles, out), on its
/// own; supply, decks, nobles and winners whole; `legal` whole when the lists differ (added
/// when it appears, removed when it goes).
void write_state_patch(const splendor::View& from, int from_decider,
                       const splendor::StepList* from_legal, const splendor::View& to,
                       int to_decider, const splendor::StepList* to_legal, std::string_view prefix,
                       PatchText& patch);

}  // namespace protocol
