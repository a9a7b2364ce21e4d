// Siren, Alluring Sea Nymph. Setup: place the Arrow Token beside the board and orient it in any
// of the 8 directions to indicate the direction of the Siren's Song. Your Turn: you may choose
// not to take your normal turn. Instead, force one or more opponent Workers one space in the
// direction of the Siren's Song to unoccupied spaces at any level.
// Ruling W4: the song is one Force step per worker (`force C3 C4`), each opponent worker at
// most once a turn, in any order; only before anything else happened in the turn. The first
// force takes the turn to its End phase, where further forces or a Pass follow (the turn ends
// by itself when nothing is left to force), so a turn in song never looks like a turn's start;
// no worker of hers moves (Turn::movable = 0) and nobody builds (a build of any power is
// refused), and the turn cannot be empty (no Pass before a force). Forced
// workers never win, never "move" (Hades, Aeolus, Harpies do not apply) and do not wrap around
// Urania's board. Golden Fleece: the Ram's placer orients the Arrow (W7).
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
// The card's data during her turn: the opponent workers the song has forced (bits of indices).
// Cleared at every turn start, so the notation needs nothing.
struct SirenCard {
    std::uint16_t forced = 0;
};

std::uint16_t forced(const State& s, int card) { return card_data<SirenCard>(s.card(card)).forced; }

void orient_at_setup(const State& s, int seat, StepList& out) {
    if (song(s, setup_card(s, seat)) >= 0) return;
    for (int d = 0; d < direction_count; ++d)
        out.push_back(Step{StepKind::Aim, -1, no_square, no_square, static_cast<std::int8_t>(d)});
}

// The forces still open: each opponent worker not forced yet whose next space along the Song is
// on the board and unoccupied for her (domes, the Ram, Talus; Clio's coins if she is Clio's
// opponent).
void siren_forces(const State& s, int seat, StepList& out) {
    int card = card_seat(s, seat, PowerId::Siren);
    int d = song(s, card);
    if (d < 0) return;
    std::uint16_t done = forced(s, card);
    Bitboard blocked = occupied(s, seat);
    for (int w = 0; w < s.worker_count; ++w) {
        Square at = s.worker(w).square;
        if (at == no_square || !opponent_worker_on(s, seat, at) || (done >> w & 1u)) continue;
        Square to = step_toward(at, static_cast<santorini::Direction>(d));
        if (to == no_square || (blocked & bit(to))) continue;
        out.push_back(Step{StepKind::Force, -1, at, to, static_cast<std::int8_t>(w)});
    }
}

// Begin: the song instead of the normal turn, before anything else happened.
void sing(const State& s, int seat, StepList& out) {
    if (s.turn.moves > 0 || s.turn.worker >= 0 || (s.turn.flags & turn_flag::built_before_move)) return;
    if (forced(s, card_seat(s, seat, PowerId::Siren)) == 0) siren_forces(s, seat, out);
}

// End: after the first force the turn is in its End phase, where the song goes on (the core
// adds the Pass; with nothing left to force the turn ends).
void sing_on(const State& s, int seat, StepList& out) {
    if (s.turn.seat == seat && forced(s, card_seat(s, seat, PowerId::Siren)) != 0) siren_forces(s, seat, out);
}

void apply(State& s, int seat, const Step& st) {
    if (s.phase == Phase::Token) {
        if (st.kind == StepKind::Aim) set_song(s, setup_card(s, seat), st.aux);
        return;
    }
    if (st.kind != StepKind::Force || st.worker >= 0) return;
    int card = card_seat(s, seat, PowerId::Siren);
    set_card_data(s.card(card), SirenCard{static_cast<std::uint16_t>(forced(s, card) | (1u << st.aux))});
    s.turn.movable = 0;  // the normal turn is not taken: no move, and no build (may_build)
    s.phase = Phase::End;
}

void forget(State& s, int seat, int) {
    if (int card = card_seat(s, seat, PowerId::Siren); card >= 0) set_card_data(s.card(card), SirenCard{});
}

void forget_at_end(State& s, int seat) { forget(s, seat, seat); }

// No build in a turn she sang: "instead" of the normal turn, so a guard against any build
// another power of the same seat might offer in the End phase.
bool no_build_after_song(const State& s, int seat, int mover, const Step&) {
    return mover != seat || forced(s, card_seat(s, seat, PowerId::Siren)) == 0;
}
}  // namespace

const PowerRules siren{.begin_steps = sing,
                       .end_steps = sing_on,
                       .after_step = apply,
                       .own_turn_end = forget_at_end,
                       .setup_steps = orient_at_setup,
                       .on_turn_start = forget,
                       .may_build = no_build_after_song,
                       .data_not_in_notation = true,
                       // apply: the aim at setup and the song's forces only
                       .after_step_kinds = step_kind_bit(StepKind::Aim) | step_kind_bit(StepKind::Force),
                       // the song (Force steps) is a whole turn instead of the normal one: a
                       // turn that moved has no song, and sing_on offers nothing in it
                       .moves_no_worker_after_moving = true,
                       // sing_on offers nothing in a turn that built; no_build_after_song reads
                       // only the song's forces
                       .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
