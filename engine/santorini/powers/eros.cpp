// Eros, God of Desire. Setup: place your workers anywhere along opposite edges of the board.
// Win Condition: you also win if one of your workers moves to a space neighbouring your other
// worker and both are on the first level (or the same level in a 3-player game).
// Rulings (RULES.md, A7): both workers on the perimeter, on two opposite edges (a corner lies on
// two edges, so A1 pairs with the north and the east edge); the first worker goes only where
// the second still has a free space. The win is by a move of his (not a forced worker), in
// 2 and 4 players both on level 1, in 3 players both on the same level, the ground included.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
constexpr Bitboard south = 0x1F, north = south << 20;
constexpr Bitboard west = 0x108421, east = west << 4;
static_assert((south | north | west | east) == perimeter);

// The spaces on edges opposite an edge of `s` (none if `s` is not on the perimeter).
Bitboard opposite_edges(Square s) {
    Bitboard b = 0;
    if (south & bit(s)) b |= north;
    if (north & bit(s)) b |= south;
    if (west & bit(s)) b |= east;
    if (east & bit(s)) b |= west;
    return b;
}

void opposite_edge_places(const State& s, int seat, int worker, StepList& out) {
    int side = s.seat(seat).side;
    Bitboard free = all_squares & ~occupied(s);
    Square first = no_square;
    for (int w = 0; w < s.worker_count; ++w)
        if (w != worker && s.worker(w).side == side && s.worker(w).square != no_square)
            first = s.worker(w).square;
    Bitboard targets = 0;
    if (first != no_square) {
        targets = opposite_edges(first) & free;
    } else {
        for (Bitboard p = perimeter & free; p;) {
            Square sq = pop_first(p);
            if (opposite_edges(sq) & free) targets |= bit(sq);
        }
    }
    while (targets) out.push_back(Step::place(worker, pop_first(targets)));
}

bool lovers_meet(const State& s, int seat, const Step& m, int) {
    int level = s.board.height(m.to);
    bool three_players = s.seat_count == 3;
    if (!three_players && level != 1) return false;
    for (int w = 0; w < s.worker_count; ++w) {
        Square at = s.worker(w).square;
        if (w == m.worker || at == no_square || s.worker(w).side != s.seat(seat).side) continue;
        if ((neighbors(m.to) & bit(at)) && s.board.height(at) == level) return true;
    }
    return false;
}
}  // namespace

const PowerRules eros{.wins_by_move = lovers_meet, .placement_steps = opposite_edge_places};

}  // namespace santorini::powers
