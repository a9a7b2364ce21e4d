#pragma once
// The island: a height of blocks (0-3) on every space, and the domes.

#include <array>
#include <cassert>
#include <cstdint>

#include "engine/santorini/square.hpp"

namespace santorini {

/// The buildings on the board. Heights and domes are kept both per square and as one bitboard
/// per level, because move generation asks "which neighbours are at most one level up" far
/// more often than anything changes.
class Board {
public:
    /// Number of blocks on `s` (0 = ground .. 3).
    int height(Square s) const { return height_[static_cast<std::size_t>(s)]; }
    /// True if a dome stands on `s` (at any height).
    bool has_dome(Square s) const { return (domes_ & bit(s)) != 0; }
    /// All squares with a dome.
    Bitboard domes() const { return domes_; }
    /// All squares with exactly `h` blocks (dome or not).
    Bitboard at_height(int h) const { return level_[static_cast<std::size_t>(h)]; }
    /// All squares with at most `h` blocks (h may be negative or above 3).
    Bitboard at_most(int h) const {
        Bitboard b = 0;
        for (int i = 0; i <= h && i < 4; ++i) b |= level_[static_cast<std::size_t>(i)];
        return b;
    }
    /// Number of complete towers (three blocks and a dome).
    int complete_towers() const { return count(domes_ & level_[3]); }

    /// Adds a block on `s`; the square must have fewer than 3 blocks and no dome.
    void add_block(Square s) {
        assert(height(s) < 3 && !has_dome(s));
        auto& h = height_[static_cast<std::size_t>(s)];
        level_[h] &= ~bit(s);
        ++h;
        level_[h] |= bit(s);
    }
    /// Removes the top block of `s`; the square must have a block and no dome.
    void remove_block(Square s) {
        assert(height(s) > 0 && !has_dome(s));
        auto& h = height_[static_cast<std::size_t>(s)];
        level_[h] &= ~bit(s);
        --h;
        level_[h] |= bit(s);
    }
    /// Puts a dome on `s`; the square must have no dome.
    void add_dome(Square s) {
        assert(!has_dome(s));
        domes_ |= bit(s);
    }
    /// Sets a square directly (for notation parsing).
    void set(Square s, int blocks, bool dome) {
        assert(blocks >= 0 && blocks <= 3);
        for (auto& l : level_) l &= ~bit(s);
        height_[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(blocks);
        level_[static_cast<std::size_t>(blocks)] |= bit(s);
        domes_ = dome ? (domes_ | bit(s)) : (domes_ & ~bit(s));
    }

    friend bool operator==(const Board&, const Board&) = default;

private:
    std::array<std::uint8_t, square_count> height_{};
    std::array<Bitboard, 4> level_{all_squares, 0, 0, 0};
    Bitboard domes_ = 0;
};

}  // namespace santorini
