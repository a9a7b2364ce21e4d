#include "server/hub.hpp"

#include <spdlog/spdlog.h>

#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <functional>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <map>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <unordered_map>

#include "server/address_limiter.hpp"
#include "server/ids.hpp"
#include "server/lobby.hpp"
#include "server/match.hpp"
#include "server/replay.hpp"
#include "server/queue_room.hpp"
#include "server/rating/rating.hpp"
#include "server/store/repository.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::Ref;

namespace {

template <class... F>
struct Overloaded : F... {
    using F::operator()...;
};
template <class... F>
Overloaded(F...) -> Overloaded<F...>;

std::shared_ptr<const std::string> shared(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

// 1-24 characters of valid UTF-8, no control characters, not only spaces.
bool valid_name(std::string_view name) {
    int count = 0;
    bool visible = false;
    for (std::size_t i = 0; i < name.size();) {
        auto c = static_cast<unsigned char>(name[i]);
        std::uint32_t cp = 0;
        int extra = 0;
        if (c < 0x80)
            cp = c;
        else if ((c & 0xE0) == 0xC0)
            cp = c & 0x1Fu, extra = 1;
        else if ((c & 0xF0) == 0xE0)
            cp = c & 0x0Fu, extra = 2;
        else if ((c & 0xF8) == 0xF0)
            cp = c & 0x07u, extra = 3;
        else
            return false;
        if (i + static_cast<std::size_t>(extra) >= name.size() && extra > 0)
            return false;  // cut short
        for (int k = 1; k <= extra; ++k) {
            auto d = static_cast<unsigned char>(name[i + static_cast<std::size_t>(k)]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3Fu);
        }
        static constexpr std::uint32_t min_for_length[] = {0, 0x80, 0x800, 0x10000};
        if (cp < min_for_length[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        if (cp < 0x20 || (cp >= 0x7F && cp < 0xA0)) return false;
        if (cp != ' ') visible = true;
        i += static_cast<std::size_t>(extra) + 1;
        if (++count > 24) return false;
    }
    return count >= 1 && visible;
}

}  // namespace

struct Hub::Impl final : QueueHost {
    Impl(boost::asio::io_context& io_context, const Config& cfg, Metrics& m, StepStore& s,
         store::Repository* r)
        : io(io_context),
          config(cfg),
          metrics(m),
          store(s),
          repo(r),
          guest_limiter(cfg.guests_per_minute, cfg.guest_burst),
          lobby_strand(boost::asio::make_strand(io_context)),
          queues(lobby_strand, *this, m) {
        if (repo) blocking = std::make_unique<boost::asio::thread_pool>(2);
    }
    ~Impl() {
        // Store calls still running finish before the hub they post back to goes.
        if (blocking) blocking->join();
    }

    boost::asio::io_context& io;
    Config config;
    Metrics& metrics;
    StepStore& store;
    store::Repository* repo;  ///< null: no database
    /// Runs the repository's blocking calls (never on a strand or a network thread).
    std::unique_ptr<boost::asio::thread_pool> blocking;
    std::atomic<bool> stopping{false};

    // Identity: read by every session's hello, so guarded by a lock rather than a strand.
    mutable std::shared_mutex identity_mutex;
    std::unordered_map<std::string, Guest> by_token;
    std::unordered_map<std::string, std::string> names;  ///< player id -> name
    AddressLimiter guest_limiter;

    // Who is connected: every connection that has sent a message, per player, and the matches
    // each connection opened (to close them when it goes).
    std::mutex connections_mutex;
    std::unordered_map<std::string, std::map<std::uint64_t, ParticipantPtr>> connections;
    std::unordered_map<std::uint64_t, std::set<std::string>> opened;

    mutable std::mutex matches_mutex;
    std::unordered_map<std::string, std::shared_ptr<Match>> matches;
    /// Who sits in each live match, and the live matches each player sits in (a seated player
    /// may not queue); a match leaves both when it ends.
    std::unordered_map<std::string, std::vector<std::string>> seated;
    std::unordered_map<std::string, std::set<std::string>> playing;

    // What the HTTP getters read, published by the strands that own the data.
    mutable std::mutex lists_mutex;
    json lobby_list = json::array();
    json live_list = json::array();
    std::map<std::string, std::pair<std::uint64_t, json>> live;  ///< match id -> (order, entry)
    std::unordered_map<std::string, json> summaries;             ///< match id -> spectator view
    std::set<std::string> finished;  ///< over, waiting to be forgotten (forget_later)
    std::uint64_t next_live_order = 0;

    // Lobby strand only.
    boost::asio::strand<boost::asio::io_context::executor_type> lobby_strand;
    LobbyBook lobbies;
    std::map<std::uint64_t, ParticipantPtr> lobby_watchers;
    std::map<std::uint64_t, ParticipantPtr> match_watchers;
    std::set<std::shared_ptr<boost::asio::steady_timer>> timers;  ///< pending `after`s
    std::set<std::string> starting;  ///< lobbies whose match is being stored
    QueueRoom queues;                ///< quick play (server/queue_room.hpp)

    // ---- replies ----
    void error(const ParticipantPtr& to, ErrorCode code, std::string_view message, const Ref& ref) {
        metrics.rejected(code);
        to->deliver(shared(protocol::error_message(code, message, ref)));
    }
    static void ack(const ParticipantPtr& to, const Ref& ref) {
        if (ref) to->deliver(shared(protocol::ack_message(ref)));
    }

    Member member(const std::string& player_id) const {
        std::shared_lock lock(identity_mutex);
        auto it = names.find(player_id);
        return Member{player_id, it == names.end() ? player_id : it->second};
    }

    std::vector<ParticipantPtr> connections_of(const std::string& player_id) {
        std::lock_guard lock(connections_mutex);
        std::vector<ParticipantPtr> out;
        if (auto it = connections.find(player_id); it != connections.end())
            for (const auto& [id, p] : it->second) out.push_back(p);
        return out;
    }

    void tell_player(const std::string& player_id,
                     const std::shared_ptr<const std::string>& message) {
        for (const auto& p : connections_of(player_id)) p->deliver(message);
    }

    std::shared_ptr<Match> find_match(const std::string& id) const {
        std::lock_guard lock(matches_mutex);
        auto it = matches.find(id);
        return it == matches.end() ? nullptr : it->second;
    }

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
        json list = lobbies.public_json();
        metrics.open_lobbies = static_cast<std::int64_t>(lobbies.size());
        {
            std::lock_guard lock(lists_mutex);
            if (list == lobby_list) return;
            lobby_list = list;
        }
        auto message = shared(protocol::event_message("lobbies", {{"lobbies", std::move(list)}}));
        for (const auto& [id, p] : lobby_watchers) p->deliver(message);
    }

    void send_matches(const ParticipantPtr& to) {
        std::lock_guard lock(lists_mutex);
        to->deliver(shared(protocol::event_message("matches", {{"matches", live_list}})));
    }

    /// Tells `who` and the remaining members what a departure did, and republishes the list.
    void announce_departure(const Departure& d, const std::string& who, std::string_view reason) {
        tell_player(who, closed_message(d.lobby.id, reason));
        if (d.closed) {
            auto message = closed_message(d.lobby.id, "host_left");
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

    void on_lobby_message(const ParticipantPtr& from, const protocol::ClientBody& body,
                          const Ref& ref);
    void start_lobby(const ParticipantPtr& from, const std::string& lobby_id, const Ref& ref);
    void finish_start(const ParticipantPtr& from, const std::string& lobby_id, const Ref& ref,
                      std::variant<std::shared_ptr<Match>, LobbyError> made);

    /// What make_match hands back on the lobby strand: the new match, stored (with a database)
    /// but not yet registered, or why it could not be made (nothing then remains of it).
    using MatchMade = std::function<void(std::variant<std::shared_ptr<Match>, LobbyError>)>;
    /// Creates a match of `seats` (in seat order) with `settings`, a random seed and challenger,
    /// and stores it (on the blocking pool) before its first step can be; `origin` is added to
    /// its stored settings (where it came from). Lobbies and queues both start matches here.
    void make_match(const protocol::LobbySettings& settings, std::vector<Member> seats,
                    const json& origin, MatchMade done);
    /// Registers a made match: players may open it, and its seated players count as playing.
    void adopt(const std::shared_ptr<Match>& match, const std::vector<Member>& seats);
    /// A made match that will not be played after all: off the lists, aborted in the database.
    void abandon(const std::shared_ptr<Match>& match);

    // ---- QueueHost (lobby strand) ----
    void tell(const std::string& player,
              const std::shared_ptr<const std::string>& message) override {
        tell_player(player, message);
    }
    bool online(const std::string& player) override { return !connections_of(player).empty(); }
    std::optional<QueueError> engaged(const std::string& player) override {
        if (lobbies.lobby_of(player))
            return QueueError{ErrorCode::AlreadyInGame,
                              "you are waiting in a lobby; leave it before joining a queue"};
        std::lock_guard lock(matches_mutex);
        if (auto it = playing.find(player); it != playing.end() && !it->second.empty())
            return QueueError{ErrorCode::AlreadyInGame,
                              "you are playing match " + *it->second.begin() +
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
        return [this](const std::string& id, const json& entry, const json& view) {
            on_published(id, entry, view);
        };
    }
    /// A match that will not be played (its row could not be stored): off the live list.
    void discard(const std::shared_ptr<Match>& match) {
        match->shutdown();
        std::lock_guard lock(lists_mutex);
        live.erase(match->id());
        summaries.erase(match->id());
        live_list = json::array();
        for (const auto& [mid, item] : live) live_list.push_back(item.second);
        metrics.live_matches = static_cast<std::int64_t>(live.size());
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

    /// Drops a finished match from memory after Config::finished_match_keep.
    void forget_later(const std::string& id) {
        boost::asio::post(lobby_strand, [this, id] {
            after(config.finished_match_keep, [this, id] {
                std::shared_ptr<Match> match;  // destroyed outside the lock
                {
                    std::lock_guard lock(matches_mutex);
                    if (auto it = matches.find(id); it != matches.end()) {
                        match = std::move(it->second);
                        matches.erase(it);
                    }
                }
                std::lock_guard lock(lists_mutex);
                summaries.erase(id);
                finished.erase(id);
            });
        });
    }

    // ---- match strands ----
    void on_published(const std::string& id, const json& entry, const json& spectator_view) {
        if (entry.is_null()) {
            // Over: its players are free to queue again.
            std::lock_guard lock(matches_mutex);
            if (auto it = seated.find(id); it != seated.end()) {
                for (const auto& p : it->second)
                    if (auto pit = playing.find(p); pit != playing.end()) {
                        pit->second.erase(id);
                        if (pit->second.empty()) playing.erase(pit);
                    }
                seated.erase(it);
            }
        }
        bool changed = false;
        {
            std::lock_guard lock(lists_mutex);
            summaries[id] = spectator_view;
            auto it = live.find(id);
            if (entry.is_null()) {
                if (it != live.end()) live.erase(it), changed = true;
                if (finished.insert(id).second) forget_later(id);
            } else if (it == live.end()) {
                live.emplace(id, std::make_pair(next_live_order++, entry));
                changed = true;
            } else if (it->second.second != entry) {
                it->second.second = entry;
                changed = true;
            }
            if (!changed) return;
            std::vector<const std::pair<std::uint64_t, json>*> order;
            for (const auto& [mid, item] : live) order.push_back(&item);
            std::sort(order.begin(), order.end(),
                      [](auto* a, auto* b) { return a->first < b->first; });
            live_list = json::array();
            for (auto* item : order) live_list.push_back(item->second);
            metrics.live_matches = static_cast<std::int64_t>(live.size());
        }
        // Watchers live on the lobby strand; they get the list as it is when the post runs,
        // so lists published from different match strands never arrive out of order.
        boost::asio::post(lobby_strand, [this] {
            for (const auto& [cid, p] : match_watchers) send_matches(p);
        });
    }
};

void Hub::Impl::on_lobby_message(const ParticipantPtr& from, const protocol::ClientBody& body,
                                 const Ref& ref) {
    const std::string& me = from->player_id();
    auto joined = [&](std::variant<const Lobby*, LobbyError> result) {
        if (auto* e = std::get_if<LobbyError>(&result))
            return error(from, e->code, e->message, ref);
        tell_members(*std::get<const Lobby*>(result));
        ack(from, ref);
        publish_lobbies();
    };
    auto departed = [&](std::variant<Departure, LobbyError> result, const std::string& who,
                        std::string_view reason) {
        if (auto* e = std::get_if<LobbyError>(&result))
            return error(from, e->code, e->message, ref);
        announce_departure(std::get<Departure>(result), who, reason);
        ack(from, ref);
    };
    // A player waits in one place at a time: a queue or a lobby (docs/matchmaking.md).
    auto queued_error = [&] {
        error(from, ErrorCode::AlreadyQueued,
              "you are waiting in a queue; leave it before joining a lobby", ref);
    };
    std::visit(Overloaded{
                   [&](const protocol::LobbyCreate& m) {
                       if (queues.engaged(me)) return queued_error();
                       // The parser validated the settings; the engine has the last word on pools.
                       auto engine = protocol::engine_settings(m.settings, 0, 0);
                       if (auto* e = std::get_if<std::string>(&engine))
                           return error(from, ErrorCode::InvalidField, *e, ref);
                       joined(lobbies.create(member(me), m.settings));
                   },
                   [&](const protocol::LobbyJoin& m) {
                       if (queues.engaged(me)) return queued_error();
                       joined(m.lobby.empty() ? lobbies.join_by_code(m.code, member(me))
                                              : lobbies.join(m.lobby, member(me)));
                   },
                   [&](const protocol::LobbyLeave& m) {
                       departed(lobbies.leave(m.lobby, me), me, "left");
                   },
                   [&](const protocol::LobbyKick& m) {
                       departed(lobbies.kick(m.lobby, me, m.player), m.player, "kicked");
                   },
                   [&](const protocol::LobbyStart& m) { start_lobby(from, m.lobby, ref); },
                   [&](const protocol::QueueJoin& m) { queues.join(from, m, ref); },
                   [&](const protocol::QueueLeave&) { queues.leave(from, ref); },
                   [&](const protocol::LobbiesSubscribe& m) {
                       if (m.on) {
                           lobby_watchers[from->connection_id()] = from;
                           std::lock_guard lock(lists_mutex);
                           from->deliver(shared(
                               protocol::event_message("lobbies", {{"lobbies", lobby_list}})));
                       } else {
                           lobby_watchers.erase(from->connection_id());
                       }
                       ack(from, ref);
                   },
                   [&](const protocol::MatchesSubscribe& m) {
                       if (m.on) {
                           match_watchers[from->connection_id()] = from;
                           send_matches(from);
                       } else {
                           match_watchers.erase(from->connection_id());
                       }
                       ack(from, ref);
                   },
                   [&](const auto&) {},
               },
               body);
}

void Hub::Impl::start_lobby(const ParticipantPtr& from, const std::string& lobby_id,
                            const Ref& ref) {
    if (starting.count(lobby_id))
        return error(from, ErrorCode::Busy, "the match is already being started", ref);
    auto check = lobbies.check_start(lobby_id, from->player_id());
    if (auto* e = std::get_if<LobbyError>(&check)) return error(from, e->code, e->message, ref);
    const Lobby& lobby = *std::get<const Lobby*>(check);
    starting.insert(lobby_id);
    make_match(lobby.settings, lobby.seats, json::object(),
               [this, from, lobby_id, ref](std::variant<std::shared_ptr<Match>, LobbyError> made) {
                   starting.erase(lobby_id);
                   finish_start(from, lobby_id, ref, std::move(made));
               });
}

void Hub::Impl::finish_start(const ParticipantPtr& from, const std::string& lobby_id,
                             const Ref& ref,
                             std::variant<std::shared_ptr<Match>, LobbyError> made) {
    if (auto* e = std::get_if<LobbyError>(&made)) return error(from, e->code, e->message, ref);
    const auto match = std::get<std::shared_ptr<Match>>(std::move(made));
    // The lobby may have changed while the match was being stored.
    auto check = lobbies.check_start(lobby_id, from->player_id());
    if (auto* e = std::get_if<LobbyError>(&check)) {
        abandon(match);
        return error(from, e->code, e->message, ref);
    }
    Lobby started = lobbies.take(lobby_id);
    adopt(match, started.seats);
    spdlog::info("lobby {} started match {}", started.id, match->id());
    auto message = closed_message(started.id, "started", match->id());
    for (const Member& m : started.seats) tell_player(m.id, message);
    ack(from, ref);
    publish_lobbies();
}

void Hub::Impl::make_match(const protocol::LobbySettings& settings, std::vector<Member> seats,
                           const json& origin, MatchMade done) {
    MatchOptions options;
    {
        std::lock_guard lock(matches_mutex);
        do options.id = random_id("m_");
        while (matches.count(options.id));
    }
    options.settings = settings;
    options.seats = std::move(seats);
    options.seed = random_u64();
    options.challenger = random_below(settings.players);
    options.history = config.history_per_match;
    json stored = {{"lobby", protocol::lobby_settings_json(options.settings)},
                   {"challenger", options.challenger}};
    for (const auto& item : origin.items()) stored[item.key()] = item.value();
    auto created = Match::create(io, options, store, metrics, publisher());
    if (auto* e = std::get_if<std::string>(&created))
        return done(LobbyError{ErrorCode::InvalidField, *e});
    auto match = std::get<std::shared_ptr<Match>>(std::move(created));
    if (!repo) return done(std::move(match));
    // The match and its seats must be stored before its first step (the steps' foreign keys);
    // the call blocks, so it runs on the blocking pool and the lobby strand carries on.
    store::NewMatch row;
    row.id = options.id;
    row.settings_json = stored.dump();
    row.seed = options.seed;
    row.state_hash = match->state_hash_before_shared();
    row.created_at_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count();
    const auto powers = match->powers_before_shared();
    for (std::size_t s = 0; s < options.seats.size(); ++s)
        row.seats.push_back(store::NewSeat{static_cast<int>(s),
                                           options.seats[s].id,
                                           s < powers.size() ? powers[s] : std::string(),
                                           {}});
    boost::asio::post(*blocking, [this, match, row = std::move(row), done = std::move(done)] {
        auto result = repo->create_match(row);
        if (!result)
            spdlog::warn("event=match_store_failed match={} error=\"{}\"", row.id,
                         result.error().message);
        boost::asio::post(lobby_strand, [this, match, done, ok = result.ok()] {
            if (ok) return done(match);
            discard(match);
            done(LobbyError{ErrorCode::Unavailable,
                            "the match could not be stored; temporarily unavailable, try again"});
        });
    });
}

void Hub::Impl::adopt(const std::shared_ptr<Match>& match, const std::vector<Member>& seats) {
    std::lock_guard lock(matches_mutex);
    matches.emplace(match->id(), match);
    auto& players = seated[match->id()];
    for (const Member& m : seats) {
        players.push_back(m.id);
        playing[m.id].insert(match->id());
    }
}

void Hub::Impl::abandon(const std::shared_ptr<Match>& match) {
    discard(match);
    if (repo)
        boost::asio::post(*blocking, [this, id = match->id()] {
            repo->end_match(id, "aborted", "null",
                            std::chrono::duration_cast<std::chrono::milliseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count());
        });
}

void Hub::Impl::rating(const std::string& player, const std::string& pool,
                       std::function<void(std::optional<std::pair<double, double>>)> done) {
    const rating::Rating initial = rating::initial_rating();
    if (!repo) return done(std::pair{initial.rating, initial.deviation});
    // A blocking read: on the pool, never on the strand.
    boost::asio::post(*blocking, [this, player, pool, initial, done = std::move(done)] {
        std::optional<std::pair<double, double>> found;
        auto ratings = repo->ratings(player);
        if (!ratings) {
            spdlog::warn("event=queue_rating_failed player={} error=\"{}\"", player,
                         ratings.error().message);
        } else {
            found = std::pair{initial.rating, initial.deviation};
            for (const store::PoolRating& r : *ratings)
                if (r.pool == pool && r.value.rated) {
                    // The deviation grows while a player is away (docs/ratings.md).
                    const rating::Rating now = rating::at(
                        rating::Rating{r.value.rating, r.value.deviation, r.value.volatility,
                                       r.value.last_rated_at_ms, r.value.games},
                        std::chrono::duration_cast<std::chrono::milliseconds>(
                            std::chrono::system_clock::now().time_since_epoch())
                            .count());
                    found = std::pair{now.rating, now.deviation};
                }
        }
        boost::asio::post(lobby_strand, [done, found] { done(found); });
    });
}

// ---- Hub ----

Hub::Hub(boost::asio::io_context& io, const Config& config, Metrics& metrics, StepStore& store,
         store::Repository* repository)
    : impl_(std::make_unique<Impl>(io, config, metrics, store, repository)) {}

Hub::~Hub() = default;

std::optional<Guest> Hub::create_guest(std::string_view name) {
    auto made = new_guest(name);
    if (auto* guest = std::get_if<Guest>(&made)) return std::move(*guest);
    return std::nullopt;
}

std::variant<Guest, IdentityError> Hub::new_guest(std::string_view name) {
    if (!valid_name(name)) return IdentityError::InvalidName;
    Guest guest{random_id("p_"), std::string(name), secret_token()};
    {
        std::shared_lock lock(impl_->identity_mutex);
        while (impl_->by_token.count(guest.token) || impl_->names.count(guest.id)) {
            guest.id = random_id("p_");
            guest.token = secret_token();
        }
    }
    if (impl_->repo) {
        // Synchronous, on the HTTP request's path only (documented in docs/storage.md).
        store::NewPlayer row{guest.id, guest.name, guest.token,
                             std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count()};
        auto stored = impl_->repo->create_guest(row);
        if (!stored) {
            spdlog::warn("event=guest_store_failed error=\"{}\"", stored.error().message);
            return IdentityError::Unavailable;
        }
    }
    std::unique_lock lock(impl_->identity_mutex);
    impl_->by_token.emplace(guest.token, guest);
    impl_->names.emplace(guest.id, guest.name);
    return guest;
}

bool Hub::allow_guest_from(std::string_view client) {
    return impl_->guest_limiter.allow(client);
}

std::optional<Guest> Hub::authenticate(std::string_view token) const {
    auto found = identify(token);
    if (auto* guest = std::get_if<Guest>(&found)) return std::move(*guest);
    return std::nullopt;
}

std::variant<Guest, IdentityError> Hub::identify(std::string_view token) const {
    {
        std::shared_lock lock(impl_->identity_mutex);
        auto it = impl_->by_token.find(std::string(token));
        if (it != impl_->by_token.end()) return it->second;
    }
    if (!impl_->repo || token.empty()) return IdentityError::UnknownToken;
    // Synchronous, on the hello path only: a guest made before a restart is found by its hash.
    auto player = impl_->repo->player_by_token(token);
    if (!player) {
        if (player.error().kind == store::StoreError::Kind::NotFound)
            return IdentityError::UnknownToken;
        spdlog::warn("event=identify_failed error=\"{}\"", player.error().message);
        return IdentityError::Unavailable;
    }
    Guest guest{player->id, player->display_name, std::string(token)};
    std::unique_lock lock(impl_->identity_mutex);
    impl_->by_token.emplace(guest.token, guest);
    impl_->names[guest.id] = guest.name;
    return guest;
}

std::pair<int, int> Hub::recover() {
    Impl& hub = *impl_;
    if (!hub.repo) return {0, 0};
    auto live = hub.repo->live_matches();
    if (!live)
        throw std::runtime_error("recovery: cannot read live matches: " + live.error().message);
    int restored = 0;
    int failed = 0;
    for (const store::StoredMatch& stored : *live) {
        std::string why;
        std::shared_ptr<Match> match;
        MatchOptions options;
        options.id = stored.id;
        options.seed = stored.seed;
        options.history = hub.config.history_per_match;
        // The same reading of the settings as the HTTP API's replays (server/replay.hpp).
        auto parsed = read_stored_settings(stored.settings_json);
        if (auto* e = std::get_if<std::string>(&parsed)) {
            why = *e;
        } else {
            options.settings = std::get<StoredSettings>(parsed).lobby;
            options.challenger = std::get<StoredSettings>(parsed).challenger;
            for (const store::StoredSeat& seat : stored.seats) {
                options.seats.push_back(Member{seat.player_id, seat.display_name});
                std::unique_lock lock(hub.identity_mutex);
                hub.names.emplace(seat.player_id, seat.display_name);
            }
            std::vector<ReplayStep> steps;
            for (const store::StoredStep& step : stored.steps)
                steps.push_back(ReplayStep{step.number, step.player_id, step.step_json, step.at_ms,
                                           step.state_hash});
            auto made = Match::restore(hub.io, std::move(options), steps, stored.created_at_ms,
                                       hub.store, hub.metrics, hub.publisher());
            if (auto* e = std::get_if<std::string>(&made))
                why = *e;
            else
                match = std::get<std::shared_ptr<Match>>(std::move(made));
        }
        if (!match) {
            ++failed;
            spdlog::error("event=recovery_failed match={} steps={} why=\"{}\"", stored.id,
                          stored.steps.size(), why);
            // Marked, not dropped: the match and its steps stay for a person to look at.
            auto marked = hub.repo->end_match(
                stored.id, "aborted",
                json{{"winners", json::array()}, {"reason", "recovery_failed"}, {"why", why}}
                    .dump(),
                std::chrono::duration_cast<std::chrono::milliseconds>(
                    std::chrono::system_clock::now().time_since_epoch())
                    .count());
            if (!marked)
                spdlog::error("event=recovery_mark_failed match={} error=\"{}\"", stored.id,
                              marked.error().message);
            continue;
        }
        ++restored;
        spdlog::info("event=match_recovered match={} steps={}", stored.id, stored.steps.size());
        std::vector<Member> seats;
        for (const store::StoredSeat& seat : stored.seats)
            seats.push_back(Member{seat.player_id, seat.display_name});
        hub.adopt(match, seats);
    }
    return {restored, failed};
}

void Hub::connected(const ParticipantPtr& who) {
    {
        std::lock_guard lock(impl_->connections_mutex);
        impl_->connections[who->player_id()][who->connection_id()] = who;
    }
    // A new tab (or a reload, or another device) learns at once which lobby its player sits in,
    // with the invite code: it could not have seen the events that came before it.
    // Likewise for a queue it waits in.
    boost::asio::post(impl_->lobby_strand, [&hub = *impl_, who] {
        if (const Lobby* lobby = hub.lobbies.lobby_of(who->player_id()))
            who->deliver(
                shared(protocol::event_message("lobby", {{"lobby", lobby->to_json(true)}})));
        hub.queues.connected(who);
    });
}

void Hub::handle(const ParticipantPtr& from, protocol::ClientMessage message) {
    Impl& hub = *impl_;
    {
        std::lock_guard lock(hub.connections_mutex);
        hub.connections[from->player_id()][from->connection_id()] = from;
    }
    const Ref& ref = message.ref;
    if (hub.stopping)
        return hub.error(from, ErrorCode::Unavailable, "the server is shutting down", ref);
    auto with_match = [&](const std::string& id, auto&& act) {
        if (auto match = hub.find_match(id)) return act(match);
        hub.error(from, ErrorCode::UnknownMatch, "no such match", ref);
    };
    std::visit(
        Overloaded{
            [&](const protocol::Hello&) {
                hub.error(from, ErrorCode::WrongPhase, "already authenticated", ref);
            },
            [&](const protocol::Ping&) { from->deliver(shared(protocol::pong_message(ref))); },
            [&](const protocol::MatchOpen& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    {
                        std::lock_guard lock(hub.connections_mutex);
                        hub.opened[from->connection_id()].insert(m.match);
                    }
                    match->open(from, m.since, ref);
                });
            },
            [&](const protocol::MatchClose& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    {
                        std::lock_guard lock(hub.connections_mutex);
                        if (auto it = hub.opened.find(from->connection_id());
                            it != hub.opened.end())
                            it->second.erase(m.match);
                    }
                    match->close(from, ref);
                });
            },
            [&](const protocol::MatchStep& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    match->step(from, m.step, ref);
                });
            },
            [&](const protocol::MatchResign& m) {
                with_match(m.match,
                           [&](const std::shared_ptr<Match>& match) { match->resign(from, ref); });
            },
            [&](const protocol::MatchAbort& m) {
                with_match(m.match,
                           [&](const std::shared_ptr<Match>& match) { match->abort(from, ref); });
            },
            [&](const auto& request) {
                // Lobbies and subscriptions live on the lobby strand.
                boost::asio::post(hub.lobby_strand,
                                  [&hub, from, body = protocol::ClientBody{request}, ref] {
                                      hub.on_lobby_message(from, body, ref);
                                  });
            },
        },
        message.body);
}

