#pragma once
// Two simple Splendor players to measure the bot against (splendor-selfplay, docs/bot.md).
// Both read only what every seat may see of the state, plus the decider's own reserves.

#include <cstdint>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor::bot {

/// A legal step of the decider, uniformly at random from `rng`. The game must not be over.
Step random_step(const State& state, std::uint64_t& rng);

/// The one-ply greedy player: buys the affordable card (face-up or reserved) with the most
/// points, paying the default way (ties: fewest tokens paid, then the generator's order);
/// otherwise takes the gems that most reduce what it lacks for its nearest card (the face-up
/// or reserved card with the fewest tokens short after bonuses and gold; ties: more gems, then
/// the generator's order); with no take possible it reserves the first card listed, else
/// passes. It returns the colour it holds most beyond what its nearest card costs after
/// bonuses, gold last, and takes the first noble offered. The game must not be over.
Step greedy_step(const State& state);

}  // namespace splendor::bot
