// Aeolus, God of the Winds. Setup: place the Wind Token beside the board and orient it in any of
// the 8 directions to indicate which direction the Wind is blowing. End of Your Turn: orient
// the Wind Token to any of the eight directions. Any Move: Workers cannot move directly into
// the Wind.
// RULES.md: no worker (any player's, his own too) may move in the direction opposite to the one
// the Wind blows. Rulings (docs/rulings.md): the re-aim is a mandatory End step, the same
// direction allowed (W2); the Wind binds Move steps only, by the direction of their step (a
// step across Urania's wrap by its direction over the edge, W1), never forced workers (Siren,
// Charon, pushes, Harpies' slide: W3); Golden Fleece: the Ram's placer orients it (W7).
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"
#include "engine/santorini/powers/torus.hpp"

namespace santorini::powers {
namespace {
// Turn flag (bits 7-13 are the powers'): the Wind was oriented at the end of this turn.
constexpr std::uint16_t reaimed = 1 << 7;

void aims(StepList& out) {
    for (int d = 0; d < direction_count; ++d)
        out.push_back(Step{StepKind::Aim, -1, no_square, no_square, static_cast<std::int8_t>(d)});
}

// Setup: until the Wind is set (the card's seat; with the fleece, its card on seat 0).
void orient_at_setup(const State& s, int seat, StepList& out) {
    if (wind(s, setup_card(s, seat)) < 0) aims(out);
}

// End of his turn: once, mandatory (may_end_turn waits for it).
void orient_at_end(const State& s, int seat, StepList& out) {
    if (s.turn.seat == seat && !(s.turn.flags & reaimed)) aims(out);
}

void apply_aim(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Aim) return;
    if (s.phase == Phase::Token) {
        set_wind(s, setup_card(s, seat), st.aux);
        return;
    }
    set_wind(s, card_seat(s, seat, PowerId::Aeolus), st.aux);
    s.turn.flags |= reaimed;
}

bool reaimed_if_ending(const State& s, int seat, int mover) {
    return mover != seat || s.phase != Phase::End || (s.turn.flags & reaimed);
}

bool not_into_wind(const State& s, int seat, int, const Step& move) {
    int w = wind(s, card_seat(s, seat, PowerId::Aeolus));
    if (w < 0) return true;
    int d = move_direction(move.from, move.to);
    return d < 0 || d != (w + 4) % direction_count;
}
}  // namespace

const PowerRules aeolus{.end_steps = orient_at_end,
                        .after_step = apply_aim,
                        .setup_steps = orient_at_setup,
                        .may_move = not_into_wind,
                        .may_end_turn = reaimed_if_ending,
                        .moves_no_worker_after_moving = true,
                        // none of his hooks reads the board: the aims are the 8 directions, the
                        // Wind judges a move's direction
                        .rest_of_turn_ignores_builds = true};

}  // namespace santorini::powers
