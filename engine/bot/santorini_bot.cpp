// The Santorini computer player: the draft and the setup by simple rules and a one-step look
// at the evaluation, the turns by the alpha-beta search (santorini_search.hpp) within the
// level's budget. docs/bot.md, "Santorini: the search", gives the budgets and why.

#include "engine/bot/santorini_bot.hpp"

#include <algorithm>
#include <array>

#include "engine/bot/santorini_evaluation.hpp"
#include "engine/bot/santorini_search.hpp"
#include "engine/santorini/game.hpp"
#include "engine/santorini/rng.hpp"

namespace santorini::bot {
namespace {

// Per level: positions visited at most, and full turns searched to at most. Level 1 sees its
// own turn only; level 2 also the reply; each further level three to four times the positions.
constexpr std::array<SearchLimits, ::bot::max_level> level_limits{{
    {150, 1, {}},
    {1'000, 2, {}},
    {4'000, 3, {}},
    {15'000, 4, {}},
    {50'000, 6, {}},
}};

// A rough prior for the draft, from how often each simple god is counted strong in the
// community's rankings: choosing from the offer, the bot takes the highest (ties by seed).
int power_rating(PowerId p) {
    switch (p) {
        case PowerId::Artemis: case PowerId::Demeter: case PowerId::Minotaur: case PowerId::Pan:
        case PowerId::Prometheus: case PowerId::Atlas: case PowerId::Apollo: case PowerId::Athena:
        case PowerId::Hephaestus: case PowerId::Hermes:
            return 3;
        case PowerId::None:
            return 0;
        default:
            return 2;
    }
}

// Draft and setup: never a search (placement trees are wide and nobody has moved yet).
Step choose_setup_step(const State& view, const StepList& legal, std::uint64_t seed) {
    std::uint64_t rng = seed ^ 0x0ff1'ce5e'7a9e'0001ull;
    const int seat = decider(view);
    const int side = side_of_seat(view, seat);
    int best = -1;
    int best_score = 0;
    for (int i = 0; i < legal.size(); ++i) {
        const Step& step = legal[i];
        int score = 0;
        switch (step.kind) {
            case StepKind::Offer:  // the challenger keeps what is left: any offer is fair game
                score = 0;
                break;
            case StepKind::Choose:
                score = 100 * power_rating(step.power());
                break;
            case StepKind::StartPlayer:  // moving first is an edge in Santorini
                score = step.aux == seat ? 100 : 0;
                break;
            default: {  // placements and setup tokens: where the evaluation likes them
                State child = view;
                apply_step(child, step);
                score = child.over() ? 0 : evaluate(child, side);
                break;
            }
        }
        score += random_below(rng, 10);
        if (best < 0 || score > best_score) {
            best = i;
            best_score = score;
        }
    }
    return legal[best];
}

}  // namespace

Step choose_step(const State& seat_view, const Options& options) {
    StepList legal;
    legal_steps(seat_view, legal);
    if (legal.size() == 1) return legal[0];
    if (!in_play(seat_view)) return choose_setup_step(seat_view, legal, options.seed);
    const int level = std::clamp(options.level, ::bot::min_level, ::bot::max_level);
    SearchLimits limits = level_limits[static_cast<std::size_t>(level - 1)];
    limits.time_limit = options.time_limit;
    return search_step(seat_view, limits, options.seed).step;
}

}  // namespace santorini::bot
