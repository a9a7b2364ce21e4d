// Hermes, God of Travel. Your Turn: if your workers do not move up or down, they may each move
// any number of times (even zero), and then either builds.
// Ruling (RULES.md): a move that changes level makes it a normal turn (that worker builds).
// Travel moves are single steps on the same level; the core's loop guard stops a move that
// repeats a whole state of the turn (the same placement after the same moves so far: ruling 3),
// so the travel cannot loop.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool travelling(const State& s) {
    return !(s.turn.flags & turn_flag::level_changed);
}

void travel_moves(const State& s, int seat, StepList& out) {
    if (!travelling(s)) return;
    int side = s.seat(seat).side;
    Bitboard blocked = occupied(s);
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side != side || wk.square == no_square) continue;
        Bitboard targets =
            neighbors_for(s, wk.square) & ~blocked & s.board.at_height(s.board.height(wk.square));
        while (targets) out.push_back(Step::move(w, wk.square, pop_first(targets)));
    }
}

std::uint32_t either_builds(const State& s, int seat) {
    if (!travelling(s)) return std::uint32_t{1} << s.turn.worker;
    std::uint32_t mask = 0;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == s.seat(seat).side && s.worker(w).square != no_square)
            mask |= std::uint32_t{1} << w;
    return mask;
}

// Moving zero times: either worker builds at once.
void build_without_moving(const State& s, int seat, StepList& out) {
    if (s.turn.worker >= 0) return;
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).square != no_square)
            add_normal_builds(s, w, out);
}
}  // namespace

const PowerRules hermes{.begin_steps = build_without_moving,
                        .after_move_steps = travel_moves,
                        .builders = either_builds};

}  // namespace santorini::powers
