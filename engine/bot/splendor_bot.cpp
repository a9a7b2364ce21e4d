// PLACEHOLDER (replaced by the search on branch bot-splendor in this session).

#include "engine/bot/splendor_bot.hpp"

#include <stdexcept>

namespace splendor::bot {

Step choose_step(const View&, int, const Options&) { throw std::logic_error("the Splendor bot is not built yet"); }

}  // namespace splendor::bot
