#pragma once
// A determinization: one full State the seat's view could have come from. The hidden cards (the
// order of every deck, the cards other seats reserved blind) are dealt from the cards the
// seat has not seen, level by level. What the view does not say at all (which cards each seat
// bought, the run of passes) is left empty: the search never reads it (docs/bot.md).

#include <cstdint>

#include "engine/splendor/state.hpp"
#include "engine/splendor/view.hpp"

namespace splendor::bot {

/// A State consistent with `seat_view` (a seat's view): every visible field copied, each
/// deck and each blind reserve the view hides dealt at random (from `rng`) from the cards of
/// its level that the view does not show; no seat's bought cards are recorded, `passes` is 0 and
/// turns never wait for EndTurn. Its legal steps are those of the true game.
State determinize(const View& seat_view, std::uint64_t& rng);

}  // namespace splendor::bot
