// Tartarus, God of the Abyss. Setup: place your Workers first; after all players' Workers are
// placed, secretly place the Abyss on an unoccupied space. If any player's Worker enters the
// Abyss, they immediately lose. Workers cannot win by entering the Abyss. (2 players.)
// The Abyss is placed with one setup Token step (`token C3 1`), kept in the card's data
// (card_tokens.hpp AbyssCard) and hidden from the opponent and spectators (hide; the step's
// text too: view.cpp). On a view there is no Abyss, so the legal steps are the true ones and
// cannot betray it. Judged by position after every step, once the movement effects have run
// (after_any_move: Harpies' slide, Charybdis' whirlpools), so a worker that comes to rest on
// the Abyss by any means loses (forced too: Apollo's swap, Minotaur's push, Charon's ferry;
// Tartarus' own workers too), and one that only passes over it does not. Rulings H4-H6.
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {

constexpr std::int8_t abyss_kind = 1;

void place_abyss(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Tartarus);
    if (card < 0 || abyss(s, card) != no_square) return;
    Bitboard free = all_squares & ~occupied(s, seat);
    while (free) out.push_back(Step{StepKind::Token, -1, no_square, pop_first(free), abyss_kind});
}

void store_abyss(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Token || st.aux != abyss_kind) return;
    if (int card = card_seat(s, seat, PowerId::Tartarus); card >= 0) set_abyss(s, card, st.to);
}

void hide_abyss(State& view, int seat, int viewer) {
    // A seat that is out uses no power, but its own card still keeps the secret.
    int card = view.seat(seat).out ? seat : card_seat(view, seat, PowerId::Tartarus);
    if (card < 0) return;
    if (viewer >= 0 && view.seat(viewer).side == view.seat(card).side) return;
    set_abyss(view, card, no_square);
}

// The owner of a worker standing on the Abyss loses. With 2 players that ends the game.
void swallow(State& s, int seat) {
    int card = card_seat(s, seat, PowerId::Tartarus);
    if (card < 0) return;
    Square a = abyss(s, card);
    if (a == no_square) return;
    int w = s.worker_at(a);
    if (w < 0) return;
    for (int o = 0; o < s.seat_count; ++o)
        if (!s.seat(o).out && s.seat(o).side == s.worker(w).side) {
            lose(s, o);
            return;
        }
}

void after_any(State& s, int seat, int, const Step&) { swallow(s, seat); }

// A worker placed out of turn (Gaea's interrupt) is judged at the next turn start.
void at_turn_start(State& s, int seat, int) { swallow(s, seat); }

WinVeto no_win_into_abyss(const State& s, int seat, int, const Step& m) {
    int card = card_seat(s, seat, PowerId::Tartarus);
    return card >= 0 && abyss(s, card) == m.to ? WinVeto::Deny : WinVeto::Allow;
}

}  // namespace

const PowerRules tartarus{
    .after_step = store_abyss,
    .setup_steps = place_abyss,
    .hide = hide_abyss,
    .on_turn_start = at_turn_start,
    .after_any_step = after_any,
    .win_veto = no_win_into_abyss,
    .after_step_kinds = step_kind_bit(StepKind::Token),  // store_abyss: the Abyss' token only
    // after_any: a worker that came to rest on the Abyss was swallowed after that very step, so
    // after a step that moves no worker none stands there (but one placed out of turn: Gaea's
    // decision, after which no every-turn hook runs; the core's shortcut never applies with
    // out-of-turn decisions in play).
    .any_step_hooks_act_after_moves_only = true,
    // after_any, no_win_into_abyss: where workers stand and move to
    .rest_of_turn_ignores_builds = true,
};

}  // namespace santorini::powers
