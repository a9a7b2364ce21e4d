#pragma once
// The players the bot is measured against (santorini-selfplay, tests): a uniformly random
// player, and the one-ply greedy player of docs/bot.md (wins when it can, else avoids giving the
// next player an immediate win, else random). They decide on the seat's view, like the bot.

#include <cstdint>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::bot {

/// A uniformly random legal step of `seat_view`'s decider; advances `rng`.
Step random_step(const State& seat_view, std::uint64_t& rng);

/// The greedy step: the first step of a turn completion that wins, else of one after which the
/// next seat to play has no winning turn, else a random one (setup steps: random). Turns with
/// huge step trees are explored up to caps (its own turn: 2,000 positions, unexplored first
/// steps counted unsafe; the replies: 30,000 positions, the replies beyond counted safe), so a
/// decision stays bounded. Advances `rng`.
Step greedy_step(const State& seat_view, std::uint64_t& rng);

/// True if the seat deciding in `state` (at the start of its turn) can win within this turn:
/// some completion of it ends the game with its side among the winners. Visits at most
/// `node_cap` positions (then answers what it found so far).
bool has_winning_turn(const State& state, long node_cap);

}  // namespace santorini::bot
