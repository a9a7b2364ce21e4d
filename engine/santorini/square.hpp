#pragma once
// Spaces of the 5x5 island, bitboards over them, and the eight directions.

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace santorini {

/// A space of the board: index = (rank - 1) * 5 + file, so A1 = 0, E1 = 4, A2 = 5, E5 = 24.
/// `no_square` (-1) marks "nowhere": a worker off the board, an unused field of a step.
using Square = std::int8_t;
inline constexpr Square no_square = -1;
inline constexpr int board_width = 5;
inline constexpr int square_count = 25;

/// A set of spaces: bit i is Square i. The top 7 bits are always zero.
using Bitboard = std::uint32_t;
inline constexpr Bitboard all_squares = (Bitboard{1} << square_count) - 1;

/// The bitboard holding only `s`.
constexpr Bitboard bit(Square s) { return Bitboard{1} << s; }
/// The file (0 = A .. 4 = E) of a square.
constexpr int file_of(Square s) { return s % board_width; }
/// The rank (0 = rank 1 .. 4 = rank 5) of a square.
constexpr int rank_of(Square s) { return s / board_width; }
/// The square at a file and rank (both 0-based), or no_square when off the board.
constexpr Square make_square(int file, int rank) {
    return (file < 0 || file >= board_width || rank < 0 || rank >= board_width)
               ? no_square
               : static_cast<Square>(rank * board_width + file);
}
/// Number of spaces in a set.
constexpr int count(Bitboard b) { return std::popcount(b); }
/// The lowest space of a non-empty set.
constexpr Square first_square(Bitboard b) { return static_cast<Square>(std::countr_zero(b)); }
/// Removes and returns the lowest space of a non-empty set.
constexpr Square pop_first(Bitboard& b) {
    Square s = first_square(b);
    b &= b - 1;
    return s;
}

/// The eight compass directions; North is towards rank 5, East towards file E.
enum class Direction : std::uint8_t { North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest };
inline constexpr int direction_count = 8;
inline constexpr std::array<int, 8> direction_file_delta{0, 1, 1, 1, 0, -1, -1, -1};
inline constexpr std::array<int, 8> direction_rank_delta{1, 1, 0, -1, -1, -1, 0, 1};

/// The square one step from `s` in direction `d`, or no_square when that leaves the board.
constexpr Square step_toward(Square s, Direction d) {
    auto i = static_cast<int>(d);
    return make_square(file_of(s) + direction_file_delta[i], rank_of(s) + direction_rank_delta[i]);
}

/// The direction from `from` to the neighbouring square `to` (they must be neighbours).
constexpr Direction direction_between(Square from, Square to) {
    int df = file_of(to) - file_of(from), dr = rank_of(to) - rank_of(from);
    for (int i = 0; i < direction_count; ++i)
        if (direction_file_delta[i] == df && direction_rank_delta[i] == dr) return static_cast<Direction>(i);
    return Direction::North;  // not neighbours: callers never ask
}

/// The opposite compass direction.
constexpr Direction opposite(Direction d) {
    return static_cast<Direction>((static_cast<int>(d) + 4) % direction_count);
}

namespace detail {
constexpr std::array<Bitboard, square_count> make_neighbor_table() {
    std::array<Bitboard, square_count> table{};
    for (int s = 0; s < square_count; ++s)
        for (int d = 0; d < direction_count; ++d) {
            Square n = step_toward(static_cast<Square>(s), static_cast<Direction>(d));
            if (n != no_square) table[s] |= bit(n);
        }
    return table;
}
constexpr Bitboard make_perimeter() {
    Bitboard b = 0;
    for (int s = 0; s < square_count; ++s) {
        int f = file_of(static_cast<Square>(s)), r = rank_of(static_cast<Square>(s));
        if (f == 0 || f == 4 || r == 0 || r == 4) b |= bit(static_cast<Square>(s));
    }
    return b;
}
}  // namespace detail

/// For each square, the (up to eight) neighbouring squares.
inline constexpr std::array<Bitboard, square_count> neighbor_table = detail::make_neighbor_table();
/// The neighbouring squares of `s`.
constexpr Bitboard neighbors(Square s) { return neighbor_table[static_cast<std::size_t>(s)]; }
/// The 16 perimeter spaces.
inline constexpr Bitboard perimeter = detail::make_perimeter();
/// The four corner spaces.
inline constexpr Bitboard corners = bit(0) | bit(4) | bit(20) | bit(24);

/// "C3" for square 12; "-" for no_square.
std::string square_name(Square s);
/// Parses "A1".."E5" (file letter case-insensitive); nullopt for anything else.
std::optional<Square> parse_square(std::string_view text);

}  // namespace santorini
