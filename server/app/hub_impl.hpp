#pragma once
// The hub's private parts, shared by its source files (hub.cpp: identity, messages, lobbies,
// subscriptions; hub_matches.cpp: starting matches for lobbies and queues). Not for other code.

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <functional>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <deque>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <unordered_map>

#include "server/match/abandonment.hpp"
#include "server/accounts/accounts.hpp"
#include "server/limits/address_limiter.hpp"
#include "server/bots/bot_pool.hpp"
#include "server/fleet/broker.hpp"
#include "server/fleet/remote_participant.hpp"
#include "server/app/hub.hpp"
#include "server/app/identity.hpp"
#include "server/app/ids.hpp"
#include "server/rooms/lists.hpp"
#include "server/rooms/lobby.hpp"
#include "server/match/match.hpp"
#include "server/match/match_registry.hpp"
#include "server/match/replay.hpp"
#include "server/rooms/queue_room.hpp"
#include "server/rating/rating.hpp"
#include "server/store/fleet_store.hpp"
#include "server/store/repository.hpp"

namespace server {

/// What a fleet node keeps about the others (docs/scaling.md); the hub's `fleet` is null on a
/// single node. Everything here is guarded by `mutex` (the broker's thread, the blocking pool,
/// the strands all read it); the store and broker calls are made without it.
struct FleetState {
    store::FleetStore& store;
    Broker& broker;
    const std::string me;  ///< this node's id

    mutable std::mutex mutex;
    bool leading = false;  ///< this node holds the pairing authority's lock
    std::string leader;    ///< the leader's id ("" while unknown)
    std::set<std::string> alive;  ///< nodes with a fresh heartbeat, this one included
    /// Owner of each live match, from the replicated live entries and the database.
    std::unordered_map<std::string, std::string> owners;
    /// Connections of other nodes that this node serves, by (home node, home connection id).
    std::map<std::pair<std::string, std::uint64_t>, std::shared_ptr<RemoteParticipant>> remotes;
    /// This node's connections that are served elsewhere too (by connection id), and by which
    /// nodes: when one of those dies, the connection restarts (1012).
    std::unordered_map<std::uint64_t, std::weak_ptr<Participant>> homes;
    std::unordered_map<std::uint64_t, std::set<std::string>> peers;
    /// The leader's queue counts (GET /api/queues on the other nodes) and what was last sent.
    nlohmann::json queue_list = nlohmann::json::array();
    std::string queues_sent;
    /// Live matches per alive node at the last heartbeat, plus the ones the leader placed on
    /// each since: where the next new match goes.
    std::map<std::string, int> load;
    /// Serializes restores of claimed matches, so one match is never restored twice at once.
    std::mutex restore_mutex;

