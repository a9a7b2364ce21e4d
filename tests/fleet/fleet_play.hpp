#pragma once
// Playing games on a fleet and checking what the database kept: a game as the test follows it
// (its seats, spectators, and every step a client saw acknowledged, with its number), a strict
// step (every client must see every version; any loss fails the test) and a resilient one (a
// lost connection, a 1012 or a silent owner is met by reconnecting through HAProxy, reopening
// with since, and resending the step that was not acknowledged).

#include <chrono>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "tests/fleet/fleet_client.hpp"

namespace fleet {

/// A 2-player Santorini without powers or clock (its games end in a bounded number of steps
/// with integration::pick), private, rated.
json plain_settings();

/// A match as the test follows it.
struct Game {
    std::string match;
    std::vector<Client*> seats;                   ///< by seat
    std::vector<Client*> watchers;                ///< spectators who follow every version too
    std::vector<std::pair<int, json>> acked;      ///< (step number, step) acknowledged to a client
    std::optional<std::pair<int, json>> pending;  ///< sent, not acknowledged (yet)
    std::mt19937 rng;
    bool over = false;
    std::map<std::string, int> errors;  ///< error replies to steps, by code
    int resent = 0;                     ///< pending steps sent again after a reconnect
    int stored_unacked = 0;             ///< pending steps the resynced view showed stored
};

/// `host` creates a private lobby with `settings`, `guest` joins by its code, `host` starts it;
/// both open the match. REQUIREs every reply. The seats follow from their views.
Game start_lobby_game(Client& host, Client& guest, const json& settings, unsigned seed);

/// Everyone in the game (seats and watchers).
std::vector<Client*> everyone(const Game& game);

/// One step, strictly: everyone reaches the same version, the decider plays integration::pick
/// from its view, it is acknowledged, and everyone reads up to the version after it. Marks the
/// game over when it is. REQUIREs all of it.
void play_strict(Game& game);

/// Counts of what a resilient player met.
struct Trouble {
    int lost = 0;         ///< requests without an answer or on an ended connection
    int reconnects = 0;   ///< connections made again through HAProxy
    int closed_1012 = 0;  ///< connections the server closed with 1012
    int dropped = 0;      ///< connections this side gave up on (no answer twice)
};

/// One step of `game` that survives a node's death: reconnects seats whose connection ended
/// through `proxy_port` (hello, match.open since), resyncs stale views, resends the pending
/// step when the resynced view shows it was not stored. Returns after one attempt (acknowledged
/// or not); call again until the game is over. REQUIREs only what must hold whatever failed.
void play_resilient(Game& game, std::uint16_t proxy_port, Trouble& trouble);

/// The database after the games: every match stored has steps 1..n without a gap; every step
/// of `games` acknowledged to a client is stored at its number, equal; every game is finished
/// and stored so, and every finished rated match has exactly one rating_history row per seat.
void check_database(const std::string& url, const std::vector<Game>& games);

/// matches.owner_node of `match` ("" if none).
std::string owner_of(const std::string& url, const std::string& match);

}  // namespace fleet
