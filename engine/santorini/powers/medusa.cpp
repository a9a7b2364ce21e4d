// Medusa, Petrifying Gorgon. End of Your Turn: if possible, your workers build in lower
// neighbouring spaces that are occupied by opponent workers, removing the opponent workers
// from the game.
// Rulings (RULES.md; docs/rulings.md B6): mandatory; each opponent worker on a strictly lower
// neighbouring space of one of her workers is removed and a block is built in its space, one
// Capture step each ("capture C3 D4", her worker first), applied by the core, the block by
// her after_step. "If possible": a build that a power forbids (Limus) or a space she treats as
// a dome (Clio's coin, T16) is not made, and that worker stays. Only the first possible capture is listed (her lowest worker index, then the
// victim's), so a turn's captures form one sequence; removing a worker only ever allows more
// builds (Limus' own), so the order never changes which workers go.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
// The first capture possible now, if any.
bool first_capture(const State& s, int seat, Step& out) {
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& gorgon = s.worker(w);
        if (gorgon.side != side || gorgon.square == no_square) continue;
        for (int v = 0; v < s.worker_count; ++v) {
            Square at = s.worker(v).square;
            if (at == no_square || !opponent_worker_on(s, seat, at) ||
                !(neighbors(gorgon.square) & bit(at)))
                continue;
            if (s.board.height(at) >= s.board.height(gorgon.square)) continue;
            // A space she treats as a dome (Clio's coin under the worker) takes no build (T16).
            if (dome_like(s, seat) & bit(at)) continue;
            if (!build_allowed(s, s.turn.seat, Step::build(w, gorgon.square, at))) continue;
            out = Step{StepKind::Capture, static_cast<std::int8_t>(w), gorgon.square, at,
                       static_cast<std::int8_t>(v)};
            return true;
        }
    }
    return false;
}

void petrify(const State& s, int seat, StepList& out) {
    Step c;
    if (first_capture(s, seat, c)) out.push_back(c);
}

// The core removed the worker; Medusa builds in its space.
void build_on_the_stone(State& s, int, const Step& st) {
    if (st.kind == StepKind::Capture) s.board.add_block(st.to);
}

// No end of her turn while a capture is still possible (End phase only: see docs/engine.md 3.1).
bool all_petrified(const State& s, int seat, int mover) {
    Step c;
    return mover != seat || s.phase != Phase::End || !first_capture(s, seat, c);
}
}  // namespace

const PowerRules medusa{
    .end_steps = petrify,
    .after_step = build_on_the_stone,
    .may_end_turn = all_petrified,
    .after_step_kinds = step_kind_bit(StepKind::Capture),  // build_on_the_stone: captures only
    .moves_no_worker_after_moving = true,
    // petrify lists the first capture only and all_petrified refuses the Pass while one is left
    .end_steps_one_way = true,
    // first_capture: the heights of spaces where workers stand (a build is never under one),
    // Limus' judgement of a build there; each capture's block goes where a worker stood
    .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
