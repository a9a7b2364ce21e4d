// Theseus, Slayer of the Minotaur. End of Your Turn: once, if any of your Workers is exactly 2
// levels below any neighboring opponent Workers, remove one of those Workers from play.
// Rulings (docs/rulings.md HB12-HB13): one opponent worker leaves play (a Capture step, "capture
// C3 D4": his worker on C3, the victim on D4; the core removes it), chosen among those exactly
// two levels above a neighbouring worker of his; each victim is listed once, with his first
// worker below it. Optional (the core's Pass). A side left without a worker on the board loses
// at its turn start.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

void slayings(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Theseus);
    if (card < 0 || hero_spent(s, card)) return;
    int side = s.seat(seat).side;
    for (int v = 0; v < s.worker_count; ++v) {
        Square at = s.worker(v).square;
        if (at == no_square || !opponent_worker_on(s, seat, at)) continue;
        for (int w = 0; w < s.worker_count; ++w) {
            Square from = s.worker(w).square;
            if (s.worker(w).side != side || from == no_square || !(neighbors(from) & bit(at))) continue;
            if (s.board.height(at) - s.board.height(from) != 2) continue;
            out.push_back(Step{StepKind::Capture, static_cast<std::int8_t>(w), from, at, static_cast<std::int8_t>(v)});
            break;
        }
    }
}

bool is_capture(const State&, int, const Step& st) { return st.kind == StepKind::Capture; }

}  // namespace

const PowerRules theseus{.end_steps = slayings,
                         .hero_use = is_capture,
                         .moves_no_worker_after_moving = true,
                         // slayings: the heights of spaces where workers stand
                         .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
