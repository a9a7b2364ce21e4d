// Atalanta, Swift Huntress (hero). Your Move: Once, your Worker moves any number of additional
// times.
// Rulings (RULES.md "Heroes"; docs/rulings.md HA3): after its move the same worker may move
// again, each a normal move (up at most one level; a win is checked after each), as often as
// she likes, to any square, her starting one included; only a move that repeats a whole state
// of the turn is stopped, by the core's loop guard (as for Triton). The second move of the
// turn spends the power; the moves of that turn go on (Turn::moves is 2 from then on: no other
// power moves her workers twice in her turn, so "two or more moves" is the use in progress).
// Each further move is optional: the build ends them. Perft counts paths and explodes on open
// boards like Hermes' (docs/engine.md 8): compare her with --distinct.
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void move_again(const State& s, int seat, StepList& out) {
    int w = s.turn.worker;
    if (w < 0 || s.turn.moves == 0 || s.worker(w).square == no_square) return;
    if (s.turn.moves == 1 && hero_spent(s, card_seat(s, seat, PowerId::Atalanta))) return;
    add_normal_moves(s, w, out);
}

// Judged before the move: a move after the first is the use, the winning one too.
bool is_further_move(const State& s, int, const Step& st) {
    return st.kind == StepKind::Move && s.turn.moves >= 1;
}
}  // namespace

const PowerRules atalanta{.after_move_steps = move_again, .hero_use = is_further_move};

}  // namespace santorini::powers
