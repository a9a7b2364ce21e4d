// Terpsichore, Muse of Dancing. Your Turn: all of your Workers must move, and then all must
// build.
// Rulings (docs/rulings.md T12-T14): every worker of her side on the board moves once (normal
// moves, in any order; the first is the core's, the others hers), then each builds once (a
// normal build next to itself, in any order); "must" binds, so a turn in which one of them
// cannot move or cannot build cannot be completed, and a Terpsichore with no complete turn
// loses at its start (RULES.md). With one worker on the board it is a normal turn. A win by any
// of the moves ends the game at once. She has 2 workers (3-worker cards are other powers').
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
// Her side's workers on the board (bits of worker indices).
std::uint32_t dancers(const State& s, int seat) {
    std::uint32_t b = 0;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == s.seat(seat).side && s.worker(w).square != no_square) b |= 1u << w;
    return b;
}

bool all_moved(const State& s, int seat) { return (dancers(s, seat) & ~s.turn.moved_workers) == 0; }

void next_dancer(const State& s, int seat, StepList& out) {
    if (s.turn.builds > 0) return;
    for (std::uint32_t d = dancers(s, seat) & ~s.turn.moved_workers; d; d &= d - 1)
        add_normal_moves(s, std::countr_zero(d), out);
}

std::uint32_t all_build(const State& s, int seat) { return all_moved(s, seat) ? dancers(s, seat) : 0; }

// Turn::extra: the workers (bits) that built this turn.
void still_to_build(const State& s, int seat, StepList& out) {
    for (std::uint32_t d = dancers(s, seat) & ~std::uint32_t{s.turn.extra}; d; d &= d - 1)
        add_normal_builds(s, std::countr_zero(d), out);
}

void note_builder(State& s, int, const Step& st) {
    if ((st.kind == StepKind::Build || st.kind == StepKind::Dome) && st.aux != 1 && st.worker >= 0 && st.worker < 8)
        s.turn.extra = static_cast<std::uint8_t>(s.turn.extra | (1u << st.worker));
}

// next_dancer offers nothing once all have moved or one has built.
bool dance_over(const State& s, int seat) { return all_moved(s, seat) || s.turn.builds > 0; }

// still_to_build offers nothing once the worker of `build` was the last of hers to build.
bool last_to_build(const State& s, int seat, const Step& build) {
    std::uint32_t left = dancers(s, seat) & ~std::uint32_t{s.turn.extra};
    if (build.worker >= 0 && build.worker < 32) left &= ~(1u << build.worker);
    return left == 0;
}

bool danced(const State& s, int seat, int mover) {
    if (mover != seat) return true;
    std::uint32_t d = dancers(s, seat);
    return (d & ~s.turn.moved_workers) == 0 && (d & ~std::uint32_t{s.turn.extra}) == 0;
}
}  // namespace

const PowerRules terpsichore{.after_move_steps = next_dancer,
                             .builders = all_build,
                             .more_builds = still_to_build,
                             .after_step = note_builder,
                             .may_end_turn = danced,
                             .moves_over = dance_over,
                             // once all have built nothing of hers reads the board: note_builder
                             // notes the builder (the core shares a rest only between builds of
                             // one worker), danced judges who moved and built
                             .rest_of_turn_ignores_builds = true,
                             .builds_over_after = last_to_build};

}  // namespace santorini::powers
