// Hypnus, God of Sleep. Start of Opponent's Turn: if one of your opponent's workers is higher
// than all of their others, it cannot move.
// Rulings (RULES.md, docs/rulings.md B1): "higher" is strict, so ties freeze nobody; a lone
// worker has no others to be higher than and is not frozen; reserve workers off the board do
// not count. The frozen worker may still build (Hermes without moving) and be forced. Turn::movable
// binds every move of the turn, whichever power generates it (Artemis, Hermes, Triton).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void put_highest_to_sleep(State& s, int seat, int mover) {
    if (!opponents(s, seat, mover)) return;
    int side = s.seat(mover).side, highest = -1, on_board = 0;
    bool tie = false;
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side != side || wk.square == no_square) continue;
        ++on_board;
        if (highest < 0 || s.board.height(wk.square) > s.board.height(s.worker(highest).square)) {
            highest = w;
            tie = false;
        } else if (s.board.height(wk.square) == s.board.height(s.worker(highest).square)) {
            tie = true;
        }
    }
    if (on_board >= 2 && !tie) s.turn.movable &= ~(std::uint32_t{1} << highest);
}
}  // namespace

const PowerRules hypnus{.on_turn_start = put_highest_to_sleep};

}  // namespace santorini::powers
