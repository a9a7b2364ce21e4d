// Chronus, God of Time. Win Condition: you also win when there are at least five Complete
// Towers on the board.
// Rulings: a standing win, checked after every step (anyone's) and at every turn start; only
// Dionysus' "no player can win during these additional turns" holds it back, and then Chronus
// wins when the next turn starts (docs/rulings.md C1, C2).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool five_towers(const State& s, int) {
    return s.board.complete_towers() >= 5;
}
}  // namespace

// Only a dome completes a tower (Board::add_dome, from Dome steps).
// five_towers reads the board, but turns true only after domes, which the core does not share.
const PowerRules chronus{.wins_now = five_towers,
                         .rest_of_turn_ignores_builds = true,
                         .wins_now_after_kinds = step_kind_bit(StepKind::Dome)};

}  // namespace santorini::powers
