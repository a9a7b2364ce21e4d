#pragma once
// A step: one decision of the seat whose turn it is. A turn is one action step (Take,
// Reserve, Buy, or Pass when no action is possible), then a Return step per token while the
// hand holds more than ten, then a Noble step when several nobles are earned at once, then
// (with confirm_turns) an EndTurn step.

#include <cstdint>
#include <string>
#include <vector>

#include "engine/splendor/gems.hpp"

namespace splendor {

/// Undo is never listed by the engine: the protocol offers it and restores an earlier state
/// itself (protocol/turn_undo.hpp); the engine only says which steps close the door
/// (closes_undo). EndTurn ends a turn waiting in Phase::Confirm.
enum class StepKind : std::uint8_t { Take, Reserve, Buy, Return, Noble, Pass, Undo, EndTurn };

/// One step. Fields per kind (unused ones stay at their defaults, so steps compare equal
/// exactly when they mean the same):
///
/// | kind    | gems                                  | card              | level        | noble |
/// |---------|---------------------------------------|-------------------|--------------|-------|
/// | Take    | tokens taken by colour (3 different, fewer when fewer colours are left, or 2 of one) | - | - | - |
/// | Reserve | -                                     | face-up card id, or -1 | 1-3 for the top of a deck, or -1 | - |
/// | Buy     | tokens paid by kind, gold included    | card id (face-up or reserved) | - | - |
/// | Return  | the one token returned (a count of 1) | -                 | -            | -     |
/// | Noble   | -                                     | -                 | -            | noble id |
/// | Pass    | -                                     | -                 | -            | -     |
/// | Undo    | -                                     | -                 | -            | -     |
/// | EndTurn | -                                     | -                 | -            | -     |
struct Step {
    StepKind kind = StepKind::Pass;
    Tokens gems{};
    std::int8_t card = -1;
    std::int8_t level = -1;
    std::int8_t noble = -1;
    friend bool operator==(const Step&, const Step&) = default;
};

using StepList = std::vector<Step>;

}  // namespace splendor
