// The whole-state consistency check (Stockfish's pos_is_ok): run by tests after every step.
// Every card is in exactly one place (a deck, a row, a reserve, or one seat's bought cards),
// and each seat's points, bonuses and card count are those of the cards it bought (and its
// nobles' points).

#include <bit>

#include "engine/splendor/game.hpp"
#include "engine/splendor/turn_flow.hpp"

namespace splendor {
namespace {
std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}
}  // namespace

std::string check_invariants(const State& s) {
    std::string e;
    auto fail = [&](const std::string& what) { e += what + "; "; };
    if (s.players < 2 || s.players > max_players) return "players out of range";

    // Tokens: the bank and the hands always hold the starting bank.
    Tokens sum = s.supply;
    for (int i = 0; i < s.players; ++i)
        for (int k = 0; k < token_kinds; ++k)
            sum[at(k)] = static_cast<std::int8_t>(sum[at(k)] + s.seat(i).tokens[at(k)]);
    if (sum != detail::starting_supply(s.players)) fail("tokens are not conserved");
    for (int k = 0; k < token_kinds; ++k) {
        if (s.supply[at(k)] < 0) fail("a negative pile in the bank");
        for (int i = 0; i < s.players; ++i)
            if (s.seat(i).tokens[at(k)] < 0)
                fail("a negative count in seat " + std::to_string(i) + "'s hand");
    }

    // Cards: each id exactly once in the decks, rows, reserves and seats' bought cards.
    std::array<bool, card_count> seen{};
    auto see = [&](int id, int level, const char* where) {
        if (id < 0 || id >= card_count) {
            fail(std::string("a card id out of range in ") + where);
            return;
        }
        if (seen[at(id)]) fail("card #" + std::to_string(id) + " twice");
        seen[at(id)] = true;
        if (level > 0 && card(id).level != level)
            fail("card #" + std::to_string(id) + " at the wrong level in " + where);
    };
    for (int l = 0; l < levels; ++l) {
        int size = s.deck_size[at(l)];
        if (size < 0 || size > largest_deck) {
            fail("deck size out of range");
            continue;
        }
        for (int i = 0; i < largest_deck; ++i) {
            auto id = s.decks[at(l)][at(i)];
            if (i < size)
                see(id, l + 1, "a deck");
            else if (id != -1)
                fail("a stale card below a deck's top");
        }
        for (auto id : s.rows[at(l)]) {
            if (id >= 0)
                see(id, l + 1, "a row");
            else if (size > 0)
                fail("an empty row slot while its deck has cards");
        }
    }
    int nobles_out = std::popcount(s.nobles);
    std::uint16_t nobles_held = 0;
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seat(i);
        const std::string who = "seat " + std::to_string(i);
        if (p.reserved_count < 0 || p.reserved_count > max_reserved) {
            fail(who + " holds a wrong number of reserved cards");
            continue;
        }
        for (int r = 0; r < max_reserved; ++r) {
            const Reserved& res = p.reserved[at(r)];
            if (r < p.reserved_count)
                see(res.card, 0, "a reserve");
            else if (res != Reserved{})
                fail(who + " has a stale reserved card");
        }
        // The cards it bought make its bonuses, its card count and (with its nobles) its points.
        if (p.bought[1] >> (card_count - 64) != 0) fail(who + " bought a card id out of range");
        int card_points = 0, count = 0;
        Colours bonuses{};
        for (int id = 0; id < card_count; ++id)
            if (bought_card(p, id)) {
                see(id, 0, "a seat's bought cards");
                card_points += card(id).points;
                ++bonuses[at(card(id).bonus)];
                ++count;
            }
        if (p.nobles & s.nobles) fail(who + " holds a noble still on the table");
        if (p.nobles & nobles_held) fail("two seats hold the same noble");
        nobles_held = static_cast<std::uint16_t>(nobles_held | p.nobles);
        nobles_out += std::popcount(p.nobles);
        int noble_points = 0;
        for (int id = 0; id < noble_count; ++id)
            if (p.nobles >> id & 1u) noble_points += noble(id).points;
        if (p.cards != count) fail(who + "'s card count is not its bought cards'");
        if (p.bonuses != bonuses) fail(who + "'s bonuses are not its bought cards' colours");
        if (p.points != card_points + noble_points)
            fail(who + "'s points are not its bought cards' and nobles' points");
        // A game may end mid-return: the last seat still in wins when the others concede.
        bool may_exceed =
            p.out || (i == s.current && (s.phase == Phase::Return || s.phase == Phase::Over));
        if (!may_exceed && total(p.tokens) > max_tokens) fail(who + " holds more than 10 tokens");
    }
    for (int i = s.players; i < max_players; ++i)
        if (s.seat(i) != Player{})
            fail("seat " + std::to_string(i) + " is not in the game, yet not empty");
    for (int id = 0; id < card_count; ++id)
        if (!seen[at(id)]) {
            fail("cards are not conserved (card #" + std::to_string(id) + " is nowhere)");
            break;
        }
    if (nobles_out != s.players + 1) fail("nobles are not conserved");

    if (s.players == 2 && (s.seat(0).out || s.seat(1).out))
        fail("a seat out with 2 players (the other wins)");
    if (s.phase != Phase::Over && detail::seats_in(s) < 2)
        fail("one seat left, yet the game goes on");
    if (s.current < 0 || s.current >= s.players)
        fail("nobody to play");
    else if (s.phase != Phase::Over && s.seat(s.current).out)
        fail("the seat to play is out");
    if ((s.phase == Phase::Over) != (s.winners != 0)) fail("game over and winners disagree");
    if (s.phase == Phase::Confirm && !s.confirm_turns) fail("waiting for end turn without confirm");
    if (s.phase == Phase::Return && total(s.seat(s.current).tokens) <= max_tokens)
        fail("returning tokens with 10 or fewer");
    return e;
}

}  // namespace splendor
