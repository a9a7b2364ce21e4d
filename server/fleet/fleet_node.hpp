#pragma once
// The hub as one node of a fleet (docs/scaling.md): built only when several nodes share one
// database. It decides which node serves a request (routing, a decorator around the hub's plain
// single-node dispatch), exchanges the node-to-node messages over the broker
// (server/fleet/fleet_messages.hpp), and runs the heartbeat, the leader election, the leases and
// the takeovers. A single node has none of it.

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "server/app/guarded.hpp"
#include "server/app/hub.hpp"
#include "server/fleet/broker.hpp"
#include "server/fleet/fleet_messages.hpp"
#include "server/fleet/leader_rooms.hpp"
#include "server/fleet/remote_participant.hpp"
#include "server/store/fleet_store.hpp"

namespace server {

class FleetNode {
  public:
    /// This node (the broker's id) of the fleet on `store`; `hub`, `store` and `broker` outlive
    /// it. Nothing happens until join().
    FleetNode(Hub::Impl& hub, store::FleetStore& store, Broker& broker);

    /// Starts listening to the broker, beats once, asks the others for their matches, lobbies
    /// and queues, starts the heartbeat and lease timers: after it, this node routes requests.
    /// Blocks (startup, before the node serves).
    void join();
    /// Claims and restores this node's live matches (a restart under the same id) and those
    /// nobody owns, while the node already serves: a request for one not restored yet restores
    /// it first (claim_and_load), and no match is restored twice. Blocks (the recovery thread).
    /// Returns (restored, failed).
    std::pair<int, int> restore_own();
    /// Graceful stop: hands this node's matches over, says bye, leaves (blocking pool).
    void leave();
    /// No broker message reaches the hub after this returns. Idempotent.
    void stop_broker();

    /// This node's id.
    const std::string& me() const { return me_; }
    /// This node holds the pairing authority (the leader's lock).
    bool leads() const;
    /// The fleet as this node sees it (GET /healthz).
    nlohmann::json status() const;
    /// The leader's queue counts as last broadcast (GET /api/queues on the other nodes).
    nlohmann::json queue_list() const;

    // ---- routing (a connection's strand) ----
    /// A request arriving while one of the connection's requests is being routed waits behind
    /// it, in order (or is refused `busy` beyond a bound): true when it was taken so.
    bool hold(const ParticipantPtr& from, const protocol::ClientMessage& message,
              std::string_view text);
    /// Sends the request where it belongs if that is not here (a match another node owns or
    /// that must be looked up, a lobby or queue request while another node leads): true when
    /// it was taken; false: the hub handles it here.
    bool route(const ParticipantPtr& from, const protocol::ClientMessage& message,
               std::string_view text);

    // ---- what the hub tells the fleet ----
    /// A new local connection registers with the leader.
    void connected(const ParticipantPtr& who);
    /// The connection is gone: tells the nodes that served it.
    void disconnected(const ParticipantPtr& who);
    /// Broadcasts a live entry of a match this node owns (null: over).
    void publish_live(const std::string& id, const nlohmann::json& entry);
    /// Broadcasts the leader's lobby list.
    void publish_lobbies(const nlohmann::json& list);
    /// Tells the other nodes that sessions of a player were revoked here (fleet::Revoked).
    void publish_revoked(fleet::Revoked revoked);
    /// Where a new match goes: the alive node with the fewest live matches.
    std::string place_match();
    /// Stores that the new match `id` belongs to `owner` from now (blocking).
    store::Result<store::Done> assign(const std::string& id, const std::string& owner);
    /// The new match `id` was placed on `owner`: it is told to load it.
    void hand_over(const std::string& id, const std::string& owner);
    /// The leader's lobbies and queue places, saved and restored across leaders.
    LeaderRooms& rooms() { return rooms_; }

