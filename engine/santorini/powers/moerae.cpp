// Moerae, Goddesses of Fate. Setup: take three Workers (2-3 players); after all Workers are
// placed, secretly choose a 2x2 square of spaces as your Fate. Opponent's Turn: if an
// opponent Worker attempts to win by moving into one of your Fate spaces, you win instead.
// The Fate is chosen with one setup Token step naming the square's lower-left space
// (`token B2 1`: B2, C2, B3, C3), kept in the card's data (card_tokens.hpp FateCard) and
// hidden from every seat of another side and from spectators (hide; the step's text too:
// view.cpp). It decides only who wins, so the legal steps made on an opponent's view (no Fate
// there) are the true ones. Every win by a move counts (up onto level 3, Pan's drop, Eros'
// pair); Hera's Deny beats it (engine.md 3.4). Rulings H1-H3.
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

constexpr std::int8_t fate_kind = 1;

void choose_fate(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Moerae);
    if (card < 0 || fate(s, card) != 0) return;
    for (int rank = 0; rank + 1 < board_width; ++rank)
        for (int file = 0; file + 1 < board_width; ++file)
            out.push_back(Step{StepKind::Token, -1, no_square, make_square(file, rank), fate_kind});
}

void store_fate(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Token || st.aux != fate_kind) return;
    if (int card = card_seat(s, seat, PowerId::Moerae); card >= 0) set_fate(s, card, fate_from_corner(st.to));
}

// The Fate is the secret of the card's owner: a seat of another side (the user's opponents,
// whoever uses the card) and spectators do not see it.
void hide_fate(State& view, int seat, int viewer) {
    // A seat that is out uses no power, but its own card still keeps the secret.
    int card = view.seat(seat).out ? seat : card_seat(view, seat, PowerId::Moerae);
    if (card < 0) return;
    if (viewer >= 0 && view.seat(viewer).side == view.seat(card).side) return;
    set_fate(view, card, 0);
}

WinVeto fate_decides(const State& s, int seat, int mover, const Step& m) {
    int card = card_seat(s, seat, PowerId::Moerae);
    if (card < 0 || !opponents(s, seat, mover)) return WinVeto::Allow;
    return (fate(s, card) & bit(m.to)) ? WinVeto::OwnerWins : WinVeto::Allow;
}

}  // namespace

const PowerRules moerae{
    .after_step = store_fate,
    .setup_steps = choose_fate,
    .hide = hide_fate,
    .win_veto = fate_decides,
    .after_step_kinds = step_kind_bit(StepKind::Token),  // store_fate: the Fate's token only
};

}  // namespace santorini::powers
