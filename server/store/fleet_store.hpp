#pragma once
// What the nodes of a fleet share through PostgreSQL (docs/scaling.md): which nodes are alive
// (heartbeats in `nodes`), who owns each live match (matches.owner_node with a lease in
// matches.lease_until), and which node is the pairing authority (a session-level advisory lock).
//
// Every call is synchronous and runs on the caller's thread: the server calls them from its
// blocking pool or its fleet thread, never from a strand. Each has a statement deadline
// (FleetStoreOptions::deadline): a hung database answers Unavailable instead of blocking.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "server/store/result.hpp"

namespace store {

struct FleetStoreOptions {
    std::string url;                           ///< libpq connection string or URI
    std::string node;                          ///< this node's id (Config::node_id), not empty
    std::string node_url;                      ///< informational, stored in nodes.url
    std::chrono::milliseconds lease{10000};    ///< how long a claim or a renewal holds
    std::chrono::milliseconds deadline{2000};  ///< statement_timeout of every call
};

/// A node as its last heartbeat left it.
struct NodeInfo {
    std::string id;
    std::string url;
    int matches = 0;       ///< live matches it holds
    bool leader = false;   ///< it holds the pairing authority
    std::int64_t age_ms = 0;  ///< since its last heartbeat (database clock)
};

/// Who owns a match, as the database says now.
struct Ownership {
    std::string status;       ///< "live", "finished" or "aborted"
    std::string owner;        ///< "" when nobody
    bool lease_valid = false; ///< the owner's lease has not run out
};

/// What claim() did.
enum class Claim {
    Claimed,   ///< this node owns it now (it already did, or it had no owner, or the lease ran out)
    OwnedElsewhere,  ///< another node holds a valid lease (Ownership tells which)
    NotLive,   ///< the match is finished or aborted: nobody needs to own it
    NotFound,  ///< no such match
};

class FleetStore {
  public:
    /// Connects lazily (two connections: one for calls, one that holds the advisory lock).
    explicit FleetStore(FleetStoreOptions options);
    /// Releases the lock (if held: pg_advisory_unlock, so another node may take it at once) and
    /// closes its session.
    ~FleetStore();
    FleetStore(const FleetStore&) = delete;
    FleetStore& operator=(const FleetStore&) = delete;

    const FleetStoreOptions& options() const { return options_; }

    // ---- nodes ----
    /// Upserts this node's row (heartbeat_at = now(), matches, leader = leading()) and returns
    /// every node row whose heartbeat is younger than `alive` (this node included).
    Result<std::vector<NodeInfo>> heartbeat(int matches, std::chrono::milliseconds alive);
    /// The broker's channel prefix for this fleet ("f" and 8 hex digits of the schema's hash):
    /// fleets in different schemas of one database never hear each other.
    Result<std::string> channel_prefix();
    /// Deletes this node's row (graceful stop).
    Result<Done> leave();

    // ---- leases ----
    /// Creating a match elsewhere (PgStepStore) stores owner_node; this sets the lease of a
    /// match this node was just given or made: owner_node = `owner`, lease_until = now() +
    /// lease, whoever owned it (the authority assigns new matches to nodes).
    Result<Done> assign(std::string_view match_id, std::string_view owner);
    /// Makes this node the owner of `match_id` when it is live and has no owner, or this node
    /// owns it, or its lease has run out; the lease then runs for `lease` from now. Takes the
    /// match row lock, so a step insert of the old owner that is still running (it holds
    /// FOR SHARE on the row, PgStepStore's fence) commits before the claim or fails after it.
    Result<Claim> claim(std::string_view match_id, Ownership* seen = nullptr);
    /// The owner as the database says now.
    Result<Ownership> owner_of(std::string_view match_id);
    /// Renews the lease of each of `held` that this node still owns (live ones); returns the
    /// ids it renewed. A held match missing from the answer was taken over (or ended): the
    /// node must drop it at once.
    Result<std::vector<std::string>> renew(const std::vector<std::string>& held);
    /// Claims up to `limit` live matches whose lease ran out (or that have no owner), oldest
    /// lease first, skipping rows another node is claiming (FOR UPDATE SKIP LOCKED); returns
    /// their ids, now owned by this node.
    Result<std::vector<std::string>> claim_expired(int limit);
    /// Ends this node's leases on `ids` at once (graceful hand-over: any node may claim them
    /// now); owner_node stays as it was until a claim.
    Result<Done> release(const std::vector<std::string>& ids);

    // ---- the pairing authority ----
    /// Tries to take the advisory lock (pg_try_advisory_lock on a dedicated session); true when
    /// this node holds it (now or already). A lost session loses the lock: leading() then says
    /// false, and the next try reconnects.
    bool try_lead();
    /// True while this node holds the lock (checks that its session is still alive, at most
    /// once per call: a cheap query).
    bool leading();
    /// Gives the lock up (graceful stop).
    void resign_lead();

    // ---- the leader's rooms (migrations/0008_leader_rooms.sql) ----
    /// Replaces the stored lobbies and queue places with `rooms` (a JSON document), on the
    /// lock's own session and only while it holds the lock: a node that lost the leadership
    /// (its session is gone) cannot overwrite what a new leader loaded. Invalid when this node
    /// does not lead.
    Result<Done> save_rooms(const std::string& rooms);
    /// The document the last leader saved, or "" if none was.
    Result<std::string> load_rooms();

    struct Impl;

  private:
    FleetStoreOptions options_;
    std::unique_ptr<Impl> impl_;
};

}  // namespace store
