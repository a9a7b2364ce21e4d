#pragma once
// TEMPORARY tree-based stand-in (replaced by the typed writer on the views branch).
#include <string_view>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"
#include "protocol/json_text.hpp"

namespace protocol {
void write_state(const santorini::State& seen, const santorini::StepList* legal, JsonText& out);
void write_state_patch(const santorini::State& from, const santorini::StepList* from_legal,
                       const santorini::State& to, const santorini::StepList* to_legal,
                       std::string_view prefix, PatchText& patch);
}  // namespace protocol
