#pragma once
// The 90 development cards and 10 nobles of the base game, as data. A card or noble is named
// by its index here (its id) everywhere: in the state, the notation, steps and the protocol.
// tests/engine/splendor/data_test.cpp checks every entry against engine/splendor/data/*.csv,
// the copies of the verified files in ../shared/splendor/ (against those too where present).

#include <array>
#include <cstdint>

#include "engine/splendor/gems.hpp"

namespace splendor {

/// A development card: its level (1-3), the bonus it gives, its prestige points, its cost.
struct Card {
    std::int8_t level;
    Gem bonus;
    std::int8_t points;
    Colours cost;
};

/// A noble tile: 3 prestige points to the first player whose bonuses meet `requirements`.
/// (The protocol's JSON calls them "requires"; `requires` is a keyword in C++20.)
struct Noble {
    std::int8_t points;
    Colours requirements;
};

inline constexpr int card_count = 90;
inline constexpr int noble_count = 10;
inline constexpr int levels = 3;

/// Every card, by id (0-89; the order of cards.csv: level 1, then 2, then 3).
const std::array<Card, card_count>& cards();
/// Every noble, by id (0-9; the order of nobles.csv).
const std::array<Noble, noble_count>& nobles();

inline const Card& card(int id) { return cards()[static_cast<std::size_t>(id)]; }
inline const Noble& noble(int id) { return nobles()[static_cast<std::size_t>(id)]; }

}  // namespace splendor
