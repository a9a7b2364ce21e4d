#pragma once
// What the cards of powers 31-45 keep that a table shows (tokens, directions, secrets), in one
// place: the powers' hooks write it, the views (protocol/santorini/view.cpp) and the notation
// read it through these functions only, so the layout in Card lives here and nowhere else.
// `card` is always the seat whose card it is (card_seat; Golden Fleece: 0). A secret reads as
// "not set" on a view that may not see it (the power's `hide` clears it).

#include <cstdint>

#include "engine/santorini/state.hpp"

namespace santorini::powers {

/// A direction as `aim` steps name it: 0-7 = N, NE, E, SE, S, SW, W, NW; -1 = not set yet.
using Direction = int;

/// The seat whose card a setup step belongs to: the seat's own card, or with the Golden Fleece
/// the fleece card on seat 0 (in setup nobody holds it yet, so card_seat cannot tell).
inline int setup_card(const State& s, int seat) { return s.setup.golden_fleece ? 0 : seat; }

/// Aeolus: the direction the Wind blows (Card::memory = direction + 1; 0 before setup).
inline Direction wind(const State& s, int card) { return s.card(card).memory - 1; }
inline void set_wind(State& s, int card, Direction d) { s.card(card).memory = static_cast<std::uint8_t>(d + 1); }

/// Siren: the direction of the Song (Card::memory = direction + 1; 0 before setup).
inline Direction song(const State& s, int card) { return s.card(card).memory - 1; }
inline void set_song(State& s, int card, Direction d) { s.card(card).memory = static_cast<std::uint8_t>(d + 1); }

/// Charybdis: her Whirlpool tokens on the board (Card::tokens); the rest lie on her card.
inline Bitboard whirlpools(const State& s, int card) { return s.card(card).tokens; }
inline int whirlpools_on_card(const State& s, int card) { return 2 - std::popcount(s.card(card).tokens); }

/// Clio: her Coin tokens on the board (Card::tokens); Card::counter = coins she has placed
/// (at most 3, removed coins included: "the first 3 blocks"), so 3 - counter lie on her card.
inline Bitboard coins(const State& s, int card) { return s.card(card).tokens; }
inline int coins_on_card(const State& s, int card) { return 3 - s.card(card).counter; }

/// Europa & Talus: the Talus token's square (Card::tokens, one bit), or no_square while it lies
/// on her card.
inline Square talus(const State& s, int card) {
    Bitboard t = s.card(card).tokens;
    return t ? static_cast<Square>(std::countr_zero(t)) : no_square;
}

/// Moerae's card data: her Fate, a 2x2 square of spaces (0 = not chosen yet, or hidden).
struct FateCard {
    Bitboard fate = 0;
};
inline Bitboard fate(const State& s, int card) { return card_data<FateCard>(s.card(card)).fate; }
/// The 2x2 square of spaces whose lower-left (lowest file and rank) space is `corner`
/// (files A-D, ranks 1-4): the Fate her setup Token step names.
inline Bitboard fate_from_corner(Square corner) {
    return bit(corner) | bit(corner + 1) | bit(corner + board_width) | bit(corner + board_width + 1);
}
inline void set_fate(State& s, int card, Bitboard f) { set_card_data(s.card(card), FateCard{f}); }

/// Tartarus' card data: the Abyss (square + 1; 0 = not placed yet, or hidden).
struct AbyssCard {
    std::uint8_t abyss_plus_one = 0;
};
inline Square abyss(const State& s, int card) {
    int a = card_data<AbyssCard>(s.card(card)).abyss_plus_one;
    return a ? static_cast<Square>(a - 1) : no_square;
}
inline void set_abyss(State& s, int card, Square sq) {
    set_card_data(s.card(card), AbyssCard{static_cast<std::uint8_t>(sq == no_square ? 0 : sq + 1)});
}

/// Gaea's card data: the dome her decision is about (square + 1; 0 = no decision pending).
/// Set when a dome gives her the choice, cleared when she decides or the next step comes.
struct GaeaCard {
    std::uint8_t dome_plus_one = 0;
};
inline Square gaea_dome(const State& s, int card) {
    int d = card_data<GaeaCard>(s.card(card)).dome_plus_one;
    return d ? static_cast<Square>(d - 1) : no_square;
}
inline void set_gaea_dome(State& s, int card, Square dome) {
    set_card_data(s.card(card), GaeaCard{static_cast<std::uint8_t>(dome == no_square ? 0 : dome + 1)});
}

/// Gaea (Jason): the workers of `side` still kept on a card (Worker::in_reserve).
inline int reserve_workers(const State& s, int side) {
    int n = 0;
    for (int w = 0; w < s.worker_count; ++w) n += s.worker(w).side == side && s.worker(w).in_reserve;
    return n;
}

}  // namespace santorini::powers
