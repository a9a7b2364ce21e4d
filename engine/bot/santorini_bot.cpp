// PLACEHOLDER (replaced by the search on branch bot-santorini in this session): a uniformly
// random legal step, so that the server side can be built against the interface meanwhile.

#include "engine/bot/santorini_bot.hpp"

#include "engine/santorini/game.hpp"

namespace santorini::bot {

Step choose_step(const State& seat_view, const Options& options) {
    StepList legal;
    legal_steps(seat_view, legal);
    std::uint64_t x = options.seed + 0x9e3779b97f4a7c15ull;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
    return legal[static_cast<int>(x % static_cast<std::uint64_t>(legal.size()))];
}

}  // namespace santorini::bot