    FleetState(store::FleetStore& s, Broker& b) : store(s), broker(b), me(b.node()) {}
};

/// A shared, immutable message body for Participant::deliver.
inline std::shared_ptr<const std::string> shared(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

struct Hub::Impl final : QueueHost {
    using json = nlohmann::json;
    using ErrorCode = protocol::ErrorCode;
    using Ref = protocol::Ref;

    Impl(boost::asio::io_context& io_context, const Config& cfg, Metrics& m, StepStore& s,
         store::Repository* r, store::FleetStore* fleet_store, Broker* broker)
        : io(io_context),
          config(cfg),
          metrics(m),
          store(s),
          repo(r),
          guest_limiter(cfg.guests_per_minute, cfg.guest_burst),
          lobby_strand(boost::asio::make_strand(io_context)),
          lists(lobby_strand, m, cfg.list_interval,
                [this](std::chrono::milliseconds delay, std::function<void()> action) {
                    after(delay, std::move(action));
                }),
          queues(lobby_strand, *this, m),
          bot_pool(std::make_unique<BotPool>(cfg.bot_threads, bot_queue_limit)) {
        if (repo) blocking = std::make_unique<boost::asio::thread_pool>(2);
        if (fleet_store && broker) fleet = std::make_unique<FleetState>(*fleet_store, *broker);
    }
    ~Impl() {
        // Store calls still running finish before the hub they post back to goes.
        if (blocking) blocking->join();
        // No broker message may reach a hub that is going (fleet_leave stopped it already
        // after a graceful stop; this covers the others).
        if (fleet) fleet->broker.stop();
    }

    boost::asio::io_context& io;
    Config config;
    Metrics& metrics;
    StepStore& store;
    store::Repository* repo;  ///< null: no database
    /// Runs the repository's blocking calls (never on a strand or a network thread).
    std::unique_ptr<boost::asio::thread_pool> blocking;
    std::atomic<bool> stopping{false};
    /// Recovery runs (hub_restore.cpp): a match not in memory may still be on its way, so a
    /// request for one answers a retryable `unavailable` rather than `unknown_match`.
    std::atomic<bool> recovering{false};
    /// The seats of every stored live match are known (playing/seated): queues may check.
    std::atomic<bool> seats_known{true};
    /// Set once at start (Server), before any request: whether the database answers.
    std::function<bool()> database_reachable;
    /// Several nodes on one database (docs/scaling.md); null on a single node.
    std::unique_ptr<FleetState> fleet;

    /// Tokens and names known here (server/app/identity.hpp).
    Identity identity;
    AddressLimiter guest_limiter;

    /// Every match in memory and who sits where (server/match/match_registry.hpp). Looked up
    /// when a connection opens a match; a connection's later requests for it go through its
    /// own handle (ConnectionState), not through here.
    MatchRegistry registry;

    // Lobby strand only.
    boost::asio::strand<boost::asio::io_context::executor_type> lobby_strand;
    /// Who is connected: every connected connection, per player (registered by Hub::connected).
    std::unordered_map<std::string, std::map<std::uint64_t, ParticipantPtr>> connections;
    LobbyBook lobbies;
    /// The lobby and live lists, and their subscribers (server/rooms/lists.hpp).
    Lists lists;
    std::set<std::shared_ptr<boost::asio::steady_timer>> timers;  ///< pending `after`s
    std::set<std::string> starting;  ///< lobbies whose match is being stored
    QueueRoom queues;                ///< quick play (server/rooms/queue_room.hpp)
    /// Computer decisions waiting for a thread, at most (each match asks one at a time).
    static constexpr std::size_t bot_queue_limit = 1024;
    /// The computer players' searches, off every strand (server/bots/bot_pool.hpp).
    std::unique_ptr<BotPool> bot_pool;
    /// How matches made or restored here play their computer seats.
    BotPlay bot_play() const { return BotPlay{bot_pool.get(), config.bot_time_limit, config.bot_delay}; }

    // ---- identity (hub.cpp); thread-safe ----
    /// A fresh guest (not yet stored or known), or nullopt for a bad name.
    std::optional<Guest> fresh_guest(std::string_view name) const;
    /// Stores `guest` (blocking, with a database) and makes it known.
    std::variant<Guest, IdentityError> store_guest(Guest guest);
    /// The guest a token belongs to, if memory knows it.
    std::optional<Guest> known_token(const std::string& token) const;
    /// Looks a token up in the database (blocking) and keeps what it finds.
    std::variant<Guest, IdentityError> lookup_token(const std::string& token);

    // ---- replies ----
    void error(const ParticipantPtr& to, ErrorCode code, std::string_view message, const Ref& ref) {
        metrics.rejected(code);
        to->deliver(shared(protocol::error_message(code, message, ref)));
    }
    static void ack(const ParticipantPtr& to, const Ref& ref) {
        if (ref) to->deliver(shared(protocol::ack_message(ref)));
    }

    Member member(const std::string& player_id) const { return identity.member(player_id); }

    /// Lobby strand only.
    std::vector<ParticipantPtr> connections_of(const std::string& player_id) {
        std::vector<ParticipantPtr> out;
        if (auto it = connections.find(player_id); it != connections.end())
            for (const auto& [id, p] : it->second) out.push_back(p);
        return out;
    }

    void tell_player(const std::string& player_id,
                     const std::shared_ptr<const std::string>& message) {
        for (const auto& p : connections_of(player_id)) p->deliver(message);
    }

    std::shared_ptr<Match> find_match(const std::string& id) const { return registry.find(id); }

    // ---- lobby strand ----
    void tell_members(const Lobby& lobby) {
        auto message = shared(protocol::event_message("lobby", {{"lobby", lobby.to_json(true)}}));
        for (const Member& m : lobby.seats) tell_player(m.id, message);
    }

    static std::shared_ptr<const std::string> closed_message(const std::string& lobby,
                                                             std::string_view reason,
                                                             const std::string& match = {}) {
        json fields = {{"lobby", lobby}, {"reason", reason}};
        if (!match.empty()) fields["match"] = match;
        return shared(protocol::event_message("lobby.closed", fields));
    }

    void publish_lobbies() {
        if (fleet && !leads()) return;  // the list comes from the leader
        json list = lobbies.public_json();
        metrics.open_lobbies = static_cast<std::int64_t>(lobbies.size());
        if (!lists.set_lobbies(list)) return;
        fleet_publish_lobbies(list);
        lists.schedule();
    }

    /// Tells `who` and the remaining members what a departure did, and republishes the list.
    /// A lobby closed because its host's seat was released (reason "disconnected") tells the
    /// others so ("disconnected"): the host did not choose to leave, and the host's own
    /// message reaches nobody (no connection left).
    void announce_departure(const Departure& d, const std::string& who, std::string_view reason) {
        tell_player(who, closed_message(d.lobby.id, reason));
        if (d.closed) {
            auto message =
                closed_message(d.lobby.id, reason == "disconnected" ? "disconnected" : "host_left");
            for (const Member& m : d.lobby.seats)
                if (m.id != who) tell_player(m.id, message);
        } else {
            tell_members(d.lobby);
        }
        publish_lobbies();
    }

    /// `player` has no connection left: unless one comes back within the grace period, they
    /// leave the lobby they wait in, so public lobbies do not fill with absent players.
    void release_seat_later(const std::string& player) {
        after(config.lobby_seat_grace, [this, player] {
            if (!connections_of(player).empty()) return;
            const Lobby* lobby = lobbies.lobby_of(player);
            if (!lobby) return;
            const std::string lobby_id = lobby->id;
            auto result = lobbies.leave(lobby_id, player);
            if (auto* d = std::get_if<Departure>(&result)) {
                spdlog::info("event=lobby_seat_released lobby={} player={}", lobby_id, player);
                announce_departure(*d, player, "disconnected");
            }
        });
    }

    /// The first of `seats` who already sits in Config::max_live_matches_per_player live
    /// matches (lobby strand), if any. Only players with a connection count: a seat nobody
    /// connects (a computer player) is not a person holding matches.
    std::optional<Member> over_match_cap(const std::vector<Member>& seats) {
        if (config.max_live_matches_per_player == 0) return std::nullopt;
        for (const Member& m : seats)
            if (connections.count(m.id) &&
                registry.count_of(m.id) >= config.max_live_matches_per_player)
                return m;
        return std::nullopt;
    }

    void on_lobby_message(const ParticipantPtr& from, const protocol::ClientBody& body,
                          const Ref& ref);
    void start_lobby(const ParticipantPtr& from, const std::string& lobby_id, const Ref& ref);
    void finish_start(const ParticipantPtr& from, const std::string& lobby_id, const Ref& ref,
                      std::variant<std::shared_ptr<Match>, LobbyError> made);

    /// What make_match hands back on the lobby strand: the new match, stored (with a database)
    /// but not yet registered, or why it could not be made (nothing then remains of it).
    using MatchMade = std::function<void(std::variant<std::shared_ptr<Match>, LobbyError>)>;
    /// Creates a match of `seats` (in seat order) with `settings`, a random seed and challenger,
    /// and stores it (through the step store's grouped commit) before its first step can be; `origin` is added to
    /// its stored settings (where it came from). Lobbies and queues both start matches here.
    void make_match(const protocol::LobbySettings& settings, std::vector<Member> seats,
                    const json& origin, MatchMade done);
    /// Registers a made match: players may open it, and its seated players count as playing.
    void adopt(const std::shared_ptr<Match>& match, const std::vector<Member>& seats);
    /// A match whose creation committed after lobby.start was answered `unavailable` (its
    /// deadline): nobody was told, so it is aborted in the database (tried `attempts` times).
    void abort_late(const std::string& id, int attempts);
    /// A made match that will not be played after all: off the lists, aborted in the database.
    void abandon(const std::shared_ptr<Match>& match);

    // ---- requests (hub.cpp) ----
    /// A request of `from` (on its strand): waits behind a request being routed, else dispatch.
    void handle_request(const ParticipantPtr& from, protocol::ClientMessage message,
                        std::string_view text);
    /// Handles a request here, or (in a fleet, with `may_route`) sends it where it belongs.
    void dispatch(const ParticipantPtr& from, protocol::ClientMessage message,
                  std::string_view text, bool may_route);

    /// A connection (local or remote) joins `connections` on the lobby strand and is told the
    /// lobby and queue its player waits in (Hub::connected without the fleet's part).
    void register_connection(const ParticipantPtr& who);
    /// The connection is gone (Hub::disconnected without the fleet's part; also for remote
    /// participants whose home says so). On the connection's strand.
    void disconnect_participant(const ParticipantPtr& who);

    // ---- restoring stored matches (hub_restore.cpp) ----
    /// Rebuilds a stored match by replaying its steps (Match::restore), live or ended; the
    /// match is not registered. Returns why not instead.
    std::variant<std::shared_ptr<Match>, std::string> rebuild(const store::StoredMatch& stored);
    /// match.open of a match not in memory: read from the store (under the database deadline)
    /// and, when it has ended, rebuilt, kept a while like any finished match, and opened.
    void open_stored(const ParticipantPtr& from, const protocol::MatchOpen& m, const Ref& ref);
    /// Tells `who` the live matches its player has a seat in (a `playing` event), if any.
    void tell_playing(const ParticipantPtr& who);
    /// Counts the seats of stored live matches as playing, before their replays.
    void seat_players(const std::vector<store::StoredMatch>& live);

    // ---- the fleet (hub_fleet.cpp); all no-ops on a single node ----
    /// Starts listening to the broker, beats once, restores this node's matches, starts the
    /// heartbeat and lease timers. Blocks (startup).
    std::pair<int, int> fleet_start();
    /// One broker message (the broker's thread).
    void fleet_receive(std::string_view from, std::string payload);
    /// The broker lost messages: every peer counts as restarted.
    void fleet_gap();
    /// This node holds the pairing authority (or there is no fleet).
    bool leads() const;
    /// Sends a request of a local connection to `node` (a `req`), remembering the peer.
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
    void route_to_leader(const ParticipantPtr& from, std::string_view text, const Ref& ref);
    /// Handles the requests that waited behind a routed one (the connection's strand).
    void drain_held(const ParticipantPtr& from);
    /// Rebuilds a stored match (replaying its steps) and adopts it; false and logged when its
    /// replay fails (then it is marked aborted "recovery_failed"). Blocking.
    bool restore_stored(const store::StoredMatch& stored);
    /// Claims `match_id` in the database and, when it is ours, makes sure it is in memory.
    /// Blocking. Returns the claim's answer (Unavailable: the database could not tell).
    store::Result<store::Claim> claim_and_load(const std::string& match_id,
                                               store::Ownership* seen = nullptr);
    /// A node is gone: its connections' remote participants leave, this node's connections it
    /// served restart (1012), the matches it owned are looked up again.
    void node_dead(const std::string& node);
    /// Heartbeat, election, and every lease/3 renewal and takeover (blocking pool).
    void fleet_beat();
    void fleet_renew();
    /// Graceful stop: hands this node's matches over, says bye, leaves (blocking pool).
    void fleet_leave();
    /// The connection is gone: tells the nodes that served it.
    void fleet_disconnected(const ParticipantPtr& who);
    /// A new local connection registers with the leader.
    void fleet_connected(const ParticipantPtr& who);
    /// Broadcasts a live entry of a match this node owns.
    void fleet_publish_live(const std::string& id, const json& entry);
    /// The leader's lobby list changed.
    void fleet_publish_lobbies(const json& list);
    /// Where a new match goes: the alive node with the fewest live matches ("" on one node).
    std::string place_match();
    /// The remote participant for (home, connection), made (and connected) on first use.
    std::shared_ptr<RemoteParticipant> remote_for(const std::string& home,
                                                  std::uint64_t connection,
                                                  const std::string& player,
                                                  const std::string& name);

    // ---- QueueHost (lobby strand) ----
    void tell(const std::string& player,
              const std::shared_ptr<const std::string>& message) override {
        tell_player(player, message);
    }
    bool online(const std::string& player) override { return !connections_of(player).empty(); }
    std::optional<QueueError> engaged(const std::string& player) override {
        if (!seats_known)
            return QueueError{ErrorCode::Unavailable,
                              "the server is restoring its matches after a restart; retry "
                              "shortly"};
        if (lobbies.lobby_of(player))
            return QueueError{ErrorCode::AlreadyInGame,
                              "you are waiting in a lobby; leave it before joining a queue"};
        if (auto ids = registry.matches_of(player); !ids.empty())
            return QueueError{ErrorCode::AlreadyInGame,
                              "you are playing match " + ids.front() +
                                  "; finish it before joining a queue"};
        return std::nullopt;
    }
    void rating(const std::string& player, const std::string& pool,
                std::function<void(std::optional<std::pair<double, double>>)> done) override;
    void start_match(std::vector<std::string> players, protocol::LobbySettings settings,
                     json origin,
                     std::function<void(std::variant<std::string, QueueError>)> done) override {
        std::vector<Member> seats;
        for (const auto& p : players) seats.push_back(member(p));
        make_match(settings, seats, origin,
                   [this, seats, done = std::move(done)](
                       std::variant<std::shared_ptr<Match>, LobbyError> made) {
                       if (auto* e = std::get_if<LobbyError>(&made))
                           return done(QueueError{e->code, e->message});
                       const auto& match = std::get<std::shared_ptr<Match>>(made);
                       adopt(match, seats);
                       spdlog::info("event=queue_match_started match={}", match->id());
                       done(match->id());
                   });
    }
    MatchPublisher publisher() {
        return [this](const std::string& id, const json& entry) { on_published(id, entry); };
    }
    /// A match that will not be played (its row could not be stored): off the live list.
    void discard(const std::shared_ptr<Match>& match) {
        match->shutdown();
        lists.set_live_entry(match->id(), nullptr);
    }

    /// Starts a hub timer: on the lobby strand (call there), cancelled by Hub::shutdown so a
    /// stopping server never waits for a grace period to run out.
    void after(std::chrono::milliseconds delay, std::function<void()> action) {
        auto timer = std::make_shared<boost::asio::steady_timer>(lobby_strand);
        timers.insert(timer);
        timer->expires_after(delay);
        timer->async_wait([this, timer, action = std::move(action)](
                              const boost::system::error_code& ec) {
            timers.erase(timer);
            if (!ec && !stopping) action();
        });
    }

    /// A finished match leaves the hub's map (lobby strand): with a database at once (the HTTP
    /// API serves it from PostgreSQL), without one it joins the few kept in memory
    /// (Config::finished_matches_in_memory), and the oldest of those goes. It leaves memory once
    /// the requests already holding it are done.
    void retire(const std::string& id) {
        // Destroyed here, outside the registry's lock.
        auto gone = registry.retire(id, repo ? 0 : config.finished_matches_in_memory);
    }

    // ---- match strands ----
    /// A match's live-list entry changed (the match calls this only then); null: it is over.
    void on_published(const std::string& id, const json& entry) {
        if (entry.is_null()) registry.free_seats(id);  // over: its players may queue again
        lists.set_live_entry(id, entry);
        fleet_publish_live(id, entry);
        if (entry.is_null())
            // A short while for the requests already in flight and the players' last patches,
            // then the match leaves the map (and memory, once nothing else holds it).
            boost::asio::post(lobby_strand, [this, id] {
                after(config.finished_match_keep, [this, id] { retire(id); });
            });
    }

    /// Accounts (null without a database). Last, so it goes first: its requests use the rest.
    std::unique_ptr<Accounts> accounts;
};

}  // namespace server
