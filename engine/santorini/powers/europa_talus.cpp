// Europa & Talus, Queen & Guardian Automaton. Setup: place the Talus Token on your God Power
// card. End of Your Turn: you may relocate your Talus Token to an unoccupied space neighboring
// the Worker that moved. Any Time: all players treat the space containing the Talus Token as
// if it contains only a dome.
// Rulings (docs/rulings.md T7, T8): one relocation per turn, optional (the core's Pass), as a
// Token step of kind 2 ("token C3 2"); "unoccupied" for her: no worker, no dome, nothing she
// treats as one (the Ram, an opponent Clio's coins); only after a turn in which a worker of
// hers moved (the last one that moved); Talus counts as a dome for everyone, herself included,
// so no worker enters, is forced onto or builds on its space.
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
constexpr std::uint8_t relocated = 0x20;  // Turn::extra: Talus moved this turn
constexpr std::int8_t talus_kind = 2;     // Token::aux of her relocation

void relocations(const State& s, int seat, StepList& out) {
    int w = s.turn.worker;
    if ((s.turn.extra & relocated) || w < 0 || !(s.turn.moved_workers >> w & 1u)) return;
    Square at = s.worker(w).square;
    if (at == no_square) return;
    Square from = talus(s, card_seat(s, seat, PowerId::EuropaTalus));
    Bitboard targets = neighbors(at) & ~occupied(s);
    while (targets) out.push_back(Step{StepKind::Token, -1, from, pop_first(targets), talus_kind});
}

void relocate(State& s, int seat, const Step& st) {
    if (st.kind != StepKind::Token || st.aux != talus_kind) return;
    s.card(card_seat(s, seat, PowerId::EuropaTalus)).tokens = bit(st.to);
    s.turn.extra |= relocated;
}

Bitboard guarded(const State& s, int seat, int) {
    Square t = talus(s, card_seat(s, seat, PowerId::EuropaTalus));
    return t == no_square ? 0 : bit(t);
}
}  // namespace

const PowerRules europa_talus{.end_steps = relocations,
                              .after_step = relocate,
                              .dome_like_for = guarded,
                              .after_step_kinds = step_kind_bit(StepKind::Token),
                              .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
