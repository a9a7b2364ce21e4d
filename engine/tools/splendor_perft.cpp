// splendor-perft [--players N] [--start S] [--seed X] [--position "<notation>"] [--divide] <depth>
// Prints the number of legal step sequences of length <depth> (nodes) from a new game
// (players, start seat and seed; 2, 0, 0 by default) or from a position in notation
// (docs/splendor_engine.md), then the time and nodes per second. --divide first prints the
// count under each first step.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <variant>

#include "engine/splendor/game.hpp"
#include "engine/splendor/notation.hpp"
#include "engine/splendor/perft.hpp"

namespace {

int usage() {
    std::fprintf(
        stderr,
        "usage: splendor-perft [--players N] [--start S] [--seed X] [--position \"<notation>\"] "
        "[--divide] <depth>\n"
        "  a new game from its settings (default: 2 players, seat 0 starts, seed 0),\n"
        "  or --position: a state in notation (docs/splendor_engine.md)\n");
    return 2;
}

bool read_number(const char* text, long long low, long long high, long long& out) {
    char* end = nullptr;
    out = std::strtoll(text, &end, 10);
    return end != text && *end == '\0' && out >= low && out <= high;
}

}  // namespace

int main(int argc, char** argv) {
    long long players = 2, start = 0, seed = 0, depth = -1;
    std::string position;
    bool divide = false;
    for (int i = 1; i < argc; ++i) {
        std::string a = argv[i];
        bool has_value = i + 1 < argc;
        if (a == "--players" && has_value) {
            if (!read_number(argv[++i], 2, 4, players)) return usage();
        } else if (a == "--start" && has_value) {
            if (!read_number(argv[++i], 0, 3, start)) return usage();
        } else if (a == "--seed" && has_value) {
            if (!read_number(argv[++i], 0, 0x7fffffffffffffffLL, seed)) return usage();
        } else if (a == "--position" && has_value) {
            position = argv[++i];
        } else if (a == "--divide") {
            divide = true;
        } else if (depth < 0 && read_number(argv[i], 0, 30, depth)) {
        } else {
            return usage();
        }
    }
    if (depth < 0) return usage();

    splendor::State state;
    if (!position.empty()) {
        auto r = splendor::parse_notation(position);
        if (auto* e = std::get_if<std::string>(&r)) {
            std::fprintf(stderr, "splendor-perft: %s\n", e->c_str());
            return 1;
        }
        state = std::get<splendor::State>(r);
    } else {
        auto r = splendor::new_game({.players = static_cast<int>(players),
                                     .start_player = static_cast<int>(start),
                                     .seed = static_cast<std::uint64_t>(seed)});
        if (auto* e = std::get_if<std::string>(&r)) {
            std::fprintf(stderr, "splendor-perft: %s\n", e->c_str());
            return 1;
        }
        state = std::get<splendor::State>(r);
    }

    auto begin = std::chrono::steady_clock::now();
    std::uint64_t nodes = 0;
    if (divide && depth > 0) {
        for (const auto& [step, n] : splendor::perft_divide(state, static_cast<int>(depth))) {
            std::printf("%s: %llu\n", splendor::to_text(step).c_str(),
                        static_cast<unsigned long long>(n));
            nodes += n;
        }
    } else {
        nodes = splendor::perft(state, static_cast<int>(depth));
    }
    double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::printf("nodes: %llu\n", static_cast<unsigned long long>(nodes));
    std::printf("time: %.3f s\n", seconds);
    std::printf("nodes per second: %.0f\n",
                seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0);
    return 0;
}
