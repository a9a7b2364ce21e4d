#pragma once
// The application behind the sockets: players, lobbies, rated queues, matches, subscriptions.
// Sessions hand it parsed messages; it answers through Participant::deliver. Thread-safe: every
// public member may be called from any thread (lobby and queue state live on one strand, each
// match on its own).

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include <boost/asio/io_context.hpp>

#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "server/fleet/broker.hpp"
#include "server/app/config.hpp"
#include "server/app/metrics.hpp"
#include "server/net/participant.hpp"
#include "server/match/step_store.hpp"

namespace store {
class FleetStore;
class Repository;
}

namespace server {

class Accounts;
class PreferenceBook;

/// A guest player as created by POST /api/guests. The token is the secret that lets the
/// player act; it is never sent to anyone else or logged.
struct Guest {
    std::string id;
    std::string name;
    std::string token;
};

/// Why a guest could not be created or a token not be recognized.
enum class IdentityError {
    InvalidName,   ///< create: the name is refused (server/accounts/player_name.hpp)
    UnknownToken,  ///< identify: nobody has this token
    Unavailable,   ///< the database cannot be reached now
};

class Hub {
public:
    /// With a `repository` (a database), guests and matches are stored there and blocking store
    /// calls run on a small thread pool of the hub's own; without, everything lives in memory.
    /// With `fleet` and `broker` too (and a repository), this node is one of a fleet sharing
    /// the database (docs/scaling.md): it serves the matches it owns and forwards the rest.
    Hub(boost::asio::io_context& io, const Config& config, Metrics& metrics, StepStore& store,
        store::Repository* repository = nullptr, store::FleetStore* fleet = nullptr,
        Broker* broker = nullptr);
    ~Hub();
    Hub(const Hub&) = delete;
    Hub& operator=(const Hub&) = delete;

    /// What new_guest and identify hand back: the guest, or why not.
    using IdentityReply = std::function<void(std::variant<Guest, IdentityError>)>;

    /// A new guest with a fresh id and a token of 128+ random bits; `name` must pass
    /// name_problem (server/accounts/player_name.hpp; else nullopt). Blocks on the database if there is one: for tests
    /// and tools, never on a network thread.
    std::optional<Guest> create_guest(std::string_view name);
    /// create_guest, saying why not (blocking like it).
    std::variant<Guest, IdentityError> new_guest(std::string_view name);
    /// new_guest without blocking: `done` is called exactly once, at once when no database is
    /// needed (a bad name, no database), else on the hub's blocking pool once the guest is
    /// stored (only the token's hash). Post back to your own executor.
    void new_guest(std::string name, IdentityReply done);
    /// Takes one guest-creation token for the client address `client`; false: too many lately.
    bool allow_guest_from(std::string_view client);
    /// The player a token belongs to (id and name), or nullopt. Blocking like identify.
    std::optional<Guest> authenticate(std::string_view token) const;
    /// authenticate, saying why not. A token not known in memory is looked up in the database
    /// (by its hash) and then kept. Blocks on that lookup: for tests and tools only.
    std::variant<Guest, IdentityError> identify(std::string_view token) const;
    /// identify without blocking: `done` is called exactly once, at once for a token known in
    /// memory (or without a database), else on the hub's blocking pool after the lookup. Post
    /// back to your own executor.
    void identify(std::string token, IdentityReply done) const;

    /// Sign-up, sign-in, sign-out and password changes (server/accounts/accounts.hpp); null without a
    /// database.
    Accounts* accounts();
    /// Players' preferences (server/accounts/preference_book.hpp): stored with a database, in
    /// memory without one.
    PreferenceBook& preferences();
    /// Forgets `player_id`'s revoked token (sign-out): a later hello with it is looked up again,
    /// and refused; the connections that said hello with it are closed (4001), on this node and,
    /// in a fleet, on the others (told with the token's SHA-256).
    void forget_token(std::string_view player_id, std::string_view token);
    /// Forgets every token of `player_id` but `keep` (a password change revoked the others) and
    /// closes the player's connections that said hello with another (4001), fleet-wide too.
    void forget_tokens_of(std::string_view player_id, std::string_view keep);
    /// Forgets the session of `player_id` whose token has the SHA-256 `token_sha256` (a sign-in
    /// past the sessions per account revoked it) and closes the connections that said hello
    /// with it (4001), fleet-wide too.
    void forget_session(std::string_view player_id, std::string_view token_sha256);

