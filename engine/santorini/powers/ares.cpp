// Ares, God of War. End of Your Turn: you may remove an unoccupied block (not dome)
// neighbouring your unmoved worker; you also remove any tokens on the block.
// Ruling (A3): one block (the top one), at most once per turn, optional; "unmoved" = a worker
// of his side that did not move this turn (forced is not moved); a space holding a dome or
// anything that counts as one for him (Clio's coins, Talus) is occupied. The block he just
// built may be removed.
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
constexpr std::uint8_t removed = 1;  // Turn::extra: the block is removed this turn

void removals(const State& s, int seat, StepList& out) {
    if (s.turn.extra & removed) return;
    int side = s.seat(seat).side;
    Bitboard blocks = all_squares & ~s.board.at_height(0) & ~occupied(s);
    for (int w = 0; w < s.worker_count; ++w) {
        Square from = s.worker(w).square;
        if (s.worker(w).side != side || from == no_square || (s.turn.moved_workers >> w & 1u))
            continue;
        Bitboard targets = neighbors_for(s, from) & blocks;
        while (targets)
            out.push_back(
                Step{StepKind::Remove, static_cast<std::int8_t>(w), from, pop_first(targets), -1});
    }
}

void clear_tokens(State& s, int, const Step& st) {
    if (st.kind != StepKind::Remove) return;
    s.turn.extra |= removed;
    for (auto& c : s.cards) c.tokens &= ~bit(st.to);
}
}  // namespace

const PowerRules ares{.end_steps = removals,
                      .after_step = clear_tokens,
                      .after_step_kinds = step_kind_bit(StepKind::Remove),
                      .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
