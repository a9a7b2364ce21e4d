#pragma once
// What a power card keeps between steps, kept with the card itself: a card that changes hands
// (Circe takes it, the Golden Fleece passes between holders) or changes god (Chaos) carries its
// state along and leaves nothing stale on the seat that used it.
//
// One declaration: `Card::fields` lists every field once, with the name the notation prints;
// the state hash, the perft keys and the notation reader and writer all walk that list, so a
// field added here is hashed, keyed and written without touching them.
//
// Typed per power: a power that needs more than the two small numbers and the tokens keeps its
// own trivially copyable struct of at most 8 bytes in `data` (`card_data<T>`/`set_card_data`),
// declared next to its hooks: Chaos' deck, Aphrodite's bound workers, Moerae's Fate ...

#include <bit>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "engine/santorini/square.hpp"

namespace santorini {

/// The state of one power card.
struct Card {
    std::uint8_t memory = 0;   ///< a small value remembered between turns (Athena: whose move up; Aeolus: the Wind)
    std::uint8_t counter = 0;  ///< a count (Morpheus' stored builds, Dionysus' owed turns, Clio's coins used)
    Bitboard tokens = 0;       ///< the card's physical tokens on the board (coins, whirlpools, Talus)
    std::uint64_t data = 0;    ///< the power's own typed state (card_data<T>): decks, bound workers, hidden squares

    friend bool operator==(const Card&, const Card&) = default;

    /// Calls `f(name, field)` for every field, in a fixed order: the one list that the hash,
    /// the perft keys and the notation use. Fields are unsigned integers.
    template <class C, class F>
        requires std::is_same_v<std::remove_const_t<C>, Card>
    static void fields(C& card, F&& f) {
        f("memory", card.memory);
        f("counter", card.counter);
        f("tokens", card.tokens);
        f("data", card.data);
    }
};

/// The power-specific state `T` kept in a card's `data` (all zero bits = T's start state).
template <class T>
T card_data(const Card& card) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t));
    T t;
    std::memcpy(static_cast<void*>(&t), &card.data, sizeof(T));
    return t;
}

/// Stores `t` as the card's power-specific state (unused bytes zero, so equal T = equal card).
template <class T>
void set_card_data(Card& card, const T& t) {
    static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= sizeof(std::uint64_t));
    card.data = 0;
    std::memcpy(&card.data, static_cast<const void*>(&t), sizeof(T));
}

}  // namespace santorini
