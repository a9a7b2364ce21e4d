#include "engine/bot/santorini_evaluation.hpp"

#include <algorithm>

#include "engine/santorini/game.hpp"

namespace santorini::bot {
namespace {

// The inner ring (B2-D4 without C3) and the centre: a worker there reaches more squares.
constexpr Bitboard inner_ring = (bit(6) | bit(7) | bit(8) | bit(11) | bit(13) | bit(16) | bit(17) | bit(18));
constexpr Bitboard centre = bit(12);

// Weights set by hand from the usual Santorini heuristics, not tuned by self-play yet: height
// dominates, because standing high is both the way to win and what the opponent must answer.
constexpr int height_weight[4] = {0, 40, 130, 160};
constexpr int climb_weight = 14;
constexpr int mobility_weight = 4;
constexpr int centrality_weight = 8;
constexpr int mover_threat = 900;     // the side to move can step up onto level 3: all but won
constexpr int waiting_threat = 140;   // the other side must spend its build (or a move) on it
constexpr int double_threat = 450;    // two squares to block: one build cannot answer both
constexpr int no_worker_penalty = 250;

int side_score(const SideFeatures& f, bool to_move) {
    int v = f.height + f.climbs * climb_weight + f.mobility * mobility_weight + f.centrality * centrality_weight;
    if (f.threats > 0) v += to_move ? mover_threat : (f.threats >= 2 ? double_threat : waiting_threat);
    if (f.workers == 0) v -= no_worker_penalty;
    return v;
}

}  // namespace

SideFeatures side_features(const State& state, int side) {
    SideFeatures f;
    const Board& board = state.board;
    const Bitboard occupied = state.worker_squares() | board.domes();
    Bitboard threat_squares = 0;
    for (int i = 0; i < state.worker_count; ++i) {
        const Worker& w = state.worker(i);
        if (w.side != side || w.square == no_square) continue;
        ++f.workers;
        const int h = board.height(w.square);
        f.height += height_weight[h];
        if (centre & bit(w.square)) f.centrality += 2;
        else if (inner_ring & bit(w.square)) f.centrality += 1;
        const Bitboard free = neighbors(w.square) & ~occupied;
        f.mobility += count(free & board.at_most(h + 1));
        if (h < 3) f.climbs += count(free & board.at_height(h + 1));
        if (h == 2) threat_squares |= free & board.at_height(3);
    }
    f.threats = count(threat_squares);
    return f;
}

int evaluate(const State& state, int side) {
    const int mover = state.over() ? -1 : side_of_seat(state, decider(state));
    int mine = 0;
    int best_other = 0;
    bool any_other = false;
    for (int s = 0; s < state.side_count; ++s) {
        const int v = side_score(side_features(state, s), s == mover);
        if (s == side) {
            mine = v;
        } else {
            best_other = any_other ? std::max(best_other, v) : v;
            any_other = true;
        }
    }
    return mine - best_other;
}

}  // namespace santorini::bot
