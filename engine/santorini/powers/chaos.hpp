#pragma once
// Internal: how Chaos keeps his deck in the card's Card::data, shared by his hooks
// and the notation (`chaos=`, `deck=`, `discards=`). Bit n of each half is PowerId n: the
// powers still in the deck (low half) and the discarded ones (high half). The deck's order is
// not stored: each draw picks uniformly from the deck with State::rng, which views hide.

#include <cstdint>

#include "engine/santorini/state.hpp"

namespace santorini::powers {

/// The seat whose card is Chaos (Golden Fleece: 0), or -1 if Chaos is not in the game.
inline int chaos_card(const State& s) {
    if (s.setup.golden_fleece) return s.fleece_power == PowerId::Chaos ? 0 : -1;
    for (int j = 0; j < s.seat_count; ++j)
        if (s.seat(j).power == PowerId::Chaos) return j;
    return -1;
}
/// Powers (bits by PowerId) in Chaos' deck.
inline std::uint64_t chaos_deck(const State& s, int card) {
    return s.card(card).data & 0xffffffffu;
}
/// Powers (bits by PowerId) on Chaos' discard pile.
inline std::uint64_t chaos_discards(const State& s, int card) {
    return s.card(card).data >> 32;
}
/// Stores Chaos' deck and discard pile.
inline void set_chaos_cards(State& s, int card, std::uint64_t deck, std::uint64_t discards) {
    s.card(card).data = (deck & 0xffffffffu) | (discards << 32);
}

}  // namespace santorini::powers
