#pragma once
// The computer opponent for Santorini: every power, every player count, through the engine's
// one legal-step generator. It decides from what its seat may see only (the caller passes the
// seat's view, never the truth), so hidden powers (Hecate, Moerae, Tartarus) stay hidden.

#include "engine/bot/bot_options.hpp"
#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::bot {

using ::bot::Options;

/// The step the computer plays for the seat that decides in `seat_view`, which must be
/// `view_for(truth, decider(truth))` (the decider's own view) of a game that is not over.
/// The result is one of `legal_steps(seat_view)`, and so also a step the game host accepts
/// from that seat. Pure: no globals, safe to call from several threads at once.
Step choose_step(const State& seat_view, const Options& options);

}  // namespace santorini::bot
