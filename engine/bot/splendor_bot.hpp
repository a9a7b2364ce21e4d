#pragma once
// The computer opponent for Splendor (2-4 players). It decides from its seat's view only:
// the order of the decks and the cards others reserved blind are unknown to it, and it
// samples them from the cards it has not seen (docs/bot.md).

#include "engine/bot/bot_options.hpp"
#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"
#include "engine/splendor/view.hpp"

namespace splendor::bot {

using ::bot::Options;

/// The step the computer plays for `seat`, which must decide in the game `seat_view` shows
/// (`view_for(truth, seat)`); the game must not be over. The result is a legal step of the
/// true game for that seat. Pure: no globals, safe to call from several threads at once.
Step choose_step(const View& seat_view, int seat, const Options& options);

}  // namespace splendor::bot
