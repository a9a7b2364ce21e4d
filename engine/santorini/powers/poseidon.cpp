// Poseidon, God of the Sea. End of Your Turn: if your unmoved worker is on the ground level,
// it may build up to three times.
// Rulings (docs/rulings.md B4): each of the three builds is optional and a normal build of that
// worker (a block, or a dome on height 3), on the same or another neighbouring space; the
// worker must be on the ground when it builds (building never raises its own space). With
// more than one unmoved worker (not possible with two workers a side) each may build, three
// builds in all. His turn has one normal build, so Turn::builds - 1 counts the extra ones.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void unmoved_builds(const State& s, int seat, StepList& out) {
    if (s.turn.builds >= 4) return;
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side != side || wk.square == no_square || (s.turn.moved_workers >> w & 1u)) continue;
        if (s.board.height(wk.square) == 0) add_normal_builds(s, w, out);
    }
}
}  // namespace

const PowerRules poseidon{.end_steps = unmoved_builds, .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
