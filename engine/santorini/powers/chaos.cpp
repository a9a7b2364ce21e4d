// Chaos, Primordial Nothingness. Setup: shuffle all unused Simple God Powers into a face-down
// deck; draw the top one and place it face-up. Any Time: you have the power of the face-up God
// Power. You must discard it and draw a new one after any turn in which at least one dome is
// built. If you run out, shuffle the discards to make a new deck and draw the top one.
// Rulings (RULES.md, docs/rulings.md C19-C23): the deck is the Simple gods not in play and not
// banned against a power in play; he draws when the powers are known, before placement; the
// change follows any turn (anyone's) with a dome, whoever holds the card (Circe, the Golden
// Fleece, nobody); the new god starts with a blank memory. Deck and discards live in the card's
// Card::data (chaos.hpp); each draw picks uniformly with State::rng (the deck's hidden order).
#include "engine/santorini/powers/chaos.hpp"

#include <bit>

#include "engine/santorini/powers/powers.hpp"
#include "engine/santorini/rng.hpp"

namespace santorini::powers {
namespace {
std::uint64_t power_bit(PowerId p) {
    return std::uint64_t{1} << static_cast<int>(p);
}

// The powers in the game (seats' cards and the fleece), which the deck leaves out.
bool in_play_or_banned(const State& s, PowerId p) {
    auto clash = [&](PowerId q) { return q != PowerId::None && (q == p || banned_pair(q, p)); };
    if (clash(s.fleece_power)) return true;
    for (int j = 0; j < s.seat_count; ++j)
        if (clash(s.seat(j).power)) return true;
    return false;
}

void draw(State& s, int card) {
    std::uint64_t deck = chaos_deck(s, card), discards = chaos_discards(s, card);
    if (deck == 0) std::swap(deck, discards);  // reshuffle the discards into a new deck
    PowerId drawn = PowerId::None;
    if (deck != 0) {
        int k = random_below(s.rng, std::popcount(deck));
        std::uint64_t rest = deck;
        for (int i = 0; i < k; ++i) rest &= rest - 1;
        drawn = static_cast<PowerId>(std::countr_zero(rest));
        deck &= ~power_bit(drawn);
    }
    set_chaos_cards(s, card, deck, discards);
    s.acting_as[static_cast<std::size_t>(card)] = drawn;
    s.card(card).memory = 0;  // a new god remembers nothing of the last one
    s.card(card).counter = 0;
}

void make_deck(State& s, int card) {
    if (s.acting_as[static_cast<std::size_t>(card)] != PowerId::None ||
        s.card(card).data != 0)
        return;  // already set up (a position read from notation)
    std::uint64_t deck = 0;
    for (const auto& info : all_powers())
        if (info.category == PowerCategory::Simple && !in_play_or_banned(s, info.id))
            deck |= power_bit(info.id);
    set_chaos_cards(s, card, deck, 0);
    draw(s, card);
}

void change_after_a_dome(State& s, int card) {
    if (!(s.turn.flags & turn_flag::dome_built)) return;
    PowerId now = s.acting_as[static_cast<std::size_t>(card)];
    std::uint64_t discards = chaos_discards(s, card) | (now == PowerId::None ? 0 : power_bit(now));
    set_chaos_cards(s, card, chaos_deck(s, card), discards);
    draw(s, card);
}
}  // namespace

const PowerRules chaos{.card_setup = make_deck, .card_turn_end = change_after_a_dome, .data_not_in_notation = true};

}  // namespace santorini::powers
