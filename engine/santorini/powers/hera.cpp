// Hera, Goddess of Marriage. Opponent's Turn: an opponent cannot win by moving into a
// perimeter space. Ruling (A1): the move stays legal and simply does not win; this covers
// every win by a move (up onto level 3, Pan's drop, Eros' pair), not a standing win (Chronus).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
WinVeto no_perimeter_win(const State& s, int seat, int mover, const Step& m) {
    return opponents(s, seat, mover) && (perimeter & bit(m.to)) ? WinVeto::Deny : WinVeto::Allow;
}
}  // namespace

const PowerRules hera{.win_veto = no_perimeter_win};

}  // namespace santorini::powers
