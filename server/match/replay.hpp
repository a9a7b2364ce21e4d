#pragma once
// A stored match replayed through its protocol::Game, without a Match, an io_context or a
// clock: the settings row back to a game, and the game after any number of records, applied as
// a match applies them. Recovery (Match::restore) and the HTTP API's replays
// (server/http/api.hpp) both replay through Game::play, so a replay shows exactly the game that
// recovery would rebuild.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/game.hpp"
#include "protocol/santorini/json.hpp"

namespace server {

/// What the `settings` column of a match holds: {"lobby": <lobby settings>, "challenger": n},
/// and for a private lobby's match "invite_sha256": the SHA-256 (hex) of its invite code (never
/// shown: the API prints only "lobby").
struct StoredSettings {
    protocol::LobbySettings lobby;
    int challenger = 0;
    std::string invite_sha256 = {};  ///< "" for a public match
};

/// The settings of a stored match, or why they cannot be read.
std::variant<StoredSettings, std::string> read_stored_settings(std::string_view settings_json);

/// The game after some records of a stored match.
struct ReplayPosition {
    std::unique_ptr<protocol::Game> game;  ///< the full game (views are projected from it)
    bool aborted = false;    ///< an abort (or a resignation or timeout before play) ended it
    std::size_t records = 0;  ///< records applied
    /// Every step so far as its history line (protocol::Played::lines): as spectators read it,
    /// and as the seat that played it reads it (what a finished game's replay shows, the
    /// `revealed` viewer's line). Events (resign, timeout, abort) are not steps.
    std::vector<std::string> spectator_history;
    std::vector<std::string> revealed_history;
    /// Per record applied: what spectators may read of it (protocol::Played::by_spectators;
    /// Whole for an event), which is what a live match's replay shows.
    std::vector<protocol::Readable> by_spectators;
    /// Per record applied: the seat that played it (the decider, or the event's seat).
    std::vector<int> seats;
};

/// Replays the first `upto` of `records` (each a stored record's JSON, in order of their
/// numbers) from the new game that `settings` and `seed` make (protocol::start_game). A record
/// is a step in the game's own JSON, played by the decider (Game::play), or an event the server
/// wrote, {"kind":"resign"|"abort"|"timeout"|"abandon","seat":n}, applied as a match applies it: a
/// resignation or timeout concedes in play and aborts before it; an abort aborts; an
/// abandonment concedes once every seat still in has played a step in play, else aborts. `upto` 0 is
/// the setup position; it must not exceed records.size(). Returns why the replay failed instead
/// (bad settings, a record the game refuses, an event without a valid seat, a record after the
/// match was over), prefixed "step N: " for a record.
std::variant<ReplayPosition, std::string> replay(const StoredSettings& settings,
                                                 std::uint64_t seed,
                                                 const std::vector<std::string>& records,
                                                 std::size_t upto);

}  // namespace server
