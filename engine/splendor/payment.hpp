#pragma once
// Paying for a development card: what is owed after bonuses, and every way to hand it over.
// Internal to the engine (rules.cpp lists a Buy step per payment; tests use it too).

#include "engine/splendor/cards.hpp"
#include "engine/splendor/state.hpp"

namespace splendor {

/// What `player` owes for `card` by colour: its cost less the player's bonuses, never below 0.
inline Colours owed(const Player& player, const Card& card) {
    Colours o{};
    for (int c = 0; c < gem_colours; ++c) {
        auto u = static_cast<std::size_t>(c);
        int left = card.cost[u] - player.bonuses[u];
        o[u] = static_cast<std::int8_t>(left > 0 ? left : 0);
    }
    return o;
}

/// Calls `pay(Tokens)` once for every distinct way `player` can pay `owed` (nothing when it
/// cannot): exactly the owed count of each colour, each token of it a gem of that colour or a
/// gold. The first is the rulebook's default, gems first and gold only for the shortfall; then
/// every payment where gold also stands in for gems the player holds, each colour in turn
/// taking 0, 1, 2 ... more gold (white varying slowest). Never more than is owed.
template <class F>
void for_each_payment(const Player& player, const Colours& owed, F&& pay) {
    Tokens base{};  // gems first
    int shortfall = 0;
    for (int c = 0; c < gem_colours; ++c) {
        auto u = static_cast<std::size_t>(c);
        int gems = owed[u] < player.tokens[u] ? owed[u] : player.tokens[u];
        base[u] = static_cast<std::int8_t>(gems);
        shortfall += owed[u] - gems;
    }
    int spare = player.tokens[Gold] - shortfall;
    if (spare < 0) return;
    base[Gold] = static_cast<std::int8_t>(shortfall);
    // Depth-first over the colours: how many of that colour's gems gold replaces.
    auto walk = [&](auto&& self, int c, Tokens t, int spare_left) -> void {
        if (c == gem_colours) {
            pay(t);
            return;
        }
        auto u = static_cast<std::size_t>(c);
        for (int s = 0; s <= base[u] && s <= spare_left; ++s) {
            Tokens next = t;
            next[u] = static_cast<std::int8_t>(base[u] - s);
            next[Gold] = static_cast<std::int8_t>(t[Gold] + s);
            self(self, c + 1, next, spare_left - s);
        }
    };
    walk(walk, 0, base, spare);
}

}  // namespace splendor
