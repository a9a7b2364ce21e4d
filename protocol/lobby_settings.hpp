#pragma once
// Lobby settings: what a client may ask for in lobby.create (and what a rated queue fills in),
// for every kind of game. Read field by field so errors can name the field; Santorini's are
// then checked against its rules data (protocol/lobby_settings.cpp).

#include <string>
#include <variant>
#include <vector>

#include "engine/santorini/power_catalog.hpp"
#include "protocol/json/basic_json.hpp"

namespace protocol {

/// Lobby settings as sent by clients (docs/protocol.md, `lobby.create`; Splendor's in its
/// section): the game, then the fields every game has, then Santorini's own.
struct LobbySettings {
    std::string game = "santorini";       ///< santorini | splendor: the kind of game
    int players = 2;
    /// false: a casual match (no rating changes). Unsaid in lobby.create: true for a public
    /// lobby, false for a private one; the rated queues always set it.
    bool rated = true;
    /// A turn that could end waits for an explicit end-turn step, so a misclick on its last
    /// step can still be taken back (docs/protocol.md, "Taking back a step").
    bool confirm_turns = false;
    /// Computer players: the last `bots` seats (0..players-1; the host keeps seat 0). A lobby
    /// with bots is casual (docs/bot.md, "In the server").
    int bots = 0;
    int bot_level = 3;  ///< 1 (weakest) .. 5 (strongest), for every computer seat
    // Santorini only (left at their defaults for Splendor):
    std::string powers = "none";          ///< none | simple | all | heroes | custom
    std::vector<santorini::PowerId> pool;  ///< custom pool
    std::string draft = "random";         ///< random | subset | full
    bool golden_fleece = false;
    /// The handicap game: the seat that gets a hero while the other gets a god from `powers`;
    /// -1: no handicap (hero against hero is powers "heroes").
    int hero_seat = -1;
    std::string clock = "none";           ///< none | realtime | turn
    int base_seconds = 300;               ///< realtime: initial time per player
    int increment_seconds = 5;            ///< realtime: added after each of the player's turns
    int hours_per_move = 24;              ///< turn-based: time for each turn
    bool is_public = true;
};

/// Why lobby settings were refused: the field at fault as a path ("settings.clock.base_seconds";
/// a rule about a combination blames the field that breaks it, e.g. "settings.golden_fleece"),
/// whether it was missing, and what is wrong.
struct SettingsError {
    std::string field;
    bool missing = false;
    std::string message;
};

/// Like `lobby_settings_from_json`, but keeps the field apart so the protocol can answer with
/// missing_field or invalid_field naming it.
std::variant<LobbySettings, SettingsError> read_lobby_settings(const nlohmann::json& json);

/// Reads and validates `settings` JSON; success means `start_game` of the result also
/// succeeds (seed, challenger and start player are the caller's). Errors name the field.
std::variant<LobbySettings, std::string> lobby_settings_from_json(const nlohmann::json& json);
/// The JSON of validated settings (as shown in lobby lists).
nlohmann::json lobby_settings_json(const LobbySettings& settings);
}  // namespace protocol
