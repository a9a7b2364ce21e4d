// Selene, Goddess of the Moon. Setup: place a male and a female worker of your color.
// Your Build: instead of your normal build, your female worker may build a dome at any level
// regardless of which worker moved.
// Rulings: the female worker builds one dome on an unoccupied space neighbouring her, wherever
// she stands; she places her workers in either order (`place C3 female`); with 4 players the
// team's placer places by her Setup text if she is in the team (docs/rulings.md C3-C5).
#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {
namespace {
// One of the two workers is female: the first may be either, the second is what is left.
void male_and_female(const State& s, int seat, int worker, StepList& out) {
    int side = s.seat(seat).side;
    bool female_placed = false, male_placed = false;
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side != side || wk.square == no_square) continue;
        (wk.female ? female_placed : male_placed) = true;
    }
    Bitboard free = all_squares & ~occupied(s);
    while (free) {
        Square to = pop_first(free);
        if (!male_placed) out.push_back(Step::place(worker, to));
        if (!female_placed) out.push_back(Step::place(worker, to, true));
    }
}

int female_worker(const State& s, int seat) {
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).female && s.worker(w).side == s.seat(seat).side &&
            s.worker(w).square != no_square)
            return w;
    return -1;
}

void moon_dome(const State& s, int seat, StepList& out) {
    if (s.turn.builds != 0) return;  // instead of the normal build: once, right after moving
    int w = female_worker(s, seat);
    if (w < 0) return;
    Square from = s.worker(w).square;
    Bitboard targets = neighbors_for(s, from) & ~occupied(s);
    // When she moved, her dome on level 3 is already her normal build: not listed twice.
    if (w == s.turn.worker) targets &= ~s.board.at_height(3);
    while (targets) out.push_back(Step::build(w, from, pop_first(targets), true));
}
}  // namespace

const PowerRules selene{.after_move_steps = moon_dome,
                        .placement_steps = male_and_female,
                        .moves_no_worker_after_moving = true};

}  // namespace santorini::powers
