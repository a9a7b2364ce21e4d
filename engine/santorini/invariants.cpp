// The whole-state consistency check (Stockfish's pos_is_ok): used by tests after every step.
#include "engine/santorini/game.hpp"
#include "engine/santorini/power_rules.hpp"

namespace santorini {

std::string check_invariants(const State& s) {
    std::string e;
    auto fail = [&](const std::string& what) { e += what + "; "; };
    for (int h = 0; h < 4; ++h)
        for (Square sq = 0; sq < square_count; ++sq)
            if (((s.board.at_height(h) >> sq) & 1u) != (s.board.height(sq) == h ? 1u : 0u))
                fail("level bitboard " + std::to_string(h) + " disagrees at " + square_name(sq));
    Bitboard seen = 0;
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side >= s.side_count) fail("worker " + std::to_string(w) + " has no side");
        if (wk.square == no_square) continue;
        if (wk.square < 0 || wk.square >= square_count) {
            fail("worker off the board");
            continue;
        }
        if (seen & bit(wk.square)) fail("two pieces on " + square_name(wk.square));
        seen |= bit(wk.square);
        if ((s.board.domes() | (s.ram == no_square ? 0 : bit(s.ram))) & bit(wk.square)) fail("a worker stands on a dome at " + square_name(wk.square));
    }
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).out && s.side_squares(s.seat(i).side) && !s.over()) fail("a seat that is out still has workers");
    if (s.over() != (s.winners != 0)) fail("game over and winners disagree");
    // The handicap game: a hero on the hero seat, a god on the other, from the deal on.
    if (s.setup.hero_seat >= 0)
        for (int i = 0; i < s.seat_count; ++i)
            if (PowerId p = s.seat(i).power; p != PowerId::None &&
                                              (power_info(p).category == PowerCategory::Hero) != (i == s.setup.hero_seat))
                fail("the handicap game gave seat " + std::to_string(i) + " a power of the wrong kind");
    if (!s.over()) {
        if (s.turn.seat < 0 || s.turn.seat >= s.seat_count) fail("nobody to move");
        else if (s.seat(s.turn.seat).out) fail("the seat to move is out");
    }
    return e;
}

}  // namespace santorini
