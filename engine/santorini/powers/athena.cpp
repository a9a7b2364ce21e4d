// Athena, Goddess of Wisdom. Opponent's Turn: if one of your workers moved up on your last
// turn, opponent workers cannot move up this turn.
// Rulings (docs/rulings.md 8, C11, C26): "moved up" means moved, not was forced; it binds every
// opponent turn until the player's next turn ends (3 players: both opponents), and binds
// opponent workers by their owner (her own worker moved by Dionysus is free). The memory is
// the card's (Card::memory of its seat, whoever uses it): the last turn in which its power was
// used, and by whom. It binds only while that player still uses the card, and a turn that
// player plays without the card (Circe took it, or gave it back) clears it: "your last turn"
// counts only if the card was yours in it.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
// The card's memory: 0, or 1 + how many seats after the card's own seat sits the player who
// moved up on their last turn using it (1: its owner; with 2 players, 2: the other player,
// who used it through Circe or as the Golden Fleece).
int card_of(const State& s, int seat) {
    return card_seat(s, seat, PowerId::Athena);
}
int moved_up_by(const State& s, int card) {
    int m = s.card(card).memory;
    return m == 0 ? -1 : (card + m - 1) % s.seat_count;
}

// The end of a turn in which the mover used the card: its own movement is what counts now.
void remember(State& s, int seat) {
    int card = card_of(s, seat);
    bool up = (s.turn.flags & turn_flag::moved_up) != 0;
    s.card(card).memory =
        static_cast<std::uint8_t>(up ? 1 + (seat - card + s.seat_count) % s.seat_count : 0);
}

// The end of any turn, whoever holds the card: the player it remembers has just played a turn
// without it, so that player's last turn is no longer one in which the card was used.
void forget_a_turn_without(State& s, int card) {
    int mover = s.turn.seat;
    if (moved_up_by(s, card) == mover && card_of(s, mover) != card) s.card(card).memory = 0;
}

bool no_moving_up(const State& s, int seat, int mover, const Step& m) {
    return !opponents(s, seat, mover) || s.worker(m.worker).side == s.seat(seat).side ||
           moved_up_by(s, card_of(s, seat)) != seat ||
           s.board.height(m.to) <= s.board.height(m.from);
}
}  // namespace

const PowerRules athena{
    .own_turn_end = remember, .may_move = no_moving_up, .card_turn_end = forget_a_turn_without};

}  // namespace santorini::powers