    /// Recovery at start: rebuilds every live match of the database by replaying its steps
    /// (Match::restore) and registers it, so its players reopen it with match.open. A match
    /// whose replay fails is logged and marked aborted in the database with the reason
    /// "recovery_failed" (never silently dropped). Blocks: before the server runs, or (after
    /// begin_recovery(), as Server::run does) on a thread of its own while the server already
    /// serves (server/app/hub_restore.cpp).
    /// Returns how many matches were restored and how many failed, or throws if the database
    /// cannot be read.
    /// In a fleet: restores only the live matches this node owns (or that have no owner);
    /// begin_recovery() has joined the fleet before.
    std::pair<int, int> recover();
    /// Says that recover() is about to run while connections are already accepted (every node
    /// restores in the background): until it ends, a request for a match not in memory answers
    /// a retryable `unavailable` (in a fleet, a match of this node's is claimed and restored on
    /// demand first), and the queues wait for the stored seats. A fleet node joins the fleet
    /// here (FleetNode::join), before its listener opens.
    void begin_recovery();

    // A connection's calls (connected, handle, disconnected) come from the connection's own
    // strand, one at a time, in that order; the hub keeps its per-connection state in
    // Participant::hub_state() and takes no hub-wide lock for a match request.

    /// An authenticated connection (after its hello), registered once: it receives everything
    /// its player is told, starting with a `lobby` event for the lobby its player sits in and a
    /// `queue` waiting event for the queue its player waits in, if any.
    void connected(const ParticipantPtr& who);
    /// Handles one parsed message (anything but hello) from a connected connection. Requests
    /// for a match the connection opened go straight to the match (the connection's handle).
    /// `text` is the message as received: in a fleet a request for a match owned by another
    /// node (or a lobby request when another node leads) is forwarded as it came.
    void handle(const ParticipantPtr& from, protocol::ClientMessage message,
                std::string_view text = {});
    /// The connection is gone: it leaves subscriptions and match viewer lists (a seated
    /// player keeps the seat; the clock keeps running). A player's last connection going
    /// takes them out of the queue they wait in.
    void disconnected(const ParticipantPtr& who);

    /// Public lobbies waiting for players (GET /api/lobbies).
    nlohmann::json public_lobbies() const;
    /// Live matches anyone may watch (GET /api/matches): private lobbies' matches are left out.
    nlohmann::json live_matches() const;
    /// The same as the JSON array's text, written from the entries' texts (no tree is built).
    std::string live_matches_text() const;
    /// Every rated queue at every offered clock with how many players wait there
    /// (GET /api/queues): [{"queue":...,"clock":{...},"waiting":n}, ...].
    nlohmann::json queues() const;
    /// The spectator view of a match in memory (GET /api/matches/{id} without a database), or
    /// nullopt if the hub does not hold it (never was, or finished and let go) or it is private
    /// and `code` is not its invite code. `done` is called exactly once: at once if unknown,
    /// else on the match's strand. Post back to your own executor.
    void match_summary(std::string match_id, std::string_view code,
                       std::function<void(std::optional<nlohmann::json>)> done) const;
    /// match_summary without a code (a public match's).
    void match_summary(std::string match_id,
                       std::function<void(std::optional<nlohmann::json>)> done) const {
        match_summary(std::move(match_id), {}, std::move(done));
    }

    /// True once shutdown() was called.
    bool stopping() const;
    /// True while recover() runs after begin_recovery().
    bool recovering() const;
    /// Where the health routes learn whether the database answers (server/app/database_health.hpp).
    void set_database_health(std::function<bool()> reachable);
    /// The io_contexts matches run on, one for each io thread (Server, with a context per
    /// thread): a new match on the context of its first person's connection, so that a step's
    /// messages to the players found there pass to no other thread; a match without one
    /// (computers, a restore) on each context in turn. Default: the hub's own context. Call
    /// before the first request.
    void set_match_contexts(std::vector<boost::asio::io_context*> contexts);
    /// Whether the database answers; nullopt without a database.
    std::optional<bool> database_reachable() const;
    /// In a fleet: {"node","leader","leading","nodes":[alive ids],"matches":held here,
    /// "remote_connections"}; null on a single node.
    nlohmann::json fleet_status() const;

    /// Stops timers and refuses new work (graceful shutdown).
    void shutdown();

private:
    struct Impl;
    /// A fleet node is a part of its hub (server/fleet/fleet_node.hpp), and so are the
    /// leader's saved rooms (server/fleet/leader_rooms.hpp).
    friend class FleetNode;
    friend class LeaderRooms;
    std::unique_ptr<Impl> impl_;
};

}  // namespace server
