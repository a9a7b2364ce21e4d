// Limus, Goddess of Famine. Opponent's Turn: opponent workers cannot build on spaces
// neighbouring your workers, unless building a dome to create a Complete Tower.
// Ruling: the exception is only a dome on height 3 (an Atlas dome lower down is refused); it
// binds every build of an opponent's worker, before moving (Prometheus), under itself (Zeus),
// at the end of the turn (Poseidon) and Medusa's builds on captured workers; a teammate is not
// bound. "Opponent Workers" are told by their owner, not by whose turn it is (C11): her own
// worker that Dionysus moves in his additional turn builds freely.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool no_build_beside_limus(const State& s, int seat, int mover, const Step& b) {
    if (!opponents(s, seat, mover) || s.worker(b.worker).side == s.seat(seat).side) return true;
    if (b.kind == StepKind::Dome && s.board.height(b.to) == 3) return true;
    return !(neighbors(b.to) & s.side_squares(s.seat(seat).side));
}
}  // namespace

// no_build_beside_limus judges the build's own space and his workers: after the builds of a
// turn, only builds on spaces where workers stood (Medusa's) can come.
const PowerRules limus{.may_build = no_build_beside_limus, .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