  private:
    /// What this node knows of the others; the broker's thread, the blocking pool and the
    /// strands all read it.
    struct View {
        bool leading = false;         ///< this node holds the pairing authority's lock
        std::string leader;           ///< the leader's id ("" while unknown)
        std::set<std::string> alive;  ///< nodes with a fresh heartbeat, this one included
        /// Nodes that said bye and have not joined again since (their `sync`): a heartbeat read
        /// that began before a node's bye (its row is deleted just after it) must not count it
        /// alive again.
        std::set<std::string> departed;
        /// Owner of each live match, from the replicated live entries and the database.
        std::unordered_map<std::string, std::string> owners;
        /// Connections of other nodes that this node serves, by (home node, connection id).
        std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<RemoteParticipant>>
            remotes;
        /// This node's connections that are served elsewhere too (by connection id), and by
        /// which nodes: when one of those dies, the connection restarts (1012).
        std::unordered_map<std::uint64_t, std::weak_ptr<Participant>> homes;
        std::unordered_map<std::uint64_t, std::set<std::string>> peers;
        /// The leader's queue counts, and what this node last sent as leader.
        nlohmann::json queue_list = nlohmann::json::array();
        std::string queues_sent;
        /// Live matches per alive node at the last heartbeat, plus the ones the leader placed
        /// on each since: where the next new match goes.
        std::map<std::string, int> load;
    };

    // ---- heartbeat, election, leases (fleet_node.cpp; blocking pool) ----
    void beat();
    void renew();
    /// Claims `match_id` in the database and, when it is ours, makes sure it is in memory.
    /// Blocking. Returns the claim's answer (Unavailable: the database could not tell).
    store::Result<store::Claim> claim_and_load(const std::string& match_id,
                                               store::Ownership* seen = nullptr);
    /// A node is gone: its connections' remote participants leave, this node's connections it
    /// served restart (1012), the matches it owned are looked up again.
    void node_dead(const std::string& node);
    /// The broker lost messages: every peer counts as restarted.
    void gap();
    /// The remote participant for (home, connection), made (and connected) on first use.
    std::shared_ptr<RemoteParticipant> remote_for(const std::string& home,
                                                  std::uint64_t connection,
                                                  const std::string& player,
                                                  const std::string& name);

    // ---- routing (fleet_routing.cpp; connection strands) ----
    /// Sends a request of a local connection to `node`, remembering the peer.
    void forward(const ParticipantPtr& from, const std::string& node, std::string_view text);
    /// A match request for a match not in memory: forwarded to its owner, or claimed and
    /// restored here, then handled; the connection's later requests wait meanwhile.
    void route_match(const ParticipantPtr& from, const std::string& match_id, std::string text);
    /// route_match's lookup in the database (blocking pool), then back on the connection's
    /// strand: forward, handle here, or, while the owner is dead but its lease still runs, try
    /// again a beat later (at most `attempts` times) before answering a retryable unavailable.
    void resolve_route(const ParticipantPtr& from, const std::string& match_id, std::string text,
                       bool remote, int attempts);
    /// Lobby and queue requests go to the leader.
    void route_to_leader(const ParticipantPtr& from, std::string_view text,
                         const protocol::Ref& ref);
    /// Handles the requests that waited behind a routed one (the connection's strand).
    void drain_held(const ParticipantPtr& from);

    // ---- the broker's messages (fleet_node_receive.cpp; the broker's thread) ----
    void receive(std::string_view from, std::string payload);
    void on(const fleet::Connected& m, const std::string& from, bool own);
    void on(const fleet::Request& m, const std::string& from, bool own);
    void on(const fleet::Deliver& m, const std::string& from, bool own);
    void on(const fleet::Gone& m, const std::string& from, bool own);
    void on(const fleet::Moved& m, const std::string& from, bool own);
    void on(const fleet::Live& m, const std::string& from, bool own);
    void on(const fleet::Lobbies& m, const std::string& from, bool own);
    void on(const fleet::Queues& m, const std::string& from, bool own);
    void on(const fleet::Adopt& m, const std::string& from, bool own);
    void on(const fleet::Sync& m, const std::string& from, bool own);
    void on(const fleet::Leader& m, const std::string& from, bool own);
    void on(const fleet::Bye& m, const std::string& from, bool own);
    void on(const fleet::Revoked& m, const std::string& from, bool own);
    void on(const fleet::Restart& m, const std::string& from, bool own);

    Hub::Impl& hub_;
    store::FleetStore& store_;
    Broker& broker_;
    const std::string me_;
    Guarded<View> view_;
    LeaderRooms rooms_;
    /// Serializes restores of claimed matches, so one match is never restored twice at once.
    std::mutex restore_mutex_;
};

}  // namespace server
