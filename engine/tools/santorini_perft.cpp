// santorini-perft [--powers A,B] [--bench] [--distinct] "<position>" <depth>
// Prints the number of legal full-turn sequences of length <depth> from the position (last
// line). --distinct prints the number of distinct positions after one full turn instead.
// --bench also prints the time and full turns (leaves) per second.

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "engine/santorini/notation.hpp"
#include "engine/santorini/perft.hpp"

namespace {
int usage() {
    std::fprintf(stderr,
                 "usage: santorini-perft [--powers A,B] [--bench] [--distinct] \"<position>\" <depth>\n"
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
    }
    std::printf("%llu\n", static_cast<unsigned long long>(n));
    return 0;
}
