#pragma once
// How a power plugs into the one step generator: a table of optional hooks. The core turn
// (rules.cpp) asks the powers in effect at fixed points; a power fills in only what its card
// changes. docs/engine.md maps all 55 powers onto these hooks.

#include <cstdint>

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini {

/// A power's hooks. Every member may be null. "seat" is always the seat holding the power.
/// Generators only add candidates; the core filters them through the restrictions of every
/// power in effect and through the turn-completion rule, so a hook never checks either.
struct PowerRules {
    // ---- the owner's own turn ----
    /// Begin phase: steps besides the normal moves (Prometheus' build before moving, Hermes'
    /// build without moving, Charon's force, a hero's once-per-game action).
    void (*begin_steps)(const State&, int seat, StepList&) = nullptr;
    /// Move candidates beyond the normal ones for `worker` (Apollo's swap, Minotaur's push).
    /// Called wherever the core generates normal moves for that worker.
    void (*extra_moves)(const State&, int seat, int worker, StepList&) = nullptr;
    /// AfterMove phase: further moves (Artemis, Hermes' travel, Triton).
    void (*more_moves)(const State&, int seat, StepList&) = nullptr;
    /// AfterMove phase: the workers (bits of worker indices) that may build; without this hook
    /// the worker that moved builds. (Hermes after travelling, Graeae.)
    std::uint32_t (*builders)(const State&, int seat) = nullptr;
    /// Build candidates beyond the normal ones for `worker` (Atlas' domes, Zeus under itself).
    void (*extra_builds)(const State&, int seat, int worker, StepList&) = nullptr;
    /// AfterBuild phase: optional further builds (Demeter, Hephaestus, Hestia). The core adds a
    /// Pass when this offers anything.
    void (*more_builds)(const State&, int seat, StepList&) = nullptr;
    /// End phase: optional end-of-turn steps (Ares, Poseidon, Aeolus...). The core adds a Pass.
    void (*end_steps)(const State&, int seat, StepList&) = nullptr;
    /// After the core applied one of the owner's steps: power-specific effects and memory.
    void (*after_step)(State&, int seat, const Step&) = nullptr;
    /// Extra ways the owner wins by a move (Pan); `from_height` is the mover's height before.
    bool (*wins_by_move)(const State&, int seat, const Step&, int from_height) = nullptr;
    /// When the owner's turn ends (before the next seat starts): remember what the card needs.
    void (*own_turn_end)(State&, int seat) = nullptr;

    // ---- restrictions on opponents (checked for every seat not on the owner's side) ----
    /// May the mover make this move? (Athena: no moving up; Hades: no moving down.)
    bool (*opponent_may_move)(const State&, int seat, const Step&) = nullptr;
    /// May the mover make this build? (Limus.)
    bool (*opponent_may_build)(const State&, int seat, const Step&) = nullptr;
    /// May the mover win by this move? (Hera.)
    bool (*opponent_may_win)(const State&, int seat, const Step&) = nullptr;
};

/// The hooks of a power (an empty table for None and for powers not yet implemented).
const PowerRules& rules_of(PowerId id);

/// The powers in effect for a seat this turn: its own card (unless out) and the Golden Fleece
/// power while it touches the Ram. At most two.
struct ActivePowers {
    PowerId ids[2] = {PowerId::None, PowerId::None};
    int size = 0;
};
ActivePowers powers_in_effect(const State& state, int seat);

// ---- the kit: core rules that powers build on ----

/// Squares no worker may enter and nobody may build on: domes, the Ram (and later tokens
/// treated as domes).
Bitboard dome_like(const State& state);
/// Squares that are occupied: workers and dome-like squares.
inline Bitboard occupied(const State& state) { return state.worker_squares() | dome_like(state); }
/// True if seats a and b play against each other (different sides).
inline bool opponents(const State& state, int a, int b) { return state.seat(a).side != state.seat(b).side; }
/// True if the worker on `s` belongs to an opponent of `seat`.
bool opponent_worker_on(const State& state, int seat, Square s);
/// Adds the normal moves of `worker` (one step to an unoccupied neighbour, at most one up).
void add_normal_moves(const State& state, int worker, StepList& out);
/// Adds the normal builds of `worker`: a block below height 3, a dome on height 3.
void add_normal_builds(const State& state, int worker, StepList& out, bool before_move = false);
/// The configuration key of the current mover's first two workers (see Turn::visited).
int configuration_key(const State& state);
/// True if a configuration was already passed through this turn.
inline bool visited(const State& state, int key) {
    return (state.turn.visited[static_cast<std::size_t>(key / 64)] >> (key % 64)) & 1u;
}
/// The key the configuration would have after `step` (a move of one worker).
int configuration_key_after(const State& state, const Step& step);

}  // namespace santorini
