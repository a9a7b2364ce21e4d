#pragma once
// Which abandonment time a match gets (docs/protocol.md, "Abandonment"); the rule itself runs
// on the match's strand (server/match/match_abandonment.cpp).

#include <chrono>

#include "protocol/santorini/json.hpp"
#include "server/match/clock.hpp"
#include "server/app/config.hpp"

namespace server {

/// How long a seat may be away before it is abandoned: Config::abandon_turn for a per-move
/// clock, Config::abandon for real-time and no-clock games (0: never).
inline std::chrono::milliseconds abandon_time(const Config& config,
                                              const protocol::LobbySettings& settings) {
    return TimeControl::from_settings(settings).kind == TimeControl::Kind::Turn
               ? config.abandon_turn
               : config.abandon;
}

/// How long a seat must have been away before a present player may claim what the rule would
/// do at its deadline (match.claim): a fifth of the abandonment time, as Lichess lets a player
/// claim a win well before the game would end by itself (docs/rulings.md, "Claiming").
inline std::chrono::milliseconds claim_time(std::chrono::milliseconds abandon) {
    return abandon / 5;
}

}  // namespace server
