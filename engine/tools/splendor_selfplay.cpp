// splendor-selfplay [--games N] [--seed X] [--table strength|ladder|speed] [--match A:B:P]...
// Seeded Splendor games between players from {random, greedy, bot1 .. bot5} (the baselines of
// engine/bot/splendor_baselines.hpp and the bot at a level), printing a markdown table: for
// each match, A's win rate against the B seats with the game count and a 95% (Wilson)
// interval, and the mean CPU time A took per decision (thread time: the machine may be
// shared). A match `A:B:P` is P players (2-4): one seat A, the others B; A's seat and the
// start player rotate over the games. A victory shared by k seats counts 1/k. Every step is
// checked against the engine's legal list; a step that is not legal stops the tool with exit
// status 1. Presets (docs/bot.md):
//   strength  bot5 against random and greedy with 2, 3 and 4 players, bot1 against greedy
//   ladder    each level against the one below (2 players)
//   speed     the time per decision of each level (bot N against greedy, 2 and 4 players)

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/bot/splendor_baselines.hpp"
#include "engine/bot/splendor_bot.hpp"
#include "engine/splendor/game.hpp"
#include "engine/splendor/rng.hpp"
#include "engine/splendor/view.hpp"

namespace {

using namespace splendor;

// A player: a baseline (level 0 = random, -1 = greedy) or the bot at a level 1-5.
struct Kind {
    int level = 0;
    std::string name() const {
        return level == 0 ? "random" : level < 0 ? "greedy" : "bot" + std::to_string(level);
    }
};

std::optional<Kind> parse_kind(const std::string& s) {
    if (s == "random") return Kind{0};
    if (s == "greedy") return Kind{-1};
    if (s.size() == 4 && s.starts_with("bot") && s[3] >= '1' && s[3] <= '5')
        return Kind{s[3] - '0'};
    return std::nullopt;
}

struct Match {
    Kind a, b;
    int players = 2;
};

struct Tally {
    double score = 0;  // A's wins, a shared one counting 1/k
    int games = 0;
    long decisions = 0;
    double seconds = 0;
    long turns = 0;
};

// This thread's CPU time in seconds: on a shared machine the wall clock measures the others.
double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::uint64_t mix(std::uint64_t a, std::uint64_t b) {
    std::uint64_t x = a * 0x9E3779B97F4A7C15ull + b;
    return next_random(x);
}

// One game; A sits at `a_seat`. Returns false if a step was not legal (reported on stderr).
bool play(const Match& m, std::uint64_t seed, int a_seat, int start, Tally& t) {
    auto made = new_game({.players = m.players, .start_player = start, .seed = seed});
    State s = std::get<State>(made);
    std::uint64_t rng = mix(seed, 7);
    StepList legal;
    for (int n = 0; s.phase != Phase::Over; ++n) {
        if (n > 5000) {
            std::fprintf(stderr, "game %llu did not end\n", static_cast<unsigned long long>(seed));
            return false;
        }
        const int seat = decider(s);
        const Kind k = seat == a_seat ? m.a : m.b;
        const double started = cpu_seconds();
        Step step;
        if (k.level == 0)
            step = splendor::bot::random_step(s, rng);
        else if (k.level < 0)
            step = splendor::bot::greedy_step(s);
        else
            step = splendor::bot::choose_step(
                view_for(s, seat), seat,
                splendor::bot::Options{.level = k.level,
                                       .seed = mix(seed, static_cast<std::uint64_t>(n))});
        if (seat == a_seat) {
            t.seconds += cpu_seconds() - started;
            ++t.decisions;
        }
        if (auto problem = try_step(s, step)) {
            std::fprintf(stderr, "%s played an illegal step in game %llu: %s\n", k.name().c_str(),
                         static_cast<unsigned long long>(seed), problem->c_str());
            return false;
        }
    }
    const int winners = std::popcount(static_cast<unsigned>(s.winners));
    if (s.winners >> a_seat & 1u) t.score += 1.0 / winners;
    ++t.games;
    t.turns += s.turn;
    return true;
}

// Wilson's 95% interval for `wins` out of `n`.
void wilson(double wins, int n, double& low, double& high) {
    const double z = 1.96, p = wins / n, z2n = z * z / n;
    const double centre = (p + z2n / 2) / (1 + z2n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
    low = std::max(0.0, centre - half);
    high = std::min(1.0, centre + half);
}

int usage() {
    std::fprintf(stderr,
                 "usage: splendor-selfplay [--games N] [--seed X] [--table strength|ladder|speed] "
                 "[--match A:B:P]...\n"
                 "  A, B: random, greedy, bot1 .. bot5; P: 2, 3 or 4 players (one seat A, the "
                 "rest B)\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    long long games = 100;
    std::uint64_t seed = 1;
    std::vector<Match> matches;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (i + 1 >= argc) return usage();
        std::string value = argv[++i];
        if (arg == "--games") {
            games = std::atoll(value.c_str());
            if (games < 1) return usage();
        } else if (arg == "--seed") {
            seed = std::strtoull(value.c_str(), nullptr, 10);
        } else if (arg == "--match") {
            auto c1 = value.find(':'), c2 = value.rfind(':');
            if (c1 == std::string::npos || c2 == c1) return usage();
            auto a = parse_kind(value.substr(0, c1)),
                 b = parse_kind(value.substr(c1 + 1, c2 - c1 - 1));
            int p = std::atoi(value.c_str() + c2 + 1);
            if (!a || !b || p < 2 || p > 4) return usage();
            matches.push_back({*a, *b, p});
        } else if (arg == "--table") {
            if (value == "strength") {
                for (int p = 2; p <= 4; ++p) matches.push_back({Kind{5}, Kind{0}, p});
                for (int p = 2; p <= 4; ++p) matches.push_back({Kind{5}, Kind{-1}, p});
                matches.push_back({Kind{1}, Kind{-1}, 2});
            } else if (value == "ladder") {
                for (int l = 2; l <= 5; ++l) matches.push_back({Kind{l}, Kind{l - 1}, 2});
            } else if (value == "speed") {
                for (int p : {2, 4})
                    for (int l = 1; l <= 5; ++l) matches.push_back({Kind{l}, Kind{-1}, p});
            } else {
                return usage();
            }
        } else {
            return usage();
        }
    }
    if (matches.empty()) return usage();

    std::printf(
        "| A | B | players | games | A's win rate | 95%% interval | even share | A's CPU ms per "
        "decision | turns per game |\n");
    std::printf("|---|---|---|---|---|---|---|---|---|\n");
    for (const Match& m : matches) {
        Tally t;
        for (long long g = 0; g < games; ++g) {
            const int a_seat = static_cast<int>(g % m.players);
            const int start = static_cast<int>((g / m.players) % m.players);
            if (!play(m, mix(seed, static_cast<std::uint64_t>(g)), a_seat, start, t)) return 1;
        }
        double low = 0, high = 0;
        wilson(t.score, t.games, low, high);
        std::printf("| %s | %s | %d | %d | %.1f%% | %.1f-%.1f%% | %.0f%% | %.2f | %.0f |\n",
                    m.a.name().c_str(), m.b.name().c_str(), m.players, t.games,
                    100 * t.score / t.games, 100 * low, 100 * high, 100.0 / m.players,
                    t.decisions ? 1000 * t.seconds / t.decisions : 0.0,
                    static_cast<double>(t.turns) / t.games);
        std::fflush(stdout);
    }
    return 0;
}
