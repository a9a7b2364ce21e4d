#include "engine/bot/santorini_baselines.hpp"

#include <algorithm>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/rng.hpp"

namespace santorini::bot {
namespace {

constexpr long own_turn_cap = 2'000;      // positions of the greedy player's own turn
constexpr long reply_turn_cap = 1'000;    // positions of the next seat's turn, per completion
constexpr long reply_total_cap = 30'000;  // positions of all those replies, per decision

bool side_won(const State& s, int side) {
    for (int seat = 0; seat < s.seat_count; ++seat)
        if ((s.winners & (1u << seat)) && side_of_seat(s, seat) == side) return true;
    return false;
}

// Depth-first through the rest of the turn that `turn` names; true once `side` has won.
bool win_within_turn(const State& s, const State& turn, int side, long& budget) {
    if (--budget < 0) return false;
    StepList list;
    legal_steps(s, list);
    // Moves first: most wins are a move.
    for (int pass = 0; pass < 2; ++pass)
        for (const Step& step : list) {
            if ((step.kind == StepKind::Move) != (pass == 0)) continue;
            State child = s;
            apply_step(child, step);
            if (child.over()) {
                if (side_won(child, side)) return true;
                continue;
            }
            if (same_turn(turn, child) && win_within_turn(child, turn, side, budget)) return true;
            if (budget < 0) return false;
        }
    return false;
}

// What one completion of the greedy player's turn leads to.
enum class GreedyOutcome { Win, Safe, Unsafe };

struct GreedyWalk {
    int side;
    long budget;
    long reply_budget;
    std::vector<GreedyOutcome> best;  // per first step: the best outcome found through it
};

void walk_turn(const State& s, const State& turn, int first, GreedyWalk& w) {
    StepList list;
    legal_steps(s, list);
    for (int i = 0; i < list.size(); ++i) {
        if (w.budget <= 0) return;
        const int f = first < 0 ? i : first;
        if (w.best[static_cast<std::size_t>(f)] == GreedyOutcome::Win) {
            if (first >= 0) return;  // nothing better to find under this first step
            continue;
        }
        State child = s;
        apply_step(child, list[i]);
        --w.budget;
        GreedyOutcome o;
        if (child.over()) {
            o = side_won(child, w.side) ? GreedyOutcome::Win : GreedyOutcome::Unsafe;
        } else if (same_turn(turn, child)) {
            walk_turn(child, turn, f, w);
            continue;
        } else {
            const int next = decider(child);
            const bool mine = side_of_seat(child, next) == w.side;
            // Past the total cap the reply is not looked at: taken as safe, so that the greedy
            // player still decides in bounded time with Hermes' or Atalanta's turns.
            bool unsafe = false;
            if (!mine && w.reply_budget > 0) {
                long cap = std::min(reply_turn_cap, w.reply_budget);
                const long before = cap;
                unsafe = win_within_turn(child, child, side_of_seat(child, next), cap);
                w.reply_budget -= before - std::max(cap, 0L);
            }
            o = unsafe ? GreedyOutcome::Unsafe : GreedyOutcome::Safe;
        }
        auto& b = w.best[static_cast<std::size_t>(f)];
        if (o == GreedyOutcome::Win || (o == GreedyOutcome::Safe && b == GreedyOutcome::Unsafe)) b = o;
    }
}

}  // namespace

Step random_step(const State& seat_view, std::uint64_t& rng) {
    StepList list;
    legal_steps(seat_view, list);
    return list[random_below(rng, list.size())];
}

bool has_winning_turn(const State& state, long node_cap) {
    if (state.over()) return false;
    long budget = node_cap;
    return win_within_turn(state, state, side_of_seat(state, decider(state)), budget);
}

Step greedy_step(const State& seat_view, std::uint64_t& rng) {
    StepList list;
    legal_steps(seat_view, list);
    if (!in_play(seat_view) || list.size() == 1) return list[random_below(rng, list.size())];
    GreedyWalk w{side_of_seat(seat_view, decider(seat_view)), own_turn_cap, reply_total_cap,
           std::vector<GreedyOutcome>(static_cast<std::size_t>(list.size()), GreedyOutcome::Unsafe)};
    walk_turn(seat_view, seat_view, -1, w);
    for (GreedyOutcome wanted : {GreedyOutcome::Win, GreedyOutcome::Safe}) {
        std::vector<int> pick;
        for (int i = 0; i < list.size(); ++i)
            if (w.best[static_cast<std::size_t>(i)] == wanted) pick.push_back(i);
        if (!pick.empty()) return list[pick[static_cast<std::size_t>(random_below(rng, static_cast<int>(pick.size())))]];
    }
    return list[random_below(rng, list.size())];
}

}  // namespace santorini::bot
