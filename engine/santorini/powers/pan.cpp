// Pan, God of the Wild. Win Condition: you also win if your worker moves down two or more
// levels. Ruling: in one move, and moved (a forced worker does not move).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool long_drop(const State& s, int, const Step& m, int from_height) {
    return from_height - s.board.height(m.to) >= 2;
}
}  // namespace

const PowerRules pan{.wins_by_move = long_drop};

}  // namespace santorini::powers
