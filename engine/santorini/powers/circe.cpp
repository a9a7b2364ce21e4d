// Circe, Divine Enchantress. Start of Your Turn: if an opponent's workers do not neighbor each
// other, you alone have use of their power until your next turn.
// Rulings (RULES.md, docs/rulings.md C14-C18): at the start of each of her turns she first gives
// back what she holds, then takes the opponent's card if no two of the opponent's workers on
// the board neighbour each other (one worker alone neighbours nobody). The owner has no power
// while she holds it; the card keeps its state (Morpheus' pieces, Chaos' deck) on its owner's
// seat. A hero is never taken (only its owner may use it). Her check does not run at the start
// of an additional turn (Dionysus): that turn belongs to the turn that earned it. It runs in
// before_turn_start, so the card taken or given back has its turn-start hooks run for its new
// holder in the same turn.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
bool workers_apart(const State& s, int side) {
    Bitboard squares = s.side_squares(side);
    for (Bitboard b = squares; b;)
        if (neighbors(pop_first(b)) & squares) return false;
    return true;
}

void enchant(State& s, int seat, int mover) {
    if (mover != seat || (s.turn.flags & turn_flag::extra_turn)) return;
    for (int j = 0; j < s.seat_count; ++j) {
        if (!opponents(s, seat, j)) continue;
        auto& holder = s.holder[static_cast<std::size_t>(j)];
        holder = static_cast<std::int8_t>(j);
        PowerId p = s.seat(j).power;
        if (s.seat(j).out || p == PowerId::None || power_info(p).category == PowerCategory::Hero)
            continue;
        if (workers_apart(s, s.seat(j).side)) holder = static_cast<std::int8_t>(seat);
    }
}
}  // namespace

const PowerRules circe{.before_turn_start = enchant};

}  // namespace santorini::powers