void Hub::disconnected(const ParticipantPtr& who) {
    Impl& hub = *impl_;
    const auto id = who->connection_id();
    std::set<std::string> watched;
    bool last_connection = false;
    {
        std::lock_guard lock(hub.connections_mutex);
        if (auto it = hub.connections.find(who->player_id()); it != hub.connections.end()) {
            it->second.erase(id);
            if (it->second.empty()) {
                hub.connections.erase(it);
                last_connection = true;
            }
        }
        if (auto it = hub.opened.find(id); it != hub.opened.end()) {
            watched = std::move(it->second);
            hub.opened.erase(it);
        }
    }
    for (const auto& match_id : watched)
        if (auto match = hub.find_match(match_id)) match->remove(id);
    boost::asio::post(hub.lobby_strand, [&hub, id, last_connection, player = who->player_id()] {
        hub.lobby_watchers.erase(id);
        hub.match_watchers.erase(id);
        if (last_connection) {
            hub.release_seat_later(player);
            hub.queues.offline(player);  // at once: nobody is paired with an absent player
        }
    });
}

json Hub::public_lobbies() const {
    std::lock_guard lock(impl_->lists_mutex);
    return impl_->lobby_list;
}

json Hub::live_matches() const {
    std::lock_guard lock(impl_->lists_mutex);
    return impl_->live_list;
}

json Hub::queues() const {
    return impl_->queues.list();
}

std::optional<json> Hub::match_summary(std::string_view match_id) const {
    std::lock_guard lock(impl_->lists_mutex);
    auto it = impl_->summaries.find(std::string(match_id));
    if (it == impl_->summaries.end()) return std::nullopt;
    return it->second;
}

void Hub::shutdown() {
    impl_->stopping = true;
    boost::asio::post(impl_->lobby_strand, [&hub = *impl_] {
        for (const auto& timer : hub.timers) timer->cancel();
        hub.queues.shutdown();
    });
    std::lock_guard lock(impl_->matches_mutex);
    for (const auto& [id, match] : impl_->matches) match->shutdown();
}

}  // namespace server
