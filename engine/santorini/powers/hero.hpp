#pragma once
// What a hero's card keeps that a table shows, in one place (as card_tokens.hpp does for the
// Golden Fleece gods): the heroes' hooks write it, the views (protocol/santorini/view.cpp) and
// tests read it through these functions only. `card` is the seat whose card it is
// (card_seat); heroes are never stolen (Circe) nor beside the board (Golden Fleece), so it is
// the owner's seat.
//
// A hero power is used at most once per game (RULES.md, "Heroes"): Card::counter is 0 while
// unused and 1 once used. A use that takes several steps in one turn (Atalanta's moves,
// Heracles' domes, Odysseus' forces, Polyphemus' domes, Medea's removals) is spent from its
// first step; the hero then remembers in its own turn state (Turn::extra or a turn flag) that
// the use goes on this turn. The core spends the card, before it applies each step the hero's
// `hero_use` hook names (power_rules.hpp), so a step of the use that ends the game spends it too.

#include <cstdint>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/state.hpp"

namespace santorini::powers {

/// True once the hero on card `card` has used its power.
inline bool hero_spent(const State& s, int card) { return s.card(card).counter != 0; }
/// Marks the hero on card `card` as used for the rest of the game.
inline void spend_hero(State& s, int card) { s.card(card).counter = 1; }

/// `s` with every hero in it spent: the turn a player could play without using a hero power.
/// The core judges "if possible" demands (Persephone, Adonis) on it at a turn's start: no
/// opponent power can make a hero power be used (RULES.md "Heroes"), so a demand that only a
/// hero's use could meet is waived (docs/rulings.md HA4); the hero may still use it.
inline State without_hero_uses(State s) {
    for (int j = 0; j < s.seat_count; ++j) {
        PowerId p = s.seat(j).power;
        if (p != PowerId::None && power_info(p).category == PowerCategory::Hero) spend_hero(s, j);
    }
    return s;
}

/// Adonis: the opponent worker he chose at the end of his turn, which must (if possible) end
/// its owner's next turn next to one of his workers (Card::memory = worker index + 1; 0 =
/// none). Cleared when that turn ends.
inline int adonis_charmed(const State& s, int card) { return s.card(card).memory - 1; }
inline void set_adonis_charmed(State& s, int card, int worker) {
    s.card(card).memory = static_cast<std::uint8_t>(worker + 1);
}

}  // namespace santorini::powers
