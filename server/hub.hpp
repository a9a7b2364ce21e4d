#pragma once
// The application behind the sockets: players, lobbies, matches, subscriptions. Sessions hand
// it parsed messages; it answers through Participant::deliver. Thread-safe: every public
// member may be called from any thread (lobby state lives on one strand, each match on its own).

#include <memory>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <nlohmann/json.hpp>

#include "protocol/messages.hpp"
#include "server/config.hpp"
#include "server/metrics.hpp"
#include "server/participant.hpp"
#include "server/step_store.hpp"

namespace server {

/// A guest player as created by POST /api/guests. The token is the secret that lets the
/// player act; it is never sent to anyone else or logged.
struct Guest {
    std::string id;
    std::string name;
    std::string token;
};

class Hub {
public:
    Hub(boost::asio::io_context& io, const Config& config, Metrics& metrics, StepStore& store);
    ~Hub();
    Hub(const Hub&) = delete;
    Hub& operator=(const Hub&) = delete;

    /// A new guest with a fresh id and a token of 128+ random bits; `name` must be 1-24
    /// printable characters (else nullopt).
    std::optional<Guest> create_guest(std::string_view name);
    /// Takes one guest-creation token for the client address `client`; false: too many lately.
    bool allow_guest_from(std::string_view client);
    /// The player a token belongs to (id and name), or nullopt.
    std::optional<Guest> authenticate(std::string_view token) const;

    /// An authenticated connection (after its hello): it receives everything its player is told.
    void connected(const ParticipantPtr& who);
    /// Handles one parsed message (anything but hello) from an authenticated connection.
    void handle(const ParticipantPtr& from, protocol::ClientMessage message);
    /// The connection is gone: it leaves subscriptions and match viewer lists (a seated
    /// player keeps the seat; the clock keeps running).
    void disconnected(const ParticipantPtr& who);

    /// Public lobbies waiting for players (GET /api/lobbies).
    nlohmann::json public_lobbies() const;
    /// Live matches anyone may watch (GET /api/matches).
    nlohmann::json live_matches() const;
    /// The spectator view of a live match (GET /api/matches/{id}), or nullopt if unknown.
    std::optional<nlohmann::json> match_summary(std::string_view match_id) const;

    /// Stops timers and refuses new work (graceful shutdown).
    void shutdown();

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

}  // namespace server
