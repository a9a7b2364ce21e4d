// Dionysus, God of Wine. Your Build: each time a worker you control creates a Complete Tower,
// you may take an additional turn using an opponent worker instead of your own. No player can
// win during these additional turns.
// Rulings (docs/rulings.md C9-C13, C27): a Complete Tower is created by a dome on level 3 (a
// block never completes one); the additional turns come right after the turn that earned them,
// one per tower, and towers made in them earn more; in one the mover moves and builds with any
// one opponent worker (3 players: of either opponent), or passes to decline it (a declined
// turn is not played: no "if possible" demand binds it); cards restricting "opponent Workers"
// bind that worker by its owner (Limus' own worker builds next to her, their own hooks see to
// it); nobody wins in it, neither by moving nor by a standing win (Chronus wins when the next
// turn starts). The card's Card::counter holds the turns still owed, the current one included:
// it drops when an extra turn ends, so a position at an extra turn's start (notation
// `extra_turn=1`) reads back as is.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
std::uint8_t& owed(State& s, int seat) {
    return s.card(card_seat(s, seat, PowerId::Dionysus)).counter;
}
bool extra_turn(const State& s) {
    return (s.turn.flags & turn_flag::extra_turn) != 0;
}

// After each of his steps: a Complete Tower earns an additional turn; his Pass before anything
// was done in an additional turn declines it, so it is not played and nothing is demanded of it
// (Persephone's "at least one Worker must move up this turn").
void after_his_step(State& s, int seat, const Step& st) {
    if (st.kind == StepKind::Dome && s.board.height(st.to) == 3 && owed(s, seat) < 255)
        ++owed(s, seat);
    if (st.kind == StepKind::Pass && extra_turn(s) && s.turn.worker < 0)
        s.turn.flags |= turn_flag::declined;
}

bool owes_a_turn(const State& s, int seat, int mover) {
    return mover == seat && s.card(card_seat(s, seat, PowerId::Dionysus)).counter > 0;
}

void paid(State& s, int seat) {
    if (extra_turn(s) && owed(s, seat) > 0) --owed(s, seat);
}

// The additional turn moves one opponent worker, whichever moves first.
void opponent_workers(State& s, int seat, int mover) {
    if (mover != seat || !extra_turn(s)) return;
    s.turn.movable = 0;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side != s.seat(seat).side && s.worker(w).square != no_square)
            s.turn.movable |= std::uint32_t{1} << w;
}

// "May": the additional turn can be declined (the Pass goes to the turn's end, after_his_step
// marks it declined).
void decline(const State& s, int, StepList& out) {
    if (extra_turn(s) && s.turn.worker < 0) out.push_back(Step::pass());
}

WinVeto no_win_by_move(const State& s, int, int, const Step&) {
    return extra_turn(s) ? WinVeto::Deny : WinVeto::Allow;
}
bool no_standing_win(const State& s, int, int) {
    return extra_turn(s);
}
}  // namespace

const PowerRules dionysus{
    .begin_steps = decline,
    .after_step = after_his_step,
    .own_turn_end = paid,
    .takes_extra_turn = owes_a_turn,
    .on_turn_start = opponent_workers,
    .win_veto = no_win_by_move,
    .denies_standing_win = no_standing_win,
    .after_step_kinds = step_kind_bit(StepKind::Dome) | step_kind_bit(StepKind::Pass),
    // after_his_step counts towers, and declines only before anything was moved
    .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
