// santorini-perft [--powers A,B] [--bench] [--distinct] "<position>" <depth>
// santorini-perft --table
// santorini-perft --pairings [cpu-seconds [power]]
// Prints the number of legal full-turn sequences of length <depth> from the position (last
// line). --distinct prints the number of distinct positions after one full turn instead.
// --bench also prints the time and full turns (leaves) per second, and the same through the
// step generator alone (perft_by_steps), by the wall clock and by CPU time. --table prints a markdown
// table for docs/benchmarks.md: every implemented power against no power from one start.
// --pairings times the step generator (perft_by_steps) for every two-player pairing the
// rulebook allows (or only those of one power, on either side), and prints them slowest first
// (see pairing_rates below).

#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "engine/santorini/notation.hpp"
#include "engine/santorini/perft.hpp"
#include "engine/santorini/power_catalog.hpp"

namespace {

double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

// The start of every row: the workers of the usual benchmark position (B2, D4 against B4, D2;
// C1, C5 for a third player), a third worker on C3 or C4 for the side whose power brings three
// (Graeae, Moerae), Selene's female worker on D4, and the power's workers kept on its card
// (Gaea). Powers with setup choices (Aeolus' wind, Moerae's Fate) will need theirs here.
std::string table_position(const santorini::PowerInfo& info, int players) {
    std::string a = info.id == santorini::PowerId::Selene ? "B2,D4f" : "B2,D4", b = "B4,D2";  // her female worker
    if (info.workers == 3) a += ",C3";
    std::string pos = "00000/00000/00000/00000/00000 A:" + a + " B:" + b;
    if (players == 3) pos += " C:C1,C5";
    pos += " A powers=" + std::string(info.key) + (players == 3 ? ",-,-" : ",-");
    if (info.reserve) pos += " reserve=" + std::to_string(info.reserve) + (players == 3 ? ",0,0" : ",0");
    return pos;
}

// One row per implemented power: 2 players (its smallest count if it has no 2-player game),
// and a 3-player row too for the powers of 2-3 players only (their workers differ there).
// Full turns are paths, so Hermes' and Atalanta's open-board counts do not finish: their rows
// give the distinct positions after one turn instead (docs/engine.md 8).
int print_table() {
    std::printf("| Power | Players | Perft 1 | Perft 2 | Full turns/s |\n|---|---|---|---|---|\n");
    for (const auto& info : santorini::all_powers()) {
        if (!info.implemented) continue;
        for (int players = 2; players <= 3; ++players) {
            bool first = players == 2 ? santorini::allowed_with_players(info.id, 2)
                                      : !santorini::allowed_with_players(info.id, 2) ||
                                            !santorini::allowed_with_players(info.id, 4);
            if (!first || !santorini::allowed_with_players(info.id, players)) continue;
            auto state = santorini::parse_notation(table_position(info, players));
            if (!state) {
                std::printf("| %s | %d | %s | | |\n", std::string(info.name).c_str(), players, state.error().message.c_str());
                continue;
            }
            if (info.id == santorini::PowerId::Hermes || info.id == santorini::PowerId::Atalanta) {
                std::printf("| %s | %d | distinct %llu | - | - |\n", std::string(info.name).c_str(), players,
                            static_cast<unsigned long long>(santorini::perft_distinct(*state)));
                continue;
            }
            std::uint64_t one = santorini::perft(*state, 1);
            auto start = std::chrono::steady_clock::now();
            std::uint64_t two = santorini::perft(*state, 2);
            double t = seconds_since(start);
            std::printf("| %s | %d | %llu | %llu | %.0f |\n", std::string(info.name).c_str(), players,
                        static_cast<unsigned long long>(one), static_cast<unsigned long long>(two),
                        t > 0 ? static_cast<double>(two) / t : 0.0);
            std::fflush(stdout);
        }
    }
    return 0;
}

/// The workers of `info`'s side in the benchmark position (seat A's B2, D4; seat B's B4, D2),
/// with the third worker of Graeae and Moerae (C3 for A, C4 for B) and Selene's female worker.
std::string side_workers(const santorini::PowerInfo& info, bool first) {
    std::string w = first ? "B2,D4" : "B4,D2";
    if (info.id == santorini::PowerId::Selene) w += 'f';
    if (info.workers == 3) w += first ? ",C3" : ",C4";
    return w;
}

/// Every two-player pairing the rulebook allows (A moving first against B; B first is its own
/// row), timed through the step generator by CPU time: depth 1, 2, 3, ... from the benchmark
/// start while the next depth is expected (this one's time times the larger side's depth-1
/// count) to stay within `budget` CPU seconds. The rate is that of the deepest depth run (a
/// count shorter than 20 ms is repeated until 20 ms have passed). Hermes and Atalanta count
/// paths that explode on an open board and are left out, as in --table; setup marks (Aeolus'
/// Wind, Siren's Song, Moerae's Fate, Tartarus' Abyss) are not set, as in --table. With `only`,
/// just the pairings that power plays in, as A or as B (to measure one power's rows quickly).
int pairing_rates(double budget, std::optional<santorini::PowerId> only) {
    struct Row {
        std::string a, b;
        int depth = 0;
        std::uint64_t leaves = 0;
        double cpu = 0;
        double rate() const { return cpu > 0 ? static_cast<double>(leaves) / cpu : 0.0; }
    };
    std::vector<Row> rows;
    std::clock_t all_start = std::clock();
    for (const auto& a : santorini::all_powers()) {
        for (const auto& b : santorini::all_powers()) {
            if (a.id == b.id || !a.implemented || !b.implemented) continue;
            if (only && a.id != *only && b.id != *only) continue;
            if (santorini::banned_pair(a.id, b.id)) continue;
            if (!santorini::allowed_with_players(a.id, 2) || !santorini::allowed_with_players(b.id, 2)) continue;
            auto path_counter = [](santorini::PowerId id) {
                return id == santorini::PowerId::Hermes || id == santorini::PowerId::Atalanta;
            };
            if (path_counter(a.id) || path_counter(b.id)) continue;
            std::string pos = "00000/00000/00000/00000/00000 A:" + side_workers(a, true) +
                              " B:" + side_workers(b, false) + " A powers=" + std::string(a.key) +
                              "," + std::string(b.key);
            if (a.reserve || b.reserve)
                pos += " reserve=" + std::to_string(a.reserve) + "," + std::to_string(b.reserve);
            auto state = santorini::parse_notation(pos);
            if (!state) {
                std::fprintf(stderr, "santorini-perft: %s: %s\n", pos.c_str(), state.error().message.c_str());
                return 1;
            }
            Row row{std::string(a.name), std::string(b.name)};
            // Each full turn of depth d is the root of a count one ply deeper, so the next
            // depth costs about this one times the turns of the side that moves then: bounded
            // by the larger of the two sides' depth-1 counts (Heracles has 481,280 where most
            // have under a hundred).
            std::string b_first = pos;
            b_first.replace(b_first.find(" A powers="), 3, " B ");
            auto b_state = santorini::parse_notation(b_first);
            const std::uint64_t branching = std::max<std::uint64_t>(
                {santorini::perft_by_steps(*state, 1),
                 b_state ? santorini::perft_by_steps(*b_state, 1) : 0, 20});
            for (int depth = 1; depth <= 6; ++depth) {
                // Repeated until 20 ms of CPU time have passed: one count of a few microseconds
                // is below the clock's resolution.
                std::uint64_t leaves = 0, runs = 0;
                std::clock_t start = std::clock();
                double cpu = 0;
                do {
                    leaves = santorini::perft_by_steps(*state, depth);
                    ++runs;
                    cpu = static_cast<double>(std::clock() - start) / CLOCKS_PER_SEC;
                } while (cpu < 0.02 && runs < 10000);
                row = Row{row.a, row.b, depth, leaves, cpu / static_cast<double>(runs)};
                if (leaves == 0 || cpu / static_cast<double>(runs) * static_cast<double>(branching) > budget) break;
            }
            rows.push_back(row);
        }
    }
    std::sort(rows.begin(), rows.end(), [](const Row& x, const Row& y) { return x.rate() < y.rate(); });
    std::size_t under = 0;
    for (const Row& r : rows) under += r.rate() < 5e6;
    std::printf("%zu pairings, %zu under 5 M full turns per CPU second, %.0f CPU s in all\n\n",
                rows.size(), under, static_cast<double>(std::clock() - all_start) / CLOCKS_PER_SEC);
    std::printf("| A (first) | B | depth | full turns | CPU s | M full turns / CPU s |\n|---|---|---:|---:|---:|---:|\n");
    for (const Row& r : rows)
        std::printf("| %s | %s | %d | %llu | %.5f | %.2f |\n", r.a.c_str(), r.b.c_str(), r.depth,
                    static_cast<unsigned long long>(r.leaves), r.cpu, r.rate() / 1e6);
    std::fflush(stdout);
    return 0;
}

int usage() {
    std::fprintf(stderr,
                 "usage: santorini-perft [--powers A,B] [--bench] [--distinct] \"<position>\" <depth>\n"
                 "       santorini-perft --table   (every implemented power vs no power, markdown)\n"
                 "       santorini-perft --pairings [cpu-seconds [power]]   (every allowed pairing, or one\n"
                 "                                power's, slowest first)\n"
                 "  position: e.g. \"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A\"\n"
                 "  --powers A,B   each seat's power, in seat order (same as powers=A,B in the position)\n");
    return 2;
}
}  // namespace

