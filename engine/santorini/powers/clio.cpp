// Clio, Muse of History. Your Build: place a Coin Token on each of the first 3 blocks your
// Workers build. Opponent's Turn: opponents treat spaces containing your Coin Tokens as if they
// contain only a dome.
// Rulings (docs/rulings.md T4-T6): the coin goes on a block (not a dome) her workers build on
// her own turns, the first three of the game (Card::counter counts them, so a lost coin never
// comes back); on her turns the coin spaces are plain blocks for her (she may move onto them
// and build on them); a coin whose space is built on (by anyone) or whose block is removed
// leaves the game, and a block she builds there while she has placed fewer than 3 gets a new
// coin; in 3 players her coins leave with her (lose() clears her tokens).
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
void place_coins(State& s, int seat, int mover, const Step& st) {
    if (st.kind != StepKind::Build && st.kind != StepKind::Dome && st.kind != StepKind::Remove) return;
    Card& card = s.card(card_seat(s, seat, PowerId::Clio));
    card.tokens &= ~bit(st.to);  // built on or removed: the coin is gone
    if (st.kind != StepKind::Build || mover != seat || card.counter >= 3) return;
    if (st.worker < 0 || s.worker(st.worker).side != s.seat(seat).side) return;
    card.tokens |= bit(st.to);
    ++card.counter;
}

Bitboard coin_domes(const State& s, int seat, int mover) {
    return opponents(s, seat, mover) ? coins(s, card_seat(s, seat, PowerId::Clio)) : 0;
}
}  // namespace

// place_coins only moves coins, whatever the step.
const PowerRules clio{.after_any_step = place_coins, .dome_like_for = coin_domes, .any_step_hooks_act_after_moves_only = true};

}  // namespace santorini::powers
