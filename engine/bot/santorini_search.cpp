#include "engine/bot/santorini_search.hpp"

#include <algorithm>
#include <array>
#include <limits>

#include "engine/bot/santorini_evaluation.hpp"
#include "engine/santorini/game.hpp"
#include "engine/santorini/rng.hpp"

namespace santorini::bot {
namespace {

constexpr int search_infinity = std::numeric_limits<int>::max() / 2;
// A score this close to win_score is a game decided within the search horizon.
constexpr int decided = win_score - 10'000;

// Children searched below the root, by the steps already taken in the turn: a turn with a huge
// step tree (Hermes' walks, Atalanta's runs, Morpheus' banked builds) is cut to its most
// promising steps, so that one full turn stays a few thousand positions at most; every listed
// step leads to a completable turn, so a cut never strands the search. The base game's turn
// (up to 16 moves, then up to 8 builds) is never cut.
constexpr std::array<int, 5> child_cap{24, 12, 6, 3, 1};
// From this step of a turn on, steps that end the turn sooner (builds, passes) come before
// moves that do not change level (Hermes' walk, Triton's run).
constexpr int deep_turn_steps = 3;

int cap_for(int turn_steps) {
    return child_cap[static_cast<std::size_t>(std::min(turn_steps, static_cast<int>(child_cap.size()) - 1))];
}

using StepOrder = std::array<int, StepList::capacity>;

class TurnSearcher {
public:
    TurnSearcher(const State& root, const SearchLimits& limits)
        : limits_(limits),
          root_seat_(decider(root)),
          root_side_(side_of_seat(root, root_seat_)),
          start_(std::chrono::steady_clock::now()) {}

    SearchResult run(const State& root, std::uint64_t seed);

private:
    int value(const State& s, int depth, int alpha, int beta, int ply, int turn_steps);
    int terminal(const State& s, int ply) const;
    bool out_of_budget();
    int order_score(const State& s, const Step& step, int mover_side, bool deep) const;
    int order(const State& s, const StepList& list, StepOrder& idx, int turn_steps) const;
    int& history(const Step& step) {
        return history_[static_cast<std::size_t>(step.kind)][static_cast<std::size_t>(step.from + 1)]
                       [static_cast<std::size_t>(step.to + 1)];
    }

