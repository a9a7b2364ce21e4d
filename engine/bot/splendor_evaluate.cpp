// The weights are in prestige points, set by hand and checked by self-play against the greedy
// baseline (docs/bot.md); they are a heuristic, not a rule. A bonus is a permanent discount (worth
// about a third of a point when the game is young); a token is a tenth of a point, gold a little
// more (it pays for any colour); a noble draws its three points in as its colours are met.

#include "engine/bot/splendor_evaluate.hpp"

#include <algorithm>
#include <bit>
#include <cmath>

#include "engine/splendor/cards.hpp"

namespace splendor::bot {
namespace {

std::size_t ev_at(int i) {
    return static_cast<std::size_t>(i);
}

// How far `p` is from buying `c`: tokens short after bonuses and the tokens it holds
// (`short_by`, by colour), and the gold it would still lack (`missing`).
struct Distance {
    Colours short_by{};
    Colours spend{};  ///< tokens held that the card would take
    int missing = 0;  ///< tokens short beyond what gold covers
    int gap = 0;      ///< cost left after bonuses
};

Distance distance(const Player& p, const Card& c) {
    Distance d;
    int short_total = 0;
    for (std::size_t k = 0; k < gem_colours; ++k) {
        int gap = std::max(0, c.cost[k] - p.bonuses[k]);
        int s = std::max(0, gap - p.tokens[k]);
        d.short_by[k] = static_cast<std::int8_t>(s);
        d.spend[k] = static_cast<std::int8_t>(gap - s);
        d.gap += gap;
        short_total += s;
    }
    d.missing = std::max(0, short_total - p.tokens[Gold]);
    return d;
}

// A noble's pull on a colour: the nobles on the table that still want it, nearer ones more.
std::array<double, gem_colours> colour_worth(const State& s, const Player& p) {
    std::array<double, gem_colours> w{};
    w.fill(0.25);
    for (int id = 0; id < noble_count; ++id) {
        if (!(s.nobles >> id & 1u)) continue;
        const Noble& n = noble(id);
        int want = 0, have = 0;
        for (std::size_t k = 0; k < gem_colours; ++k) {
            want += n.requirements[k];
            have += std::min<int>(n.requirements[k], p.bonuses[k]);
        }
        double progress = want > 0 ? static_cast<double>(have) / want : 1.0;
        for (std::size_t k = 0; k < gem_colours; ++k)
            if (p.bonuses[k] < n.requirements[k]) w[k] += 0.15 + 0.35 * progress;
    }
    return w;
}

// Calls f(card id) for every card `p` could buy some day: the face-up ones and its reserves.
template <class F>
void for_each_target(const State& s, const Player& p, F&& f) {
    for (const auto& row : s.rows)
        for (auto id : row)
            if (id >= 0) f(static_cast<int>(id));
    for (int r = 0; r < p.reserved_count; ++r) f(static_cast<int>(p.reserved[ev_at(r)].card));
}

double card_worth(const Card& c, const std::array<double, gem_colours>& cw) {
    return c.points + cw[c.bonus];
}

// How soon a card is worth having: its worth over the turns it would take to afford.
double desirability(const Card& c, const Distance& d, const std::array<double, gem_colours>& cw) {
    return card_worth(c, cw) / (1.0 + d.missing + 0.25 * d.gap);
}

// Nobles the seat would earn with one more bonus of `colour`.
int nobles_completed(const State& s, const Player& p, Gem colour) {
    int n = 0;
    for (int id = 0; id < noble_count; ++id) {
        if (!(s.nobles >> id & 1u)) continue;
        const Noble& nb = noble(id);
        bool before = true, after = true;
        for (std::size_t k = 0; k < gem_colours; ++k) {
            int b = p.bonuses[k];
            if (b < nb.requirements[k]) before = false;
            if (b + (k == colour ? 1 : 0) < nb.requirements[k]) after = false;
        }
        if (after && !before) ++n;
    }
    return n;
}

}  // namespace

Plan plan_for(const State& s) {
    const Player& p = s.seat(s.current);
    Plan plan;
    plan.colour_worth = colour_worth(s, p);
    int first = -1, second = -1;
    double best = -1, next = -1;
    Distance d_first, d_second;
    for_each_target(s, p, [&](int id) {
        Distance d = distance(p, card(id));
        if (d.gap == 0) return;  // free already: nothing to save for
        double x = desirability(card(id), d, plan.colour_worth);
        if (x > best) {
            second = first, next = best, d_second = d_first;
            first = id, best = x, d_first = d;
        } else if (x > next) {
            second = id, next = x, d_second = d;
        }
    });
    for (std::size_t k = 0; k < gem_colours; ++k) {
        if (first >= 0) plan.need[k] += d_first.short_by[k];
        if (second >= 0) plan.need[k] += 0.5 * d_second.short_by[k];
        if (first >= 0) plan.spend[k] += d_first.spend[k];
        if (second >= 0) plan.spend[k] += 0.5 * d_second.spend[k];
    }
    return plan;
}

double position_worth(const State& s, int seat) {
    const Player& p = s.seat(seat);
    double worth = p.points;
    const double young = std::max(0.0, 1.0 - p.points / 15.0);
    worth += (0.15 + 0.3 * young) * p.cards;
    int coloured = 0;
    for (std::size_t k = 0; k < gem_colours; ++k) coloured += p.tokens[k];
    worth += 0.1 * coloured + 0.2 * p.tokens[Gold];
    for (int id = 0; id < noble_count; ++id) {
        if (!(s.nobles >> id & 1u)) continue;
        const Noble& n = noble(id);
        int want = 0, have = 0;
        for (std::size_t k = 0; k < gem_colours; ++k) {
            want += n.requirements[k];
            have += std::min<int>(n.requirements[k], p.bonuses[k]);
        }
        double f = want > 0 ? static_cast<double>(have) / want : 1.0;
        worth += 1.5 * f * f;
    }
    const auto cw = colour_worth(s, p);
    double soonest = 0;
    for_each_target(s, p, [&](int id) {
        const Card& c = card(id);
        Distance d = distance(p, c);
        soonest = std::max(soonest, card_worth(c, cw) / (1.0 + d.missing));
    });
    return worth + 0.4 * soonest;
}

double outlook(const State& s, int seat) {
    if (s.phase == Phase::Over) {
        if (!(s.winners >> seat & 1u)) return 0.0;
        return 1.0 / std::popcount(static_cast<unsigned>(s.winners));
    }
    const double mine = position_worth(s, seat);
    double best_other = -1e9;
    for (int i = 0; i < s.players; ++i)
        if (i != seat && !s.seat(i).out) best_other = std::max(best_other, position_worth(s, i));
    if (best_other < -1e8) return 1.0;
    return 1.0 / (1.0 + std::exp(-0.6 * (mine - best_other)));
}

double step_appeal(const State& s, const Plan& plan, const Step& step) {
    const Player& p = s.seat(s.current);
    switch (step.kind) {
        case StepKind::Buy: {
            const Card& c = card(step.card);
            double a = 3.0 + 1.5 * card_worth(c, plan.colour_worth) +
                       3.0 * nobles_completed(s, p, c.bonus) - 0.4 * step.gems[Gold] -
                       0.05 * total(step.gems);
            if (p.points + c.points >= winning_points) a += 100.0;
            return a;
        }
        case StepKind::Take: {
            double a = 0;
            int taken = 0;
            for (std::size_t k = 0; k < gem_colours; ++k) {
                int g = step.gems[k];
                taken += g;
                double useful = std::min<double>(g, std::max(0.0, plan.need[k]));
                a += useful + 0.15 * (g - useful);
            }
            int over = total(p.tokens) + taken - max_tokens;
            if (over > 0) a -= 0.6 * over;
            return a;
        }
        case StepKind::Reserve: {
            const bool gold = s.supply[Gold] > 0;
            if (step.card < 0) return gold ? 0.25 : 0.0;
            const Card& c = card(step.card);
            Distance d = distance(p, c);
            if (p.reserved_count < 2 && c.points >= 3 && d.missing <= (gold ? 3 : 2))
                return 1.0 + 0.2 * c.points;
            return gold ? 0.3 : 0.0;
        }
        case StepKind::Return: {
            for (std::size_t k = 0; k < token_kinds; ++k)
                if (step.gems[k] > 0) {
                    if (k == Gold) return -5.0;
                    // Keep what the plan would spend; of the rest, give back the most held.
                    return -std::min<double>(plan.spend[k], p.tokens[k]) + 0.01 * p.tokens[k];
                }
            return 0;
        }
        case StepKind::Noble:
        case StepKind::Pass:
        case StepKind::Undo:
        case StepKind::EndTurn:
            return 0;
    }
    return 0;
}

}  // namespace splendor::bot
