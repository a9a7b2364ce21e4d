#pragma once
// What Morpheus' card shows: the builds stored on it.

#include "engine/santorini/state.hpp"

namespace santorini::powers {

/// The pieces on Morpheus' card lying on seat `card`: the stored count, plus this turn's piece
/// while the turn of the seat using that card lasts (the card gains it as the turn starts; the
/// engine counts it from the turn itself, Turn::extra = pieces spent).
int morpheus_pieces(const State& state, int card);

}  // namespace santorini::powers
