// The baselines are deliberately plain: the random player shows the floor, the greedy one is
// what a beginner does (buy points now, else save for the cheapest card in sight).

#include "engine/bot/splendor_baselines.hpp"

#include <algorithm>

#include "engine/splendor/game.hpp"
#include "engine/splendor/rng.hpp"

namespace splendor::bot {
namespace {

std::size_t base_at(int i) {
    return static_cast<std::size_t>(i);
}

// Tokens short by colour for `p` to buy `c` (after bonuses and held gems), and in all after gold.
Colours shortfall(const Player& p, const Card& c, int& after_gold) {
    Colours s{};
    int sum = 0;
    for (std::size_t k = 0; k < gem_colours; ++k) {
        s[k] = static_cast<std::int8_t>(std::max(0, c.cost[k] - p.bonuses[k] - p.tokens[k]));
        sum += s[k];
    }
    after_gold = std::max(0, sum - p.tokens[Gold]);
    return s;
}

// The nearest card (face-up or reserved): fewest tokens short after gold, then in all.
int nearest_card(const State& s) {
    const Player& p = s.seat(s.current);
    int best = -1, best_after = 1000, best_sum = 1000;
    auto consider = [&](int id) {
        int after = 0;
        int sum = total(shortfall(p, card(id), after));
        if (after < best_after || (after == best_after && sum < best_sum))
            best = id, best_after = after, best_sum = sum;
    };
    for (const auto& row : s.rows)
        for (auto id : row)
            if (id >= 0) consider(id);
    for (int r = 0; r < p.reserved_count; ++r) consider(p.reserved[base_at(r)].card);
    return best;
}

}  // namespace

Step random_step(const State& state, std::uint64_t& rng) {
    StepList legal;
    legal_steps(state, legal);
    return legal[base_at(random_below(rng, static_cast<int>(legal.size())))];
}

Step greedy_step(const State& state) {
    StepList legal;
    legal_steps(state, legal);
    const Player& p = state.seat(state.current);
    if (state.phase == Phase::Action) {
        const Step* buy = nullptr;
        for (const Step& st : legal) {
            if (st.kind != StepKind::Buy) continue;
            if (buy == nullptr || card(st.card).points > card(buy->card).points ||
                (card(st.card).points == card(buy->card).points &&
                 total(st.gems) < total(buy->gems)))
                buy = &st;
        }
        if (buy != nullptr) return *buy;
        const int target = nearest_card(state);
        int unused = 0;
        const Colours need = target >= 0 ? shortfall(p, card(target), unused) : Colours{};
        const Step* take = nullptr;
        int take_useful = -1, take_count = -1;
        for (const Step& st : legal) {
            if (st.kind != StepKind::Take) continue;
            int useful = 0;
            for (std::size_t k = 0; k < gem_colours; ++k) useful += std::min(st.gems[k], need[k]);
            int count = total(st.gems);
            if (useful > take_useful || (useful == take_useful && count > take_count))
                take = &st, take_useful = useful, take_count = count;
        }
        if (take != nullptr) return *take;
        for (const Step& st : legal)
            if (st.kind == StepKind::Reserve) return st;
        return legal.front();
    }
    if (state.phase == Phase::Return) {
        const int target = nearest_card(state);
        const Step* pick = nullptr;
        int pick_rank = -1000;
        for (const Step& st : legal) {
            int k = static_cast<int>(
                std::find_if(st.gems.begin(), st.gems.end(), [](std::int8_t g) { return g > 0; }) -
                st.gems.begin());
            // The colour held most beyond what the nearest card costs after bonuses; gold last.
            int cost =
                target < 0 ? 0 : std::max(0, card(target).cost[base_at(k)] - p.bonuses[base_at(k)]);
            int rank = k == Gold ? -500 : p.tokens[base_at(k)] - cost;
            if (rank > pick_rank) pick = &st, pick_rank = rank;
        }
        return *pick;
    }
    return legal.front();  // a noble (the first offered), or the one step there is
}

}  // namespace splendor::bot
