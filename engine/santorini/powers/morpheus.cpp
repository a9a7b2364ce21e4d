// Morpheus, God of Dreams. Start of Your Turn: place a block or dome on your God Power card.
// Your Build: your worker cannot build as normal. Instead, your worker may build any number of
// times (even zero) using blocks / domes collected on your God Power card.
// Rulings (RULES.md, docs/rulings.md C6-C8): each stored piece becomes whatever the space needs
// (a block below level 3, a dome on level 3); the worker that moved builds, on the same space
// again if it likes. The card holds Card::counter pieces from earlier turns; this turn's piece
// is counted from the turn itself (available = counter + 1 - built this turn, Turn::extra), and
// the card keeps the rest when the turn ends. So a position at a turn start reads the same
// before and after the gain, and notation round-trips.
#include <algorithm>

#include "engine/santorini/powers/morpheus.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
constexpr int most_stored = 254;  // Card::counter is a byte, and this turn's piece comes on top

int available(const State& s, int seat) {
    int card = card_seat(s, seat, PowerId::Morpheus);
    return s.card(card).counter + 1 - s.turn.extra;
}

void stored_builds(const State& s, int seat, StepList& out) {
    if (available(s, seat) > 0) add_normal_builds(s, s.turn.worker, out);
}

// Right after moving: build from the card, or build nothing at all.
void builds_or_none(const State& s, int seat, StepList& out) {
    stored_builds(s, seat, out);
    out.push_back(Step::pass());
}

void spend(State& s, int, const Step& st) {
    if (st.kind == StepKind::Build || st.kind == StepKind::Dome) ++s.turn.extra;
}

void keep_the_rest(State& s, int seat) {
    int card = card_seat(s, seat, PowerId::Morpheus);
    s.card(card).counter =
        static_cast<std::uint8_t>(std::clamp(available(s, seat), 0, most_stored));
}
}  // namespace

int morpheus_pieces(const State& state, int card) {
    int pieces = state.card(card).counter;
    const bool in_a_turn = state.phase == Phase::Begin || state.phase == Phase::AfterMove ||
                           state.phase == Phase::AfterBuild || state.phase == Phase::End;
    if (in_a_turn && card_seat(state, state.turn.seat, PowerId::Morpheus) == card)
        pieces = std::max(0, pieces + 1 - state.turn.extra);
    return pieces;
}

const PowerRules morpheus{.after_move_steps = builds_or_none,
                          .replaces_normal_build = true,
                          .more_builds = stored_builds,
                          .after_step = spend,
                          .own_turn_end = keep_the_rest,
                          .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
