// santorini-selfplay [--a PLAYER] [--b PLAYER] [--games N] [--powers P,Q] [--seed S] [--threads T]
// santorini-selfplay --report [--games N] [--pairing-games M] [--threads T]
// Plays games between two players, each one of: random, greedy (one ply: wins when it can, else
// avoids giving the next player an immediate win, else random), bot1 .. bot5 (the computer
// player at that level). Each player decides on its seat's view. Seats alternate (A plays
// first in even games, second in odd ones); with --powers the first seat has P and the second
// Q, so A plays each power in half the games. Prints a markdown table row set: wins of A, of B,
// draws (no result after 1,000 steps), A's win rate with a 95% Wilson interval, and the mean
// CPU time per decision of each player (thread time: the machine may be shared). --report prints the tables of docs/bot.md ("Santorini:
// strength"): the top level against random and against greedy in the base game (N games) and
// a sample of god pairings (M games each, and their total), and each level against the one
// below it in the base game (level 1 against greedy).

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>
#include <time.h>
#include <vector>

#include "engine/bot/santorini_baselines.hpp"
#include "engine/bot/santorini_bot.hpp"
#include "engine/santorini/game.hpp"
#include "engine/santorini/rng.hpp"
#include "engine/santorini/view.hpp"

namespace {

using namespace santorini;

constexpr int step_bound = 1'000;

struct Player {
    std::string name;
    int level = 0;  // 0: a baseline named by `name`
};

std::optional<Player> parse_player(const std::string& text) {
    if (text == "random" || text == "greedy") return Player{text, 0};
    if (text.size() == 4 && text.rfind("bot", 0) == 0 && text[3] >= '1' && text[3] <= '5')
        return Player{text, text[3] - '0'};
    return std::nullopt;
}

struct Tally {
    int a_wins = 0, b_wins = 0, draws = 0;
    double a_seconds = 0, b_seconds = 0;
    long a_decisions = 0, b_decisions = 0;
    void add(const Tally& t) {
        a_wins += t.a_wins, b_wins += t.b_wins, draws += t.draws;
        a_seconds += t.a_seconds, b_seconds += t.b_seconds;
        a_decisions += t.a_decisions, b_decisions += t.b_decisions;
    }
};

// CPU time of this thread: the machine is shared, so wall time would measure the neighbours.
double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

Step decide(const Player& p, const State& view, std::uint64_t seed) {
    if (p.level > 0) return santorini::bot::choose_step(view, {p.level, seed, std::chrono::milliseconds{0}});
    std::uint64_t rng = seed;
    return p.name == "random" ? santorini::bot::random_step(view, rng) : santorini::bot::greedy_step(view, rng);
}

// One game; A sits in seat `a_seat`.
void play(const Player& a, const Player& b, const std::vector<PowerId>& powers, int a_seat, std::uint64_t seed,
          Tally& t) {
    Settings st;
    st.players = 2;
    st.draft = powers.empty() ? DraftMode::None : DraftMode::Fixed;
    st.powers = powers;
    st.start_player = 0;
    st.seed = seed;
    auto created = new_game(st);
    if (!created.ok()) {
        std::fprintf(stderr, "new_game: %s\n", created.error().message.c_str());
        std::exit(2);
    }
    State s = *created;
    for (int n = 0; n < step_bound && !s.over(); ++n) {
        const int seat = decider(s);
        const bool is_a = seat == a_seat;
        const double start = thread_seconds();
        std::uint64_t step_seed = seed ^ (0x9e3779b97f4a7c15ull * static_cast<std::uint64_t>(n + 1));
        const Step step = decide(is_a ? a : b, view_for(s, seat), engine_common::next_random(step_seed));
        const double secs = thread_seconds() - start;
        (is_a ? t.a_seconds : t.b_seconds) += secs;
        ++(is_a ? t.a_decisions : t.b_decisions);
        if (auto e = try_step(s, step)) {
            std::fprintf(stderr, "illegal step %s by %s: %s\n", to_text(step).c_str(), (is_a ? a : b).name.c_str(),
                         e->c_str());
            std::exit(3);
        }
    }
    if (!s.over())
        ++t.draws;
    else if (s.winners & (1u << a_seat))
        ++t.a_wins;
    else
        ++t.b_wins;
}

Tally play_many(const Player& a, const Player& b, const std::vector<PowerId>& powers, int games, std::uint64_t seed,
                int threads) {
    std::vector<Tally> per(static_cast<std::size_t>(threads));
    std::atomic<int> next{0};
    auto work = [&](int id) {
        for (int g; (g = next++) < games;) {
            std::uint64_t x = seed + static_cast<std::uint64_t>(g);
            play(a, b, powers, g % 2, engine_common::next_random(x), per[static_cast<std::size_t>(id)]);
        }
    };
    std::vector<std::thread> pool;
    for (int i = 1; i < threads; ++i) pool.emplace_back(work, i);
    work(0);
    for (auto& th : pool) th.join();
    Tally total;
    for (const auto& t : per) total.add(t);
    return total;
}

// Wilson score interval for `wins` of `n`, 95%.
std::pair<double, double> wilson(int wins, int n) {
    if (n == 0) return {0, 1};
    const double z = 1.96, p = static_cast<double>(wins) / n, z2n = z * z / n;
    const double centre = (p + z2n / 2) / (1 + z2n);
    const double half = z * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n)) / (1 + z2n);
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

std::string pairing_name(const std::vector<PowerId>& powers) {
    if (powers.empty()) return "base game";
    return std::string(power_info(powers[0]).key) + " v " + std::string(power_info(powers[1]).key);
}

void print_header() {
    std::printf("| powers | A | B | games | A wins | B wins | draws | A win rate (95%% CI) | CPU ms/decision A | CPU ms/decision B |\n");
    std::printf("|---|---|---|---:|---:|---:|---:|---|---:|---:|\n");
}