    SearchLimits limits_;
    int root_seat_;
    int root_side_;
    std::chrono::steady_clock::time_point start_;
    long nodes_ = 0;
    bool aborted_ = false;
    // Steps that caused cut-offs before, by kind and squares (the history heuristic).
    std::array<std::array<std::array<int, square_count + 1>, square_count + 1>, 16> history_{};
};

bool TurnSearcher::out_of_budget() {
    if (aborted_) return true;
    ++nodes_;
    if (nodes_ > limits_.nodes) aborted_ = true;
    if (limits_.time_limit.count() > 0 && (nodes_ & 127) == 0 &&
        std::chrono::steady_clock::now() - start_ >= limits_.time_limit)
        aborted_ = true;
    return aborted_;
}

int TurnSearcher::terminal(const State& s, int ply) const {
    for (int seat = 0; seat < s.seat_count; ++seat)
        if ((s.winners & (1u << seat)) && side_of_seat(s, seat) == root_side_) return win_score - ply;
    return -win_score + ply;
}

// Cheap, before applying: wins first, then climbs, then builds that block or do not gift a
// climb onto level 3, then what cut off before.
int TurnSearcher::order_score(const State& s, const Step& step, int mover_side, bool deep) const {
    const Board& b = s.board;
    int v = 0;
    switch (step.kind) {
        case StepKind::Move:
            if (step.from != no_square && step.to != no_square) {
                const int up = b.height(step.to) - b.height(step.from);
                v = 100 * up + 30 * b.height(step.to);
                if (up == 1 && b.height(step.to) == 3) v += 100'000;
                if (up <= -2) v += 200;  // Pan's fall, and climbing down is sometimes the point
                if (up == 0 && deep) v -= 1'000;
            }
            break;
        case StepKind::Build:
        case StepKind::Dome:
            if (step.to != no_square) {
                const int h = b.height(step.to);
                Bitboard near_high_enemy = 0;
                for (int i = 0; i < s.worker_count; ++i) {
                    const Worker& w = s.worker(i);
                    if (w.square != no_square && w.side != mover_side && b.height(w.square) == 2)
                        near_high_enemy |= neighbors(w.square);
                }
                const bool next_to_threat = (near_high_enemy & bit(step.to)) != 0;
                if (step.kind == StepKind::Dome || h == 3) v += next_to_threat ? 5'000 : -50;
                else if (h == 2) v += next_to_threat ? -5'000 : 60;
                else v += 20 * h;
            }
            break;
        default:
            break;
    }
    const auto& hist = history_[static_cast<std::size_t>(step.kind)][static_cast<std::size_t>(step.from + 1)]
                               [static_cast<std::size_t>(step.to + 1)];
    return v + std::min(hist, 2'000);
}

int TurnSearcher::order(const State& s, const StepList& list, StepOrder& idx, int turn_steps) const {
    const int n = list.size();
    const int mover_side = side_of_seat(s, decider(s));
    std::array<int, StepList::capacity> key{};
    for (int i = 0; i < n; ++i) {
        idx[static_cast<std::size_t>(i)] = i;
        key[static_cast<std::size_t>(i)] = order_score(s, list[i], mover_side, turn_steps >= deep_turn_steps);
    }
    std::stable_sort(idx.begin(), idx.begin() + n,
                     [&](int a, int b) { return key[static_cast<std::size_t>(a)] > key[static_cast<std::size_t>(b)]; });
    return std::min(n, cap_for(turn_steps));
}

int TurnSearcher::value(const State& s, int depth, int alpha, int beta, int ply, int turn_steps) {
    if (s.over()) return terminal(s, ply);
    if (s.seat(root_seat_).out) return -win_score + ply;  // eliminated (3 players)
    if (depth == 0) return evaluate(s, root_side_);
    if (out_of_budget()) return 0;
    StepList list;
    legal_steps(s, list);
    if (list.empty()) return evaluate(s, root_side_);
    const bool maximizing = side_of_seat(s, decider(s)) == root_side_;
    StepOrder idx;
    const int n = order(s, list, idx, turn_steps);
    int best = maximizing ? -search_infinity : search_infinity;
    for (int k = 0; k < n; ++k) {
        const Step& step = list[idx[static_cast<std::size_t>(k)]];
        State child = s;
        apply_step(child, step);
        const bool turn_over = !same_turn(s, child);
        const int v = value(child, turn_over ? depth - 1 : depth, alpha, beta, ply + 1, turn_over ? 0 : turn_steps + 1);
        if (aborted_) return 0;
        if (maximizing) {
            best = std::max(best, v);
            alpha = std::max(alpha, v);
        } else {
            best = std::min(best, v);
            beta = std::min(beta, v);
        }
        if (alpha >= beta) {
            history(step) += depth * depth;
            break;
        }
    }
    return best;
}

SearchResult TurnSearcher::run(const State& root, std::uint64_t seed) {
    StepList list;
    legal_steps(root, list);
    SearchResult result;
    if (list.empty()) return result;
    const int n = list.size();
    // The root's order: shuffled by the seed (ties go to the first found), then by the cheap
    // order, then by each iteration's scores.
    std::array<int, StepList::capacity> root_order{};
    for (int i = 0; i < n; ++i) root_order[static_cast<std::size_t>(i)] = i;
    std::uint64_t rng = seed ^ 0x5a17'0f1e'd00d'cafeull;
    for (int i = n - 1; i > 0; --i)
        std::swap(root_order[static_cast<std::size_t>(i)], root_order[static_cast<std::size_t>(random_below(rng, i + 1))]);
    {
        const int side = side_of_seat(root, decider(root));
        std::array<int, StepList::capacity> key{};
        for (int i = 0; i < n; ++i) key[static_cast<std::size_t>(i)] = order_score(root, list[i], side, false);
        std::stable_sort(root_order.begin(), root_order.begin() + n,
                         [&](int a, int b) { return key[static_cast<std::size_t>(a)] > key[static_cast<std::size_t>(b)]; });
    }
    result.step = list[root_order[0]];
    if (n == 1) return result;

    std::array<int, StepList::capacity> scores{};
    for (int depth = 1; depth <= limits_.max_depth; ++depth) {
        int alpha = -search_infinity;
        int best_index = -1;
        int searched = 0;
        for (int k = 0; k < n; ++k) {
            const int i = root_order[static_cast<std::size_t>(k)];
            State child = root;
            apply_step(child, list[i]);
            const bool turn_over = !same_turn(root, child);
            const int v = value(child, turn_over ? depth - 1 : depth, alpha, search_infinity, 1, turn_over ? 0 : 1);
            if (aborted_) break;
            ++searched;
            scores[static_cast<std::size_t>(i)] = v;
            if (v > alpha) {
                alpha = v;
                best_index = i;
            }
        }
        if (aborted_) {
            // The previous best was searched first: a step that beat it, fully searched, is
            // better than the last iteration's choice.
            if (best_index >= 0 && (result.depth == 0 || searched > 1)) {
                result.step = list[best_index];
                result.score = alpha;
            }
            break;
        }
        result.step = list[best_index];
        result.score = alpha;
        result.depth = depth;
        // Best first for the next iteration; steps that failed low keep their bound's order.
        std::stable_sort(root_order.begin(), root_order.begin() + n, [&](int a, int b) {
            return scores[static_cast<std::size_t>(a)] > scores[static_cast<std::size_t>(b)];
        });
        if (alpha >= decided || alpha <= -decided) break;  // won or lost within the horizon
    }
    result.nodes = nodes_;
    return result;
}

}  // namespace

SearchResult search_step(const State& view, const SearchLimits& limits, std::uint64_t seed) {
    TurnSearcher searcher(view, limits);
    return searcher.run(view, seed);
}

}  // namespace santorini::bot
