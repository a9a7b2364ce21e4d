#pragma once
// The rated queues the server offers (quick play) and the time controls each is played at:
// what a pair of players is matched into. docs/matchmaking.md lists them.

#include <optional>
#include <string_view>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"

namespace server {

/// One rated queue: a name clients send, the game, and (Santorini) the powers its matches are
/// played with.
struct QueueKind {
    std::string_view name;    ///< "santorini", "santorini_simple", "santorini_gods", "splendor"
    std::string_view powers;  ///< lobby settings' powers: "none", "simple", "all" ("none": Splendor)
    std::string_view game = "santorini";  ///< lobby settings' game
};

/// A real-time clock a queue is played at.
struct ClockPreset {
    int base_seconds = 0;
    int increment_seconds = 0;
    bool operator==(const ClockPreset&) const = default;
};

/// Every queue, in the order clients show them.
const std::vector<QueueKind>& queue_kinds();
/// The queue called `name`, or null.
const QueueKind* find_queue(std::string_view name);
/// The clocks every queue offers (3+2, 5+3, 10+5), shortest first.
const std::vector<ClockPreset>& clock_presets();
/// True if `clock` is one of clock_presets().
bool offered(const ClockPreset& clock);
/// "3+2, 5+3, 10+5": the presets as people write them (error messages).
std::string offered_text();

/// The settings of a match paired in `queue` at `clock`: the queue's game, 2 players, rated,
/// the queue's powers dealt at random by the server (the engine's random draft), the real-time
/// clock. Always valid (protocol::start_game accepts them; tests check every queue and preset).
protocol::LobbySettings queue_settings(const QueueKind& queue, const ClockPreset& clock);

/// {"kind":"realtime","base_seconds":...,"increment_seconds":...}
nlohmann::json clock_json(const ClockPreset& clock);

}  // namespace server
