#pragma once
// The loop guard (Turn::visited; rulings 3 and B5): a move that brings a turn back to a state it
// already passed through is a dead end, so a power's free moves (Artemis, Hermes, Triton, ...)
// never loop and the completion rule never lists such a move. Used by the core turn (rules.cpp,
// completion.cpp).

#include <cstdint>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::detail {

/// Set in Turn::flags by guard_loops when a move brings the turn back to a state it already
/// passed through.
constexpr std::uint16_t repeated = 1 << 14;

// What the turn has done so far: every Turn field but the loop guard itself and which worker
// moved last (Hermes alternates his workers while either may build, so it tells nothing).
// Kept as its own small value, since every step of a probe compares it.
/// What the turn has done so far (see above).
struct TurnRecord {
    std::uint16_t number, flags, moved_workers;
    std::int8_t seat;
    Square start, last_build;
    std::uint8_t moves, builds, extra;
    std::uint32_t movable;
    bool if_possible_waived;
    friend bool operator==(const TurnRecord&, const TurnRecord&) = default;
};
// A field added to Turn must be added to TurnRecord too (or said to tell nothing, like `worker`).
static_assert(sizeof(Turn) == 120, "Turn changed: update TurnRecord");

/// The record of the turn `t`.
inline TurnRecord record_of(const Turn& t) {
    return {t.number, t.flags, t.moved_workers, t.seat, t.start, t.last_build, t.moves, t.builds, t.extra, t.movable,
            t.if_possible_waived};
}

/// True when the turn `b` has the record `a`.
inline bool same_record(const TurnRecord& a, const Turn& b) { return a == record_of(b); }

/// After the step `st` of a turn whose record before it was `before`: remembers the placement,
/// or sets `repeated` when the move repeats a state of this turn.
void guard_loops(State& s, const TurnRecord& before, const Step& st);

/// Marks the current placement as met (a turn's start); false if a 3+ worker record's list is
/// full.
bool mark_visited(State& s);

}  // namespace santorini::detail
