#pragma once
// The hub's private parts, shared by its source files: hub.cpp (identity, requests, the Hub
// API), hub_lobby.cpp (the lobby strand's helpers, the queues' host, timers), hub_matches.cpp
// (starting matches for lobbies and queues), hub_restore.cpp (recovery). Its state lives in
// owners of their own: Identity, MatchRegistry, Lists, and in a fleet the FleetNode. Not for
// other code.

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

#include "server/log/log.hpp"
#include "server/match/abandonment.hpp"
#include "server/accounts/accounts.hpp"
#include "server/accounts/preference_book.hpp"
#include "server/limits/address_limiter.hpp"
#include "server/bots/bot_pool.hpp"
#include "server/fleet/broker.hpp"
#include "server/fleet/fleet_node.hpp"
#include "server/app/hub.hpp"
#include "server/app/identity.hpp"
#include "server/app/ids.hpp"
#include "server/rooms/list_ratings.hpp"
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
          identity(cfg.guests_per_minute, cfg.guest_burst),
          lobby_strand(boost::asio::make_strand(io_context)),
          hall(lobby_strand),
          lists(lobby_strand, m, cfg.list_interval,
                [this](std::chrono::milliseconds delay, std::function<void()> action) {
                    after(delay, std::move(action));
                }),
          queues(lobby_strand, *this, m),
          bot_pool(std::make_unique<BotPool>(cfg.bot_threads, bot_queue_limit)) {
        if (repo) blocking = std::make_unique<boost::asio::thread_pool>(2);
        if (fleet_store && broker)
            fleet = std::make_unique<FleetNode>(*this, *fleet_store, *broker);
        // In a fleet a match not in memory is claimed or routed instead (FleetNode::route).
        life.open_stored_matches = repo && !fleet;
    }
    ~Impl() {
        // Store calls still running finish before the hub they post back to goes.
        if (blocking) blocking->join();
        // No broker message may reach a hub that is going (fleet_leave stopped it already
        // after a graceful stop; this covers the others).
        if (fleet) fleet->stop_broker();
    }

    boost::asio::io_context& io;
    /// Where matches run (Hub::set_match_contexts); `io` alone unless set.
    std::vector<boost::asio::io_context*> match_contexts{&io};
    /// The next context a match without a person's connection takes.
    std::atomic<std::size_t> next_match_context{0};
    Config config;
    Metrics& metrics;
    StepStore& store;
    store::Repository* repo;  ///< null: no database
    /// Runs the repository's blocking calls (never on a strand or a network thread).
    std::unique_ptr<boost::asio::thread_pool> blocking;
    /// Where the hub is in its life: flags that start, recovery and shutdown flip, read from
    /// any thread (atomics), and what is set once before the first request.
    struct Lifecycle {
        std::atomic<bool> stopping{false};
        /// Recovery runs (hub_restore.cpp): a match not in memory may still be on its way, so
        /// a request for one answers a retryable `unavailable` rather than `unknown_match`.
        std::atomic<bool> recovering{false};
        /// The seats of every stored live match are known (playing/seated): queues may check.
        std::atomic<bool> seats_known{true};
        /// Set once at start (Server), before any request: whether the database answers.
        std::function<bool()> database_reachable;
        /// match.open of a match not in memory reads it from the store (a single node with a
        /// database). Set by the constructor.
        bool open_stored_matches = false;
    };
    Lifecycle life;
    /// Several nodes on one database (docs/scaling.md); null on a single node.
    std::unique_ptr<FleetNode> fleet;

    /// Tokens and names known here, and the new guests' limit (server/app/identity.hpp).
    Identity identity;

    /// Every match in memory and who sits where (server/match/match_registry.hpp). Looked up
    /// when a connection opens a match; a connection's later requests for it go through its
    /// own handle (ConnectionState), not through here.
    MatchRegistry registry;

    using LobbyStrand = boost::asio::strand<boost::asio::io_context::executor_type>;
    /// The strand of the hall, the lists and the queues.
    LobbyStrand lobby_strand;
    /// The hall: who is connected, the lobbies they sit in, lobbies being started and the hub's
    /// pending timers. Reached only on the lobby strand (StrandOwned asserts it in debug builds).
    struct Hall {
        /// Every connected connection, per player (registered by Hub::connected).
        std::unordered_map<std::string, std::map<std::uint64_t, ParticipantPtr>> connections;
        LobbyBook lobbies;
        std::set<std::shared_ptr<boost::asio::steady_timer>> timers;  ///< pending `after`s
        std::set<std::string> starting;  ///< lobbies whose match is being stored
    };
    StrandOwned<Hall, LobbyStrand> hall;
    /// The lobby and live lists, and their subscribers (server/rooms/lists.hpp).
    Lists lists;
    /// The ratings the lists show beside the players' names, read once from the store.
    ListRatings list_ratings;
    /// A live match made or restored here, as its live entry shows its seats' ratings.
    struct RatedSeats {
        std::string pool;
        std::vector<std::string> players;  ///< seat order; "" for a computer seat
        /// The entry as the match last published it; its lock orders the match's publications
        /// and the republications when a rating was read.
        Guarded<json> entry{nullptr};
    };
    /// The live matches made or restored here, by id (to republish when a rating is read).
    Guarded<std::unordered_map<std::string, std::shared_ptr<RatedSeats>>> rated_seats;
    QueueRoom queues;                ///< quick play (server/rooms/queue_room.hpp)
    /// Computer decisions waiting for a thread, at most (each match asks one at a time).
    static constexpr std::size_t bot_queue_limit = 1024;
    /// The computer players' searches, off every strand (server/bots/bot_pool.hpp).
    std::unique_ptr<BotPool> bot_pool;
    /// How matches made or restored here play their computer seats.
    BotPlay bot_play() const;

    // ---- identity (hub.cpp); thread-safe ----
    /// A fresh guest (not yet stored or known), or nullopt for a bad name.
    std::optional<Guest> fresh_guest(std::string_view name) const;
    /// Stores `guest` (blocking, with a database) and makes it known.
    std::variant<Guest, IdentityError> store_guest(Guest guest);
    /// The guest a token belongs to, if memory knows it.
    std::optional<Guest> known_token(const std::string& token) const;
    /// Looks a token up in the database (blocking) and keeps what it finds.
    std::variant<Guest, IdentityError> lookup_token(const std::string& token);

    // ---- replies and lookups (hub_lobby.cpp) ----
    /// Sends `message` to `to`; on the lobby strand of a fleet's leader, once the rooms as
    /// they are after the running handler are saved (server/fleet/leader_rooms.hpp).
    void send(const ParticipantPtr& to, std::shared_ptr<const std::string> message) override;
    /// Answers `ref` of `to` with an error (and counts it).
    void error(const ParticipantPtr& to, ErrorCode code, std::string_view message, const Ref& ref);
    /// Acknowledges `ref` of `to`, if the request had one.
    void ack(const ParticipantPtr& to, const Ref& ref);
    /// The player with their display name.
    Member member(const std::string& player_id) const;
    /// The match `id` in memory, or null.
    std::shared_ptr<Match> find_match(const std::string& id) const;

    // ---- lobby strand (hub_lobby.cpp) ----
    /// Every connection of `player_id`.
    std::vector<ParticipantPtr> connections_of(const std::string& player_id);
    /// Delivers `message` to every connection of `player_id`.
    void tell_player(const std::string& player_id,
                     const std::shared_ptr<const std::string>& message);
    /// Tells the members of `lobby` what it is now.
    void tell_members(const Lobby& lobby);
    /// Tells every connection of the members of lobby `lobby_id` its new chat `line`.
    void tell_chat(const std::string& lobby_id, const LobbyChatLine& line);
    /// The `lobby.closed` event of `lobby` (with the match it started, if any).
    static std::shared_ptr<const std::string> closed_message(const std::string& lobby,
                                                             std::string_view reason,
                                                             const std::string& match = {});
    /// Publishes the lobby list (on the leader only, in a fleet).
    void publish_lobbies();
    /// Tells `who` and the remaining members what a departure did, and republishes the list.
    /// A lobby closed because its host's seat was released (reason "disconnected") tells the
    /// others so ("disconnected"): the host did not choose to leave, and the host's own
    /// message reaches nobody (no connection left).
    void announce_departure(const Departure& d, const std::string& who, std::string_view reason);
    /// `player` has no connection left: unless one comes back within the grace period, they
    /// leave the lobby they wait in, so public lobbies do not fill with absent players.
    void release_seat_later(const std::string& player);
    /// The first of `seats` who already sits in Config::max_live_matches_per_player live
    /// matches, if any. Only players with a connection count: a seat nobody connects (a
    /// computer player) is not a person holding matches.
    std::optional<Member> over_match_cap(const std::vector<Member>& seats);
    /// Starts a hub timer: on the lobby strand (call there), cancelled by Hub::shutdown so a
    /// stopping server never waits for a grace period to run out.
    void after(std::chrono::milliseconds delay, std::function<void()> action);
    /// A finished match leaves the registry: with a database at once (the HTTP API serves it
    /// from PostgreSQL), without one it joins the few kept in memory
    /// (Config::finished_matches_in_memory), and the oldest of those goes. It leaves memory
    /// once the requests already holding it are done.
    void retire(const std::string& id);

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
    /// `challenger`: the challenger seat (a rematch keeps its number); else a random one.
    void make_match(const protocol::LobbySettings& settings, std::vector<Member> seats,
                    const json& origin, MatchMade done,
                    std::optional<int> challenger = std::nullopt);
    /// The context a new match of `seats` runs on (Hub::set_match_contexts): its first
    /// person's connection's, else each in turn. On the lobby strand (the hall's connections).
    boost::asio::io_context& match_home(const std::vector<Member>& seats);
    /// The next context in turn, for a match no connection decides (a restore).
    boost::asio::io_context& next_match_home();
    /// What matches made or restored here call to make their rematch (posts to the lobby
    /// strand, then make_rematch).
    RematchMaker rematch_maker();
    /// Makes `request`'s rematch (lobby strand): the same settings (and invite code), the seats
    /// moved one place with the challenger's seat number kept, so that the role passes to the
    /// next player; stored and adopted like any new match. `done` gets its id or why not.
    void make_rematch(RematchRequest request, std::function<void(RematchAnswer)> done);
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
    /// Handles a request: in a fleet, FleetNode::route first sends it where it belongs; what
    /// is not sent elsewhere goes on to dispatch_here.
    void dispatch(const ParticipantPtr& from, protocol::ClientMessage message,
                  std::string_view text);
    /// Handles a request on this node, whatever the fleet (the plain single-node path).
    void dispatch_here(const ParticipantPtr& from, protocol::ClientMessage message);
    /// The match `id` as `from` reaches it: its own handle if it opened it, else the registry's.
    std::shared_ptr<Match> handle_of(const ParticipantPtr& from, const std::string& id);
    /// This node holds the pairing authority (always, on a single node).
    bool leads() const;

    /// Closes (4001) the connections of `player` on this node whose session `revoked` says was
    /// revoked (posts to the lobby strand). Another node's connections are not reached.
    void close_sessions(std::string player, std::function<bool(const Participant&)> revoked);
    /// Another node revoked sessions of `player` (fleet::Revoked): forgets them here and closes
    /// this node's connections that said hello with them. `token_sha256`: that session;
    /// `keep_sha256`: every session of the player but that one.
    void revoke_sessions(const std::string& player, const std::string& token_sha256,
                         const std::string& keep_sha256);

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
    /// Recovery is over (recover()'s end, on one node or in a fleet): the connections that
    /// came during it are told their matches.
    void end_recovery();
    /// Rebuilds a stored match (replaying its steps) and adopts it; false and logged when its
    /// replay fails (then it is marked aborted "recovery_failed"). Blocking.
    bool restore_stored(const store::StoredMatch& stored);

    // ---- QueueHost (lobby strand; hub_lobby.cpp) ----
    void tell(const std::string& player,
              const std::shared_ptr<const std::string>& message) override;
    bool online(const std::string& player) override;
    std::optional<QueueError> engaged(const std::string& player) override;
    void rating(const std::string& player, const std::string& pool,
                std::function<void(std::optional<std::pair<double, double>>)> done) override;
    void start_match(std::vector<std::string> players, protocol::LobbySettings settings,
                     json origin,
                     std::function<void(std::variant<std::string, QueueError>)> done) override;
    void queue_changed() override;

    // ---- matches (hub_lobby.cpp; the ratings in the lists: hub_matches.cpp) ----
    /// What a match made or restored here with `options` calls when its live-list entry
    /// changes: the entry, with its seats' ratings, goes to on_published.
    MatchPublisher publisher(const MatchOptions& options);
    /// Publishes `entry` (null: the match is over) of match `id` with its seats' ratings;
    /// asks for the ratings not known yet. Called with the seats' entry lock held.
    void publish_rated(const std::string& id, const std::shared_ptr<RatedSeats>& seats,
                       const json& entry);
    /// Reads `player`'s rating in `pool` for the lists, unless known or being read (no
    /// database, or one the health checks find away: nothing); once read, the lists that show
    /// the player are published again.
    void want_rating(const std::string& player, const std::string& pool);
    /// The public lobby list with each seated person's rating in the lobby's pool (lobby strand).
    json rated_lobbies();
    /// A match that will not be played (its row could not be stored): off the live list.
    void discard(const std::shared_ptr<Match>& match);
    /// A match's live-list entry changed (the match's strand; only then); null: it is over.
    void on_published(const std::string& id, const json& entry);

    /// Accounts (null without a database). Last, so it goes first: its requests use the rest.
    std::unique_ptr<Accounts> accounts;
    std::unique_ptr<PreferenceBook> preferences;
};

}  // namespace server
