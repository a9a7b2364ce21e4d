// The whole-state consistency check (Stockfish's pos_is_ok): run by tests after every step.
// Which cards a seat bought is not kept in the state, so the points and bonuses of bought
// cards are checked in total over the seats: the cards nowhere else are the cards bought.

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

    // Cards: each id at most once in the decks, rows and reserves; the rest were bought.
    std::array<bool, card_count> seen{};
    int placed = 0;
    auto see = [&](int id, int level, const char* where) {
        if (id < 0 || id >= card_count) {
            fail(std::string("a card id out of range in ") + where);
            return;
        }
        if (seen[at(id)]) fail("card #" + std::to_string(id) + " twice");
        seen[at(id)] = true;
        ++placed;
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
    int bought = 0, noble_points = 0, nobles_out = std::popcount(s.nobles);
    Colours bonuses{};
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
        if (p.nobles & s.nobles) fail(who + " holds a noble still on the table");
        if (p.nobles & nobles_held) fail("two seats hold the same noble");
        nobles_held = static_cast<std::uint16_t>(nobles_held | p.nobles);
        nobles_out += std::popcount(p.nobles);
        for (int id = 0; id < noble_count; ++id)
            if (p.nobles >> id & 1u) noble_points += noble(id).points;
        if (total(p.bonuses) != p.cards) fail(who + "'s bonuses do not match its cards");
        for (int c = 0; c < gem_colours; ++c)
            bonuses[at(c)] = static_cast<std::int8_t>(bonuses[at(c)] + p.bonuses[at(c)]);
        bought += p.cards;
        // A game may end mid-return: the last seat still in wins when the others concede.
        bool may_exceed =
            p.out || (i == s.current && (s.phase == Phase::Return || s.phase == Phase::Over));
        if (!may_exceed && total(p.tokens) > max_tokens) fail(who + " holds more than 10 tokens");
    }
    if (placed + bought != card_count) fail("cards are not conserved");
    int card_points = 0;
    Colours bought_bonuses{};
    for (int id = 0; id < card_count; ++id)
        if (!seen[at(id)]) {
            card_points += card(id).points;
            ++bought_bonuses[at(card(id).bonus)];
        }
    int points = 0;
    for (int i = 0; i < s.players; ++i) points += s.seat(i).points;
    if (points != card_points + noble_points)
        fail("points are not the bought cards' and nobles' points");
    if (bonuses != bought_bonuses) fail("bonuses are not the bought cards' colours");
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
    if (s.phase == Phase::Return && total(s.seat(s.current).tokens) <= max_tokens)
        fail("returning tokens with 10 or fewer");
    return e;
}

}  // namespace splendor
