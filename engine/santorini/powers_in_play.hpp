#pragma once
// Internal to the core (rules.cpp, kit.cpp): walking the powers in effect, in a fixed order.

#include "engine/santorini/power_rules.hpp"

namespace santorini::detail {

// The powers `seat` uses this turn (powers_in_effect), in order.
template <class F>
void for_each_power(const State& s, int seat, F&& f) {
    ActivePowers act = powers_in_effect(s, seat);
    for (int i = 0; i < act.size; ++i) f(rules_of(act.ids[i]));
}

// Every power in play, with the seat using it.
template <class F>
void for_each_power_in_play(const State& s, F&& f) {
    for (int o = 0; o < s.seat_count; ++o)
        if (!s.seat(o).out) for_each_power(s, o, [&](const PowerRules& r) { f(o, r); });
}

// Every card in the game with the seat whose card it is, whoever holds it: each seat's own
// card while the seat is in; with the Golden Fleece the one card beside the board (seat 0).
template <class F>
void for_each_card(const State& s, F&& f) {
    if (s.setup.golden_fleece) {
        if (s.fleece_power != PowerId::None) f(0, rules_of(s.fleece_power));
        return;
    }
    for (int j = 0; j < s.seat_count; ++j)
        if (!s.seat(j).out && s.seat(j).power != PowerId::None) f(j, rules_of(s.seat(j).power));
}

}  // namespace santorini::detail
