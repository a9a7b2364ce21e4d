#include "engine/splendor/perft.hpp"

#include <array>

#include "engine/splendor/game.hpp"

namespace splendor {
namespace {

// One step list per ply, reused across siblings: perft is the benchmark, and allocating a
// list per node would be most of its time.
constexpr int max_depth = 32;

std::uint64_t count(const State& s, int depth, std::array<StepList, max_depth>& lists) {
    if (depth == 0) return 1;
    StepList& list = lists[static_cast<std::size_t>(depth - 1)];
    legal_steps(s, list);
    if (depth == 1) return list.size();  // bulk counting: the leaves are not played
    std::uint64_t n = 0;
    for (const Step& st : list) {
        State next = s;
        apply_step(next, st);
        n += count(next, depth - 1, lists);
    }
    return n;
}

}  // namespace

std::uint64_t perft(const State& state, int depth) {
    if (depth < 0 || depth > max_depth) return 0;
    std::array<StepList, max_depth> lists;
    return count(state, depth, lists);
}

std::vector<std::pair<Step, std::uint64_t>> perft_divide(const State& state, int depth) {
    std::vector<std::pair<Step, std::uint64_t>> out;
    if (depth < 1 || depth > max_depth) return out;
    StepList first;
    legal_steps(state, first);
    std::array<StepList, max_depth> lists;
    for (const Step& st : first) {
        State next = state;
        apply_step(next, st);
        out.emplace_back(st, count(next, depth - 1, lists));
    }
    return out;
}

}  // namespace splendor
