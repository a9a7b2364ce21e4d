#pragma once
// Shared by the Splendor protocol tests: random games through the real engine, with a bias
// towards buying so that games reach nobles, the final round and their end in a few dozen
// turns, and now and then a reserve from a deck (the hidden card the views must keep hidden).

#include <cstdint>
#include <random>
#include <variant>
#include <vector>

#include "engine/splendor/game.hpp"

namespace splendor_test {

/// A new game; empty optional-like: check `ok`.
inline splendor::State new_state(int players, int start_player, std::uint64_t seed) {
    auto r = splendor::new_game({.players = players, .start_player = start_player, .seed = seed});
    return std::get<splendor::State>(r);
}

/// A legal step of `legal`, drawn with a bias: a buy when there is one (most of the time),
/// else a reserve from a deck now and then, else anything.
inline splendor::Step pick(const splendor::StepList& legal, std::mt19937_64& rng) {
    using splendor::StepKind;
    std::vector<const splendor::Step*> buys, blind;
    for (const auto& s : legal) {
        if (s.kind == StepKind::Buy) buys.push_back(&s);
        if (s.kind == StepKind::Reserve && s.card < 0) blind.push_back(&s);
    }
    const auto roll = rng() % 100;
    if (!buys.empty() && roll < 75) return *buys[rng() % buys.size()];
    if (!blind.empty() && roll >= 90) return *blind[rng() % blind.size()];
    return legal[rng() % legal.size()];
}

/// A game as a list of states: states[i + 1] is states[i] after steps[i].
struct Game {
    std::vector<splendor::State> states;
    std::vector<splendor::Step> steps;
};

inline Game play_random(int players, std::uint64_t seed, int max_steps = 3000) {
    Game g;
    g.states.push_back(new_state(players, static_cast<int>(seed % static_cast<std::uint64_t>(players)), seed));
    std::mt19937_64 rng(seed);
    splendor::StepList legal;
    for (int i = 0; i < max_steps && splendor::decider(g.states.back()) >= 0; ++i) {
        legal.clear();
        splendor::legal_steps(g.states.back(), legal);
        if (legal.empty()) break;
        const splendor::Step step = pick(legal, rng);
        splendor::State next = g.states.back();
        splendor::apply_step(next, step);
        g.steps.push_back(step);
        g.states.push_back(next);
    }
    return g;
}

}  // namespace splendor_test
