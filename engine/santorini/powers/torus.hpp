#pragma once
// Directions of moves, and Urania's board where opposite edges and corners touch (a torus).
// The powers that read the direction of a move another seat may make across Urania's wrap
// (Aeolus' Wind, Harpies' slide) read it here, so such a move has one direction for all (W1).

#include "engine/santorini/square.hpp"

namespace santorini::powers {

/// The square one step from `s` in direction `d` (0-7, N..NW) on the torus: never off the board.
constexpr Square torus_step(Square s, int d) {
    int f = (file_of(s) + direction_file_delta[static_cast<std::size_t>(d)] + board_width) % board_width;
    int r = (rank_of(s) + direction_rank_delta[static_cast<std::size_t>(d)] + board_width) % board_width;
    return make_square(f, r);
}

namespace detail {
constexpr std::array<Bitboard, square_count> make_torus_table() {
    std::array<Bitboard, square_count> table{};
    for (int s = 0; s < square_count; ++s)
        for (int d = 0; d < direction_count; ++d) table[static_cast<std::size_t>(s)] |= bit(torus_step(static_cast<Square>(s), d));
    return table;
}
inline constexpr std::array<Bitboard, square_count> torus_table = make_torus_table();
}  // namespace detail

/// The 8 neighbours of `s` when opposite edges and corners are adjacent (Urania).
constexpr Bitboard torus_neighbors(Square s) { return detail::torus_table[static_cast<std::size_t>(s)]; }

/// The direction (0-7) of a move from `from` to `to`: the step to a neighbour, or across the
/// wrap to a torus neighbour (A3 to E3 is West: Urania's worker stepped over the edge); -1 when
/// the squares do not touch even on the torus (such a move has no direction). On the 5x5 board
/// the two readings never disagree: a board neighbour is never a torus neighbour another way.
constexpr int move_direction(Square from, Square to) {
    auto wrapped = [](int delta) { return delta == 4 ? -1 : delta == 1 ? 1 : delta == 0 ? 0 : 2; };
    int df = wrapped((file_of(to) - file_of(from) + board_width) % board_width);
    int dr = wrapped((rank_of(to) - rank_of(from) + board_width) % board_width);
    if (df == 2 || dr == 2 || (df == 0 && dr == 0)) return -1;
    for (int d = 0; d < direction_count; ++d)
        if (direction_file_delta[static_cast<std::size_t>(d)] == df && direction_rank_delta[static_cast<std::size_t>(d)] == dr) return d;
    return -1;
}

}  // namespace santorini::powers
