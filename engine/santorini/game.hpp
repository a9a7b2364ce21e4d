#pragma once
// The engine's public face: create a game from settings, ask who decides and what they may do,
// apply a step, read the result. One generator (`legal_steps`) is the only authority.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/santorini/result.hpp"
#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini {

/// Everything needed to start a game. Validated by `new_game`.
struct Settings {
    int players = 2;                          ///< 2, 3 or 4 (4 = two teams of two)
    DraftMode draft = DraftMode::None;        ///< how powers are dealt
    std::vector<PowerId> pool;                ///< powers the draft may use (empty: every eligible, implemented one)
    std::vector<PowerId> powers;              ///< DraftMode::Fixed: one power per seat
    bool golden_fleece = false;               ///< 2 players; one power beside the board, held via the Ram
    int challenger = 0;                       ///< seat of the Challenger (draft, start player)
    int start_player = -1;                    ///< seat that places first; -1: the challenger names it
    int subset_size = 0;                      ///< SubsetOffer: size of the random subset (0: 2 x powers needed)
    std::uint64_t seed = 0;                   ///< all randomness of the game comes from here
    /// A turn that could end waits in Phase::Confirm for an EndTurn step (so its last step can
    /// still be taken back: docs/protocol.md, "Taking back a step").
    bool confirm_turns = false;
    /// The handicap game (2 players): this seat gets a hero and the other a god, from `pool`
    /// (dealt, offered and chosen by kind); -1: no handicap.
    int hero_seat = -1;
};

/// The powers a pool may hold for these settings: right player count, Golden Fleece icon when
/// needed, implemented, and heroes only in 2-player games without the fleece.
std::vector<PowerId> eligible_powers(int players, bool golden_fleece);

/// Checks settings against the rules data; the first problem found, in words.
std::optional<std::string> validate(const Settings& settings);

/// A new game in its first decision point (draft, placement, or the first turn).
Result<State> new_game(const Settings& settings);

/// The seat that must decide now; -1 once the game is over.
int decider(const State& state);

/// Fills `out` with every legal step for the decider. A step is listed only if the turn can
/// still be completed after it. Empty exactly when the game is over.
void legal_steps(const State& state, StepList& out);

/// Applies a step that `legal_steps` listed (asserted in debug builds). Then runs everything
/// automatic up to the next decision: end of turn, next seat, a loss for a seat with no turn.
void apply_step(State& state, const Step& step);

/// Applies `step` if it is legal; otherwise leaves the state unchanged and says why.
std::optional<std::string> try_step(State& state, const Step& step);

/// True once the draft and placement are done and turns are being played.
bool in_play(const State& state);

/// `seat` resigns or runs out of time: it loses as if it had no legal turn (2 players and
/// teams: the game ends; 3 players: it is eliminated and, if it was its turn, the next seat
/// starts; on another seat's turn that turn goes on without it, docs/rulings.md 15, so the game
/// is then over or its decider has a legal step). Only while turns are played (`in_play`) and
/// the seat is still in; otherwise nothing changes and the reason is returned.
std::optional<std::string> concede(State& state, int seat);

/// The seats that won (bits); 0 while the game goes on.
inline std::uint8_t winners(const State& state) { return state.winners; }

/// Counts the turns completed (incremented when a turn ends); with the turn number it tells
/// whether a step ended the turn.
inline bool same_turn(const State& a, const State& b) {
    return a.turn.number == b.turn.number && a.phase != Phase::Over && b.phase != Phase::Over;
}

/// The side (owner of workers) a seat plays: the seat itself, or its team with 4 players.
inline int side_of_seat(const State& state, int seat) { return state.seat(seat).side; }

/// Checks every invariant of a state (debug aid and random-play tests); empty when all hold.
std::string check_invariants(const State& state);

}  // namespace santorini
