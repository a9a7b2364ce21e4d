#pragma once
// The Splendor engine's public face: create a game, ask who decides and what they may do,
// apply a step, read the result. One generator (`legal_steps`) is the only authority. No I/O,
// no clocks: all randomness comes from the seed, at setup (the decks' order).

#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor {

/// Everything needed to start a game.
struct Settings {
    int players = 2;         ///< 2, 3 or 4
    int start_player = 0;    ///< the seat that plays first
    std::uint64_t seed = 0;  ///< shuffles the decks and draws the nobles
    /// A turn that could end waits in Phase::Confirm for an EndTurn step (so its last step can
    /// still be taken back: docs/protocol.md, "Taking back a step").
    bool confirm_turns = false;
};

/// The first problem with `settings`, in words.
std::optional<std::string> validate(const Settings& settings);

/// A new game at its first turn: tokens by player count, decks shuffled, four face-up cards a
/// level, players + 1 nobles. Or why the settings are refused.
std::variant<State, std::string> new_game(const Settings& settings);

/// The seat that must decide now; -1 once the game is over.
int decider(const State& state);

/// Fills `out` with every legal step for the decider, in a fixed order. Empty exactly when the
/// game is over; when no action is possible the one step is Pass; in Phase::Confirm the one
/// step is EndTurn. Never Undo (the protocol offers it).
void legal_steps(const State& state, StepList& out);

/// Applies a step that `legal_steps` listed (asserted in debug builds), then everything
/// automatic up to the next decision: the row refilled, a single earned noble received, the
/// turn ended, the round and the game ended (with confirm_turns the turn stops in
/// Phase::Confirm instead, and EndTurn does the rest).
void apply_step(State& state, const Step& step);

/// True if `step`, played from `before` to `after`, can no longer be taken back, nor any step
/// before it (docs/protocol.md, "Taking back a step"): EndTurn, the turn passed, the game over,
/// a card seen that was hidden (a deck's top reserved; a face-up card reserved or bought while
/// its deck refills the slot; a blind reserve bought). A take, a return, a noble chosen, a pass
/// and a face-up card taken from a row whose deck is empty stay undoable (docs/rulings.md,
/// UP1-UP3).
bool closes_undo(const State& before, const Step& step, const State& after);

/// Applies `step` if it is legal; otherwise leaves the state unchanged and says why.
std::optional<std::string> try_step(State& state, const Step& step);

/// `seat` resigns or runs out of time. 2 players: the other seat wins. 3-4 players: the seat is
/// out (its holdings stay out of play, docs/rulings.md); the last seat still in wins; if it was
/// its turn, the next seat still in plays. Returns why not (game over, seat already out),
/// changing nothing.
std::optional<std::string> concede(State& state, int seat);

/// The seats that won (bits); 0 while the game goes on.
inline std::uint8_t winners(const State& state) { return state.winners; }

/// Finishing places by seat once the game is over (1 = won; then by points, then fewest cards;
/// equal standing, equal place; seats out after every seat still in, the last to go out
/// first is not known here, so out seats share the place after the others).
std::array<int, max_players> places(const State& state);

/// Checks every invariant (token and card conservation, points = cards' + nobles' points,
/// bonuses = cards bought by colour, at most 3 reserved, hands at most 10 outside Return);
/// empty when all hold.
std::string check_invariants(const State& state);

}  // namespace splendor
