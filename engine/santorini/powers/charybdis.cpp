// Charybdis, Whirlpool Monster. Setup: place 2 Whirlpool Tokens on your God Power card.
// End of Your Turn: you may place a Whirlpool Token from your God Power card on any unoccupied
// space on the board. Any Time: when both Whirlpool Tokens are in unoccupied spaces, a Worker
// that moves onto a space containing a Whirlpool Token must immediately move to the other
// Whirlpool Token's space. This move is considered to be in the same direction as the previous
// move. When a Whirlpool Token is built on or removed from the board, it is returned to your
// God Power card.
// Rulings (docs/rulings.md T1-T3): one placement per turn, optional, a Token step of kind 1
// ("token C3 1") on a space without a worker, a dome, anything she treats as one, or the other
// whirlpool. The pull is triggered by a move (any player's, hers too) onto a whirlpool that was
// unoccupied, when the other one's space has no worker and nothing the mover treats as a dome;
// a worker forced, pushed or swapped onto a whirlpool is not pulled (forced is not moved), nor
// one arriving by the pull (no ping-pong). The pull is part of the move: it goes to any level,
// no move restriction stops it (the move that triggered it was allowed, and the card says
// "must"), and it wins by the normal rule (or the mover's win powers) judged from the first
// whirlpool's height to the second's, with every win veto in play; moving up onto a first
// whirlpool on height 3 already won before the pull. The pull completes the move before any
// movement that follows a move (Harpies' slide: T18). A whirlpool under a block or dome built on
// its space, or whose block is removed, goes back to her card.
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
constexpr std::uint8_t placed = 0x40;        // Turn::extra: a whirlpool was placed this turn
constexpr std::int8_t whirlpool_kind = 1;    // Token::aux of her placement

void placements(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Charybdis);
    if ((s.turn.extra & placed) || whirlpools_on_card(s, card) == 0) return;
    Bitboard targets = all_squares & ~occupied(s) & ~whirlpools(s, card);
    while (targets) out.push_back(Step{StepKind::Token, -1, no_square, pop_first(targets), whirlpool_kind});
}

void place(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Token || st.aux != whirlpool_kind) return;
    s.card(card_seat(s, seat, PowerId::Charybdis)).tokens |= bit(st.to);
    s.turn.extra |= placed;
}

// The pull is a move: the mover's win powers and every veto in play judge it.
void judge_win(State& s, int mover, const Step& pull, int from_height) {
    bool win = s.board.height(pull.to) == 3 && from_height < 3;
    ActivePowers own = powers_in_effect(s, mover);
    for (int i = 0; i < own.size && !win; ++i) {
        const PowerRules& r = rules_of(own.ids[i]);
        if (r.wins_by_move) win = r.wins_by_move(s, mover, pull, from_height);
    }
    if (!win) return;
    int winner_side = s.seat(mover).side;
    for (int o = 0; o < s.seat_count && win; ++o) {
        ActivePowers p = powers_in_effect(s, o);
        for (int i = 0; i < p.size && win; ++i) {
            const PowerRules& r = rules_of(p.ids[i]);
            if (!r.win_veto) continue;
            switch (r.win_veto(s, o, mover, pull)) {
                case WinVeto::Allow: break;
                case WinVeto::Deny: win = false; break;
                case WinVeto::OwnerWins: winner_side = s.seat(o).side; break;
            }
        }
    }
    if (win) declare_winner(s, winner_side);
}

void pull(State& s, int seat, int mover, const Step& st) {
    if (st.kind != StepKind::Move || st.aux != no_square) return;  // something was displaced: the space was occupied
    Bitboard pools = whirlpools(s, card_seat(s, seat, PowerId::Charybdis));
    if (std::popcount(pools) != 2 || !(pools & bit(st.to)) || s.worker(st.worker).square != st.to) return;
    Square other = static_cast<Square>(std::countr_zero(pools & ~bit(st.to)));
    if (s.worker_at(other) >= 0 || (dome_like(s, mover) & bit(other))) return;
    int from_height = s.board.height(st.to), to_height = s.board.height(other);
    s.worker(st.worker).square = other;
    if (to_height > from_height) s.turn.flags |= turn_flag::moved_up;
    if (to_height != from_height) s.turn.flags |= turn_flag::level_changed;
    judge_win(s, mover, Step{StepKind::Move, st.worker, st.to, other, no_square}, from_height);
}

void return_built_on(State& s, int seat, int, const Step& st) {
    if (st.kind == StepKind::Build || st.kind == StepKind::Dome || st.kind == StepKind::Remove)
        s.card(card_seat(s, seat, PowerId::Charybdis)).tokens &= ~bit(st.to);
}
}  // namespace

const PowerRules charybdis{.end_steps = placements,
                           .after_step = place,
                           .after_any_step = return_built_on,
                           .completes_move = pull,
                           // pull: after moves; return_built_on: her tokens, which on another's
                           // turn only pulls read (her placements are her own turn's)
                           .rest_of_others_turns_ignores_builds = true};

}  // namespace santorini::powers