int main(int argc, char** argv) {
    std::string powers, position;
    int depth = -1;
    bool bench = false, distinct = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        if (a == "--powers" && i + 1 < argc) {
            powers = argv[++i];
        } else if (a == "--bench") {
            bench = true;
        } else if (a == "--table") {
            return print_table();
        } else if (a == "--pairings") {
            double budget = 0.5;
            if (i + 1 < argc) budget = std::strtod(argv[++i], nullptr);
            if (!(budget > 0)) return usage();
            std::optional<santorini::PowerId> only;
            if (i + 1 < argc) {
                only = santorini::find_power(argv[++i]);
                if (!only) return usage();
            }
            return pairing_rates(budget, only);
        } else if (a == "--distinct") {
            distinct = true;
        } else if (a == "-h" || a == "--help") {
            return usage();
        } else if (position.empty()) {
            position = a;
        } else if (depth < 0) {
            char* end = nullptr;
            long d = std::strtol(a.c_str(), &end, 10);
            if (*end != '\0' || d < 0 || d > 20) return usage();
            depth = static_cast<int>(d);
        } else {
            return usage();
        }
    }
    if (position.empty() || (depth < 0 && !distinct)) return usage();
    if (!powers.empty()) position += " powers=" + powers;
    auto state = santorini::parse_notation(position);
    if (!state) {
        std::fprintf(stderr, "santorini-perft: %s\n", state.error().message.c_str());
        return 1;
    }
    auto start = std::chrono::steady_clock::now();
    std::uint64_t n = distinct ? santorini::perft_distinct(*state) : santorini::perft(*state, depth);
    double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (bench) {
        std::printf("time: %.3f s\n", seconds);
        std::printf("full turns per second: %.0f\n", seconds > 0 ? static_cast<double>(n) / seconds : 0.0);
        if (!distinct) {
            // The step generator itself (perft_by_steps), which every game with a power and
            // every bot search goes through; perft above may take the bulk counter.
            // CPU time too: on a shared machine the wall clock counts the other processes' turns.
            start = std::chrono::steady_clock::now();
            std::clock_t cpu_start = std::clock();
            std::uint64_t by_steps = santorini::perft_by_steps(*state, depth);
            double cpu = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
            double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            std::printf("generator (perft_by_steps): %llu full turns, %.3f s, %.0f full turns per second; "
                        "cpu %.3f s, %.0f full turns per cpu second%s\n",
                        static_cast<unsigned long long>(by_steps), t, t > 0 ? static_cast<double>(by_steps) / t : 0.0, cpu,
                        cpu > 0 ? static_cast<double>(by_steps) / cpu : 0.0, by_steps == n ? "" : " (COUNTS DIFFER)");
            if (by_steps != n) return 1;
        }
    }
    std::printf("%llu\n", static_cast<unsigned long long>(n));
    return 0;
}
