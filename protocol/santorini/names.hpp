#pragma once
// The words protocol v1 uses for Santorini's phases, draft modes, step kinds, directions and
// match statuses (docs/protocol.md): one table each, read by the JSON readers and writers.

#include <array>
#include <string_view>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace protocol {

/// "offer", "choose", ..., "over".
inline std::string_view phase_name(santorini::Phase phase) {
    using santorini::Phase;
    switch (phase) {
        case Phase::Offer: return "offer";
        case Phase::Choose: return "choose";
        case Phase::StartPlayer: return "start_player";
        case Phase::Place: return "place";
        case Phase::Token: return "token";
        case Phase::Begin: return "begin";
        case Phase::AfterMove: return "after_move";
        case Phase::AfterBuild: return "after_build";
        case Phase::End: return "end";
        case Phase::Over: return "over";
        case Phase::Confirm: return "confirm";
    }
    return "over";
}

/// "none", "fixed", "random", "subset", "full".
inline std::string_view draft_name(santorini::DraftMode mode) {
    using santorini::DraftMode;
    switch (mode) {
        case DraftMode::None: return "none";
        case DraftMode::Fixed: return "fixed";
        case DraftMode::Random: return "random";
        case DraftMode::SubsetOffer: return "subset";
        case DraftMode::FullOffer: return "full";
    }
    return "none";
}

/// The match status a phase belongs to: "draft", "placement", "playing" or "finished".
inline std::string_view status_key(santorini::Phase phase) {
    using santorini::Phase;
    switch (phase) {
        case Phase::Offer:
        case Phase::Choose:
        case Phase::StartPlayer: return "draft";
        case Phase::Place:
        case Phase::Token: return "placement";
        case Phase::Over: return "finished";
        default: return "playing";
    }
}

/// The step kinds as the protocol spells them, indexed by StepKind.
inline constexpr std::array<std::string_view, 16> kind_names{
    "place", "move",   "build",        "dome",  "force", "remove", "pass",     "offer",
    "choose", "start_player", "token", "aim",   "select", "capture", "undo", "end_turn",
};
static_assert(kind_names.size() == static_cast<std::size_t>(santorini::StepKind::EndTurn) + 1,
              "a step kind without a name");

/// Aim directions, indexed 0-7 from north clockwise.
inline constexpr std::array<std::string_view, 8> direction_names{"N", "NE", "E", "SE",
                                                                 "S", "SW", "W", "NW"};

}  // namespace protocol
