// Nemesis, Goddess of Retribution. End of Your Turn: if none of an opponent's Workers neighbor
// yours, you may force as many of your opponent's Workers as possible to take the spaces you
// occupy, and vice versa.
// Rulings (docs/rulings.md T9-T11): optional as a whole (the core's Pass before the first
// swap); once begun, "as many as possible": min(her workers, theirs) swaps, no end before.
// "An opponent" is one opposing side (3 players: one opponent, whose workers neighbour none of
// hers, chosen by the first swap; 4 players: the other team's shared workers). Each swap is one
// Force step, "force E5 A1": the opponent worker on E5 goes to her worker's space A1, and her
// worker (the step's worker) to E5; both are forced (no win, not moved). Steps are listed so
// that each final assignment is one sequence: with as many of hers as theirs or fewer, her
// lowest unswapped worker takes any of theirs; with more of hers, any of hers takes their
// lowest (so with three of hers, Jason's, she picks which stays). The neighbour test uses the
// 8 plain neighbours and is made once, before the first swap.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
constexpr std::uint8_t started = 0x80;  // Turn::extra: swapping has begun; bits 0-6: swapped workers

Bitboard side_squares(const State& s, int side, std::uint32_t skip, std::uint32_t* mask) {
    Bitboard b = 0;
    for (int w = 0; w < s.worker_count; ++w) {
        if (s.worker(w).side != side || s.worker(w).square == no_square || (skip >> w & 1u)) continue;
        b |= bit(s.worker(w).square);
        if (mask) *mask |= 1u << w;
    }
    return b;
}

bool side_out(const State& s, int side) {
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).side == side && !s.seat(i).out) return false;
    return true;
}

// The next swaps between her unswapped workers `hers` and theirs (bits of worker indices).
void next_swaps(const State& s, std::uint32_t hers, std::uint32_t theirs, StepList& out) {
    if (!hers || !theirs) return;
    auto swap = [&](int h, int o) {
        out.push_back(Step{StepKind::Force, static_cast<std::int8_t>(h), s.worker(o).square,
                           s.worker(h).square, static_cast<std::int8_t>(o)});
    };
    if (std::popcount(hers) > std::popcount(theirs)) {
        int o = std::countr_zero(theirs);
        for (std::uint32_t h = hers; h; h &= h - 1) swap(std::countr_zero(h), o);
    } else {
        int h = std::countr_zero(hers);
        for (std::uint32_t o = theirs; o; o &= o - 1) swap(h, std::countr_zero(o));
    }
}

// The side being swapped with, once begun (the side of a swapped worker that is not hers).
int chosen_side(const State& s, int side) {
    for (int w = 0; w < s.worker_count && w < 7; ++w)
        if ((s.turn.extra >> w & 1u) && s.worker(w).side != side) return s.worker(w).side;
    return -1;
}

void retribution(const State& s, int seat, StepList& out) {
    int side = s.seat(seat).side;
    std::uint32_t done = s.turn.extra & 0x7f, hers = 0;
    Bitboard mine = side_squares(s, side, done, &hers);
    if (s.turn.extra & started) {
        std::uint32_t theirs = 0;
        side_squares(s, chosen_side(s, side), done, &theirs);
        next_swaps(s, hers, theirs, out);
        return;
    }
    Bitboard around = 0;
    for (Bitboard m = mine; m;) around |= neighbors(pop_first(m));
    for (int o = 0; o < s.side_count; ++o) {
        if (o == side || side_out(s, o)) continue;
        std::uint32_t theirs = 0;
        if (side_squares(s, o, 0, &theirs) & around) continue;
        next_swaps(s, hers, theirs, out);
    }
}

// The core put the opponent's worker on her space; hers takes its space.
void take_their_space(State& s, int, const Step& st) {
    if (st.kind != StepKind::Force || st.worker < 0 || s.phase != Phase::End) return;
    s.worker(st.worker).square = st.from;
    s.turn.extra = static_cast<std::uint8_t>(s.turn.extra | started | (1u << st.worker) | (1u << st.aux));
}

bool all_swapped(const State& s, int seat, int mover) {
    if (mover != seat || s.phase != Phase::End || !(s.turn.extra & started)) return true;
    StepList more;
    retribution(s, seat, more);
    return more.empty();
}
}  // namespace

// Her swaps are Force steps: no Move of hers follows her move.
const PowerRules nemesis{.end_steps = retribution,
                         .after_step = take_their_space,
                         .may_end_turn = all_swapped,
                         .makes_no_move_after_moving = true,
                         // retribution and all_swapped: where workers stand; the swaps move
                         // workers only onto spaces where workers stood
                         .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
