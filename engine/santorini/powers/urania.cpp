// Urania, Muse of Astronomy. Your Turn: when your Worker moves or builds, treat opposite edges
// and corners as if they are adjacent so that every space has 8 neighbors.
// The core asks `neighbors_of` of the turn seat's powers only (neighbors_for), so the board
// wraps for her own moves and builds, never for her opponents' (their generators ask
// neighbors_for on their turn). Rulings W1 (a move across the wrap has the direction of its
// step over the edge: Aeolus and Harpies read it so) and W8 (what does not wrap).
#include "engine/santorini/powers/powers.hpp"
#include "engine/santorini/powers/torus.hpp"

namespace santorini::powers {
namespace {
Bitboard wrapped_neighbors(const State&, int, Square sq) { return torus_neighbors(sq); }
}  // namespace

const PowerRules urania{.neighbors_of = wrapped_neighbors};

}  // namespace santorini::powers
