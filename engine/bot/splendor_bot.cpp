// The search: determinized Monte Carlo over the root's most appealing steps. Each playout
// deals a fresh determinization of the hidden cards from the view (splendor_determinize.hpp),
// plays the candidate, then follows the greedy policy (splendor_evaluate.hpp, a little noise
// so playouts differ) for a few rounds and scores the end with `outlook`. Sequential halving
// spends the level's playouts: every round gives each surviving candidate an equal share and
// keeps the better half, so the budget goes where the choice is close (docs/bot.md).

#include "engine/bot/splendor_bot.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "engine/bot/splendor_determinize.hpp"
#include "engine/bot/splendor_evaluate.hpp"
#include "engine/splendor/game.hpp"
#include "engine/splendor/rng.hpp"

namespace splendor::bot {
namespace {

/// A level's search budget (docs/bot.md lists them).
struct Budget {
    int candidates;  ///< root steps searched, the most appealing first
    int playouts;    ///< in all, over the candidates; 0 = the greedy policy alone
    int rounds;      ///< how far a playout looks ahead, in rounds of turns
};

Budget budget_for(int level) {
    switch (std::clamp(level, ::bot::min_level, ::bot::max_level)) {
        case 1:
            return {1, 0, 0};
        case 2:
            return {4, 60, 2};
        case 3:
            return {6, 250, 3};
        case 4:
            return {10, 1000, 3};
        default:
            return {16, 3000, 3};
    }
}

struct Candidate {
    Step step;
    double appeal = 0;
    double total = 0;  ///< sum of the playouts' outlooks
    int playouts = 0;
    double mean() const { return playouts > 0 ? total / playouts : 0.0; }
};

// A uniform number in [0, 1) from `rng`.
double unit(std::uint64_t& rng) {
    return static_cast<double>(next_random(rng) >> 11) * 0x1.0p-53;
}

// The greedy policy's step, `noise` points of random jitter on each appeal.
Step policy_step(const State& s, const StepList& legal, std::uint64_t& rng, double noise) {
    const Plan plan = plan_for(s);
    std::size_t best = 0;
    double best_appeal = -1e18;
    for (std::size_t i = 0; i < legal.size(); ++i) {
        double a = step_appeal(s, plan, legal[i]) + noise * unit(rng);
        if (a > best_appeal) best = i, best_appeal = a;
    }
    return legal[best];
}

// One playout of `first` from a fresh determinization, scored for `seat`.
double playout(const View& view, int seat, const Step& first, int rounds, std::uint64_t& rng,
               StepList& legal) {
    State s = determinize(view, rng);
    apply_step(s, first);
    int seats_in = 0;
    for (int i = 0; i < s.players; ++i) seats_in += s.seat(i).out ? 0 : 1;
    const std::uint32_t stop = s.turn + static_cast<std::uint32_t>(rounds * seats_in);
    while (s.phase != Phase::Over && s.turn < stop) {
        legal_steps(s, legal);
        apply_step(s, legal.size() == 1 ? legal.front() : policy_step(s, legal, rng, 0.4));
    }
    return outlook(s, seat);
}

// The legal steps worth searching: a card bought is tried with its default payment only
// (listed first), the rest of its payments spend gold where gems would do.
std::vector<Candidate> root_candidates(const State& s, const StepList& legal, std::uint64_t& rng) {
    const Plan plan = plan_for(s);
    std::vector<Candidate> out;
    for (const Step& st : legal) {
        if (st.kind == StepKind::Buy &&
            std::any_of(out.begin(), out.end(), [&](const Candidate& c) {
                return c.step.kind == StepKind::Buy && c.step.card == st.card;
            }))
            continue;
        // A hair of noise breaks ties the seed's way.
        out.push_back(Candidate{.step = st, .appeal = step_appeal(s, plan, st) + 1e-6 * unit(rng)});
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const Candidate& a, const Candidate& b) { return a.appeal > b.appeal; });
    return out;
}

// A step after which the game is over and `seat` alone has won.
const Step* winning_step(const State& s, const StepList& legal, int seat) {
    for (const Step& st : legal) {
        State after = s;
        apply_step(after, st);
        if (after.phase == Phase::Over && after.winners == (1u << seat)) return &st;
    }
    return nullptr;
}

}  // namespace

Step choose_step(const View& view, int seat, const Options& options) {
    using clock = std::chrono::steady_clock;
    const auto started = clock::now();
    if (view.phase == Phase::Confirm) return Step{.kind = StepKind::EndTurn};
    std::uint64_t rng = options.seed ^ 0x5DEECE66Dull;
    const State sample = determinize(view, rng);  // its legal steps are the true game's
    StepList legal;
    legal_steps(sample, legal);
    if (legal.empty()) return Step{};  // the game is over: nothing to decide (a misuse)
    if (legal.size() == 1) return legal.front();
    if (const Step* win = winning_step(sample, legal, seat)) return *win;

    const Budget budget = budget_for(options.level);
    std::vector<Candidate> cands = root_candidates(sample, legal, rng);
    if (budget.playouts == 0 || cands.size() == 1) return cands.front().step;
    cands.resize(std::min<std::size_t>(cands.size(), static_cast<std::size_t>(budget.candidates)));

    const auto out_of_time = [&] {
        return options.time_limit.count() > 0 && clock::now() - started >= options.time_limit;
    };
    // Sequential halving: ceil(log2 k) rounds, each with an equal share of the playouts.
    std::size_t alive = cands.size();
    const int halvings = static_cast<int>(std::ceil(std::log2(static_cast<double>(alive))));
    const int per_round = budget.playouts / std::max(1, halvings);
    bool stopped = false;
    while (alive > 1 && !stopped) {
        const int each = std::max(1, per_round / static_cast<int>(alive));
        for (int n = 0; n < each && !stopped; ++n)
            for (std::size_t i = 0; i < alive; ++i) {
                cands[i].total += playout(view, seat, cands[i].step, budget.rounds, rng, legal);
                ++cands[i].playouts;
                if (out_of_time()) {
                    stopped = true;
                    break;
                }
            }
        std::stable_sort(cands.begin(), cands.begin() + static_cast<std::ptrdiff_t>(alive),
                         [](const Candidate& a, const Candidate& b) {
                             return a.playouts > 0 && b.playouts > 0 ? a.mean() > b.mean()
                                                                     : a.playouts > b.playouts;
                         });
        if (!stopped) alive = (alive + 1) / 2;
    }
    return cands.front().step;
}

}  // namespace splendor::bot