void print_row(const Player& a, const Player& b, const std::vector<PowerId>& powers, int games, const Tally& t,
               const char* label = nullptr) {
    auto [lo, hi] = wilson(t.a_wins, games);
    std::printf("| %s | %s | %s | %d | %d | %d | %d | %.1f%% (%.1f-%.1f) | %.1f | %.1f |\n",
                label ? label : pairing_name(powers).c_str(),
                a.name.c_str(), b.name.c_str(), games, t.a_wins, t.b_wins, t.draws, 100.0 * t.a_wins / games, 100 * lo,
                100 * hi, t.a_decisions ? 1000 * t.a_seconds / static_cast<double>(t.a_decisions) : 0.0,
                t.b_decisions ? 1000 * t.b_seconds / static_cast<double>(t.b_decisions) : 0.0);
    std::fflush(stdout);
}

std::optional<std::vector<PowerId>> parse_powers(const std::string& text) {
    auto comma = text.find(',');
    if (comma == std::string::npos) return std::nullopt;
    auto p = find_power(text.substr(0, comma)), q = find_power(text.substr(comma + 1));
    if (!p || !q) return std::nullopt;
    return std::vector<PowerId>{*p, *q};
}

// The god pairings of the report: simple gods, advanced ones with big step trees (Hermes,
// Atalanta, Morpheus), a hidden power (Hecate) and heroes.
const char* const sample_pairings[] = {
    "Apollo,Artemis", "Athena,Atlas", "Demeter,Hephaestus", "Minotaur,Pan",    "Prometheus,Hermes",
    "Chronus,Zeus",   "Hecate,Ares",  "Morpheus,Atalanta",  "Poseidon,Triton", "Achilles,Theseus",
};

void report(int games, int pairing_games, std::uint64_t seed, int threads) {
    const Player top{"bot5", 5}, random{"random", 0}, greedy{"greedy", 0};
    std::vector<std::vector<PowerId>> pairings{{}};
    for (const char* text : sample_pairings) {
        auto p = parse_powers(text);
        if (!p) {
            std::fprintf(stderr, "unknown pairing %s\n", text);
            std::exit(2);
        }
        Settings st;
        st.draft = DraftMode::Fixed;
        st.powers = *p;
        if (auto e = validate(st)) {
            std::fprintf(stderr, "skipping %s: %s\n", text, e->c_str());
            continue;
        }
        pairings.push_back(*p);
    }
    for (const Player* opponent : {&random, &greedy}) {
        std::printf("\n### %s against %s\n\n", top.name.c_str(), opponent->name.c_str());
        print_header();
        Tally gods;
        for (const auto& powers : pairings) {
            const int n = powers.empty() ? games : pairing_games;
            const Tally t = play_many(top, *opponent, powers, n, seed, threads);
            print_row(top, *opponent, powers, n, t);
            if (!powers.empty()) gods.add(t);
        }
        print_row(top, *opponent, {}, pairing_games * static_cast<int>(pairings.size() - 1), gods, "all pairings above");
    }
    std::printf("\n### each level against the one below\n\n");
    print_header();
    for (int level = 1; level <= 5; ++level) {
        const Player a{"bot" + std::to_string(level), level};
        const Player b = level == 1 ? greedy : Player{"bot" + std::to_string(level - 1), level - 1};
        print_row(a, b, {}, games, play_many(a, b, {}, games, seed, threads));
    }
}

}  // namespace

int main(int argc, char** argv) {
    Player a{"bot5", 5}, b{"greedy", 0};
    int games = 100, threads = 1, pairing_games = 0;
    std::uint64_t seed = 1;
    std::vector<PowerId> powers;
    bool want_report = false;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::fprintf(stderr, "%s needs a value\n", arg.c_str());
                std::exit(2);
            }
            return argv[++i];
        };
        if (arg == "--a" || arg == "--b") {
            auto p = parse_player(value());
            if (!p) {
                std::fprintf(stderr, "players: random, greedy, bot1 .. bot5\n");
                return 2;
            }
            (arg == "--a" ? a : b) = *p;
        } else if (arg == "--games") {
            games = std::atoi(value().c_str());
        } else if (arg == "--pairing-games") {
            pairing_games = std::atoi(value().c_str());
        } else if (arg == "--threads") {
            threads = std::atoi(value().c_str());
        } else if (arg == "--seed") {
            seed = std::strtoull(value().c_str(), nullptr, 10);
        } else if (arg == "--powers") {
            auto p = parse_powers(value());
            if (!p) {
                std::fprintf(stderr, "--powers takes two power names: Apollo,Artemis\n");
                return 2;
            }
            powers = *p;
        } else if (arg == "--report") {
            want_report = true;
        } else {
            std::fprintf(stderr, "usage: santorini-selfplay [--a P] [--b P] [--games N] [--powers P,Q] [--seed S] "
                                 "[--threads T] | --report [--games N] [--pairing-games M] [--threads T]\n");
            return 2;
        }
    }
    if (games <= 0 || threads <= 0 || threads > 8) {
        std::fprintf(stderr, "--games must be positive, --threads 1..8\n");
        return 2;
    }
    if (want_report) {
        report(games, pairing_games > 0 ? pairing_games : games, seed, threads);
        return 0;
    }
    if (!powers.empty()) {
        Settings st;
        st.draft = DraftMode::Fixed;
        st.powers = powers;
        if (auto e = validate(st)) {
            std::fprintf(stderr, "%s\n", e->c_str());
            return 2;
        }
    }
    print_header();
    print_row(a, b, powers, games, play_many(a, b, powers, games, seed, threads));
    return 0;
}
