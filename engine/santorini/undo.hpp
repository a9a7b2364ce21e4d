#pragma once
// Which steps may be taken back (docs/protocol.md, "Taking back a step (undo) and confirming
// turns"; docs/rulings.md U1-). The engine keeps no history: the game's host remembers the
// states before the steps of the current turn (protocol/turn_undo.hpp) and asks here, after
// every step, whether the door is still open.

#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini {

/// True if `step`, applied to `before` with the result `after`, may not be taken back, and
/// with it nothing played before it. That is the case when:
/// - `before` is not a turn of play (the draft and worker placement: every step there is
///   another seat's information at once), or `step` is EndTurn;
/// - `after` is over, or the turn passed (its number or seat changed: a Dionysus extra turn
///   too), or a seat other than the mover decides next or decided this step (Gaea's interrupt):
///   another player has acted on, or may act on, what was played;
/// - the random state changed (Chaos drew a god): the draw may not be dealt again;
/// - with secrets in play, the truth answered the step differently from the mover's view: it
///   was cancelled (Hecate) or became the power's step on a hidden worker (Apollo's swap).
///   Either told the mover something hidden.
bool closes_undo(const State& before, const Step& step, const State& after);

}  // namespace santorini
