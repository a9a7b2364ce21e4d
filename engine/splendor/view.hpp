#pragma once
// What a viewer may see. The engine alone decides it: the protocol writes only these views.
// Hidden: the order of every deck (from everyone, always, even in replays: it is the future),
// and a card reserved from a deck (only its owner sees it, until the game ends and the
// replay's `revealed` viewer shows it).

#include <array>
#include <cstdint>
#include <string>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor {

inline constexpr int spectator = -1;  ///< anyone not seated
inline constexpr int revealed = -2;   ///< a finished game's replay: every hand, no deck order

/// A reserved card as a viewer sees it: its id, or -1 with only its level when hidden.
struct ReservedView {
    std::int8_t card = -1;
    std::int8_t level = 0;
    bool blind = false;
    friend bool operator==(const ReservedView&, const ReservedView&) = default;
};

struct SeatView {
    Tokens tokens{};
    Colours bonuses{};
    std::int8_t points = 0;
    std::int8_t cards = 0;
    std::array<ReservedView, max_reserved> reserved{};
    std::int8_t reserved_count = 0;
    std::uint16_t nobles = 0;
    bool out = false;
    friend bool operator==(const SeatView&, const SeatView&) = default;
};

/// The state as one viewer may see it: deck sizes instead of decks, hidden reserves masked.
struct View {
    std::int8_t players = 2;
    std::array<SeatView, max_players> seats{};
    Tokens supply{};
    std::array<std::int8_t, levels> deck_size{};
    std::array<std::array<std::int8_t, row_size>, levels> rows{};
    std::uint16_t nobles = 0;
    std::int8_t start_player = 0;
    std::int8_t current = 0;
    Phase phase = Phase::Action;
    bool final_round = false;
    std::uint32_t turn = 0;
    std::uint8_t winners = 0;
    friend bool operator==(const View&, const View&) = default;
};

/// The state as `viewer` (a seat, `spectator` or `revealed`) may see it.
View view_for(const State& state, int viewer);

/// How `viewer` may read `step`, played by `actor` in `before` (a legal step of `before`): the
/// history line of docs/protocol.md, e.g. "take white blue green", "reserve from the level 2
/// deck" (a blind reserve, for the others), "reserve #47 (level 2 blue, 1 point) from the
/// level 2 deck" (for the actor and `revealed`), "buy #12 (level 1 blue, 0 points) for blue 2
/// gold 1"; "; noble #3 visits" is appended when a noble came by itself after the step.
std::string step_text_for(const State& before, const Step& step, int actor, int viewer);

}  // namespace splendor
