// Starting a match, for a lobby (lobby.start) and for a pair from the rated queues: made and
// stored off the strands, then adopted by the hub, or abandoned when the store refuses it.
#include <algorithm>
#include <chrono>
#include <cmath>

#include "server/limits/deadline.hpp"
#include "server/time/epoch_ms.hpp"
#include "server/app/hub_impl.hpp"
#include "server/bots/bot_players.hpp"
#include "server/store/token_hash.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::Ref;

void Hub::Impl::start_lobby(const ParticipantPtr& from, const std::string& lobby_id,
                            const Ref& ref) {
    if (hall.get().starting.count(lobby_id))
        return error(from, ErrorCode::Busy, "the match is already being started", ref);
    auto check = hall.get().lobbies.check_start(lobby_id, from->player_id());
    if (auto* e = std::get_if<LobbyError>(&check)) return error(from, e->code, e->message, ref);
    const Lobby& lobby = *std::get<const Lobby*>(check);
    if (auto over = over_match_cap(lobby.seats))
        return error(from, ErrorCode::TooManyMatches,
                     over->name + " already plays " + std::to_string(config.max_live_matches_per_player) +
                         " live matches; finish one first",
                     ref);
    hall.get().starting.insert(lobby_id);
    // A private lobby's match keeps its invite code (as a hash): spectators need the code.
    json origin = json::object();
    if (!lobby.settings.is_public) origin["invite_sha256"] = store::token_sha256(lobby.code);
    make_match(lobby.settings, lobby.table(), origin,
               [this, from, lobby_id, ref](std::variant<std::shared_ptr<Match>, LobbyError> made) {
                   hall.get().starting.erase(lobby_id);
                   finish_start(from, lobby_id, ref, std::move(made));
               });
}

void Hub::Impl::finish_start(const ParticipantPtr& from, const std::string& lobby_id,
                             const Ref& ref,
                             std::variant<std::shared_ptr<Match>, LobbyError> made) {
    if (auto* e = std::get_if<LobbyError>(&made)) return error(from, e->code, e->message, ref);
    const auto match = std::get<std::shared_ptr<Match>>(std::move(made));
    // The lobby may have changed while the match was being stored.
    auto check = hall.get().lobbies.check_start(lobby_id, from->player_id());
    if (auto* e = std::get_if<LobbyError>(&check)) {
        abandon(match);
        return error(from, e->code, e->message, ref);
    }
    Lobby started = hall.get().lobbies.take(lobby_id);
    adopt(match, started.table());
    spdlog::info("lobby {} started match {}", started.id, match->id());
    auto message = closed_message(started.id, "started", match->id());
    for (const Member& m : started.seats) tell_player(m.id, message);
    ack(from, ref);
    publish_lobbies();
}

RematchMaker Hub::Impl::rematch_maker() {
    return [this](RematchRequest request, std::function<void(RematchAnswer)> done) {
        boost::asio::post(lobby_strand, [this, request = std::move(request),
                                         done = std::move(done)]() mutable {
            make_rematch(std::move(request), std::move(done));
        });
    };
}

void Hub::Impl::make_rematch(RematchRequest request, std::function<void(RematchAnswer)> done) {
    if (life.stopping)
        return done(RematchRefusal{ErrorCode::Unavailable, "the server is shutting down"});
    // Seat 0 moves last and the challenger's seat number stays, so the role passes to the next
    // player: in Santorini who names the start player, in Splendor the start player itself.
    std::rotate(request.seats.begin(), request.seats.begin() + 1, request.seats.end());
    if (auto over = over_match_cap(request.seats))
        return done(RematchRefusal{ErrorCode::TooManyMatches,
                                   over->name + " already plays " +
                                       std::to_string(config.max_live_matches_per_player) +
                                       " live matches; finish one first"});
    json origin = {{"rematch_of", request.of}};
    if (!request.invite_sha256.empty()) origin["invite_sha256"] = request.invite_sha256;
    std::vector<Member> seats = request.seats;
    make_match(
        request.settings, std::move(request.seats), origin,
        [this, seats, of = request.of,
         done = std::move(done)](std::variant<std::shared_ptr<Match>, LobbyError> made) {
            if (auto* e = std::get_if<LobbyError>(&made))
                return done(RematchRefusal{e->code, e->message});
            const auto match = std::get<std::shared_ptr<Match>>(std::move(made));
            adopt(match, seats);
            spdlog::info("event=rematch of={} match={}", of, match->id());
            done(match->id());
        },
        request.challenger);
}

void Hub::Impl::make_match(const protocol::LobbySettings& settings, std::vector<Member> seats,
                           const json& origin, MatchMade done, std::optional<int> challenger) {
    MatchOptions options;
    options.id = registry.fresh_id([] { return random_id("m_"); });
    options.settings = settings;
    options.seats = std::move(seats);
    options.seed = random_u64();
    options.challenger = challenger ? *challenger : random_below(settings.players);
    options.make_rematch = rematch_maker();
    options.history = config.history_per_match;
    options.history_bytes = config.history_bytes_per_viewer;
    options.abandon = abandon_time(config, settings);
    options.invite_sha256 = origin.value("invite_sha256", std::string());
    options.bots = bot_play();
    options.spectators_interval = config.spectators_interval;
    json stored = {{"lobby", protocol::lobby_settings_json(options.settings)},
                   {"challenger", options.challenger}};
    for (const auto& item : origin.items()) stored[item.key()] = item.value();
    // In a fleet the leader spreads new matches over the nodes; one placed elsewhere is made
    // here (its first state, its row) but published and run by its owner only.
    const std::string owner = fleet ? fleet->place_match() : std::string();
    const bool away = fleet && !owner.empty() && owner != fleet->me();
    auto created = Match::create(match_home(options.seats), options, store, metrics,
                                 away ? MatchPublisher([](const std::string&, const json&) {})
                                      : publisher(options));
    if (auto* e = std::get_if<std::string>(&created))
        return done(LobbyError{ErrorCode::InvalidField, *e});
    auto match = std::get<std::shared_ptr<Match>>(std::move(created));
    // The match and its seats must be stored before its first step (the steps' foreign keys):
    // the step store commits the creation in its ordered pipeline and answers on its own
    // thread, so the lobby strand carries on and nothing waits on the database.
    MatchCreation row;
    row.id = options.id;
    row.game = match->kind();
    row.settings_json = stored.dump();
    row.seed = options.seed;
    row.owner_node = owner;
    row.state_hash = match->state_hash_before_shared();
    row.created_at_ms = now_epoch_ms();
    // The power each seat starts with, where the game deals them ("" for none).
    const json powers = match->live_fields_before_shared().value("powers", json::array());
    for (std::size_t s = 0; s < options.seats.size(); ++s)
        row.seats.push_back(SeatCreation{
            static_cast<int>(s), options.seats[s].id,
            s < powers.size() && powers[s].is_string() ? powers[s].get<std::string>() : std::string(),
            {}});
    // The creation is answered by the database deadline at the latest (a hung database must
    // not hold lobby.start); a creation stored after its deadline was told nobody, so it is
    // aborted at once rather than left live.
    std::function<void(std::optional<bool>)> finish = [this, match, owner, away,
                                                       done = std::move(done)](
                                                          std::optional<bool> stored) {
        if (!stored) spdlog::warn("event=match_store_deadline match={}", match->id());
        const bool ok = stored.value_or(false);
        if (!ok) spdlog::warn("event=match_store_failed match={}", match->id());
        if (ok && away) {
            // The owner's lease starts now; the owner is told when the match is adopted.
            return boost::asio::post(*blocking, [this, match, owner, done] {
                auto assigned = fleet->assign(match->id(), owner);
                if (!assigned)
                    spdlog::warn("event=match_assign_failed match={} node={} error=\"{}\"",
                                 match->id(), owner, assigned.error().message);
                boost::asio::post(lobby_strand, [this, match, owner, done, ok = assigned.ok()] {
                    if (!ok) {
                        abandon(match);
                        return done(LobbyError{ErrorCode::Unavailable,
                                               "the match could not be stored; temporarily "
                                               "unavailable, try again"});
                    }
                    registry.place(match->id(), owner);
                    done(match);
                });
            });
        }
        boost::asio::post(lobby_strand, [this, match, done, ok] {
            if (ok) return done(match);
            discard(match);
            done(LobbyError{ErrorCode::Unavailable,
                            "the match could not be stored; temporarily unavailable, try again"});
        });
    };
    // Without a database the creation is answered at once, and no timer is left behind.
    if (!repo) return store.create(std::move(row), [finish](bool ok) { finish(ok); });
    auto answer = first_answer<bool>(io, config.database_deadline, std::move(finish));
    store.create(std::move(row), [this, match, answer = std::move(answer)](bool ok) {
        if (!answer(ok) && ok) {
            spdlog::warn("event=match_stored_late match={}", match->id());
            abort_late(match->id(), 10);
        }
    });
}

void Hub::Impl::abort_late(const std::string& id, int attempts) {
    // The store answers from its writer, which may still count the hang that delayed the
    // creation and refuse at once: try again a little later, a few times.
    store.abort(id,
                now_epoch_ms(),
                [this, id, attempts](bool aborted) {
                    if (aborted) return spdlog::info("event=match_aborted_late match={}", id);
                    if (attempts <= 1 || life.stopping)
                        return spdlog::warn("event=match_abort_failed match={}", id);
                    auto timer = std::make_shared<boost::asio::steady_timer>(
                        io, std::chrono::milliseconds(500));
                    timer->async_wait([this, timer, id, attempts](boost::system::error_code ec) {
                        if (!ec) abort_late(id, attempts - 1);
                    });
                });
}

boost::asio::io_context& Hub::Impl::match_home(const std::vector<Member>& seats) {
    if (match_contexts.size() > 1)
        for (const Member& m : seats) {
            if (m.bot_level > 0) continue;
            for (const ParticipantPtr& p : connections_of(m.id))
                if (auto* home = p->io_home();
                    home && std::find(match_contexts.begin(), match_contexts.end(), home) != match_contexts.end())
                    return *home;
        }
    return next_match_home();
}

boost::asio::io_context& Hub::Impl::next_match_home() {
    const std::size_t i = next_match_context.fetch_add(1, std::memory_order_relaxed);
    return *match_contexts[i % match_contexts.size()];
}

void Hub::Impl::adopt(const std::shared_ptr<Match>& match, const std::vector<Member>& seats) {
    std::vector<std::string> players;
    for (const Member& m : seats) players.push_back(m.id);
    // A match placed on another node: its players count as playing here (the leader's queue
    // check) until its owner says it is over (a null live entry).
    const std::string owner = registry.take_placed(match->id(), players);
    if (!owner.empty()) {
        match->shutdown();
        fleet->hand_over(match->id(), owner);
        return;
    }
    registry.hold(match, players);  // recovery may have counted its seats already
    match->wake_bots();  // held here now: its computer seats may play
}

void Hub::Impl::abandon(const std::shared_ptr<Match>& match) {
    discard(match);
    // Through the step store's pipeline, after the creation it follows; nobody waits for it.
    store.abort(match->id(),
                now_epoch_ms(),
                [id = match->id()](bool ok) {
                    if (!ok) spdlog::warn("event=match_abort_failed match={}", id);
                });
}

void Hub::Impl::rating(const std::string& player, const std::string& pool,
                       std::function<void(std::optional<std::pair<double, double>>)> done) {
    const rating::Rating initial = rating::initial_rating();
    if (!repo) return done(std::pair{initial.rating, initial.deviation});
    // A blocking read: on the pool, never on the strand, and nullopt (unavailable) at the
    // database deadline.
    using Found = std::optional<std::pair<double, double>>;
    auto work = [this, player, pool, initial] {
        Found found;
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
                        now_epoch_ms());
                    found = std::pair{now.rating, now.deviation};
                }
        }
        return found;
    };
    call_with_deadline<Found>(*blocking, io, config.database_deadline, std::move(work),
                              [this, done = std::move(done)](std::optional<Found> found) {
                                  boost::asio::post(lobby_strand, [done, found] {
                                      done(found ? *found : std::nullopt);
                                  });
                              });
}

// ---- ratings in the lists (docs/protocol.md, "Ratings in the lists") ----

void Hub::Impl::want_rating(const std::string& player, const std::string& pool) {
    // Without a database nothing is rated: the lists show no ratings.
    if (!repo) return;
    // A rating only decorates a list: while the health checks find the database away, none is
    // read (each would take a thread of the pool that guests and sign-ins wait on, and a
    // connection, for nothing); a later publication asks again.
    if (life.database_reachable && !life.database_reachable()) return;
    if (!list_ratings.wanted(player, pool, std::chrono::steady_clock::now())) return;
    rating(player, pool, [this, player, pool](std::optional<std::pair<double, double>> found) {
        const auto now = std::chrono::steady_clock::now();
        if (!found) return list_ratings.put(player, pool, std::nullopt, now);
        const rating::Parameters params;
        list_ratings.put(player, pool,
                         ListRatings::Shown{static_cast<int>(std::lround(found->first)),
                                            found->second > params.provisional_deviation},
                         now);
        // The lists that show the player, again: the lobbies (here, on the lobby strand), and
        // each live match made here that seats them.
        publish_lobbies();
        std::vector<std::pair<std::string, std::shared_ptr<RatedSeats>>> seating;
        rated_seats.with([&](auto& all) {
            for (const auto& [id, seats] : all)
                if (std::find(seats->players.begin(), seats->players.end(), player) !=
                    seats->players.end())
                    seating.emplace_back(id, seats);
        });
        for (const auto& [id, seats] : seating)
            seats->entry.with([&](json& entry) {
                if (!entry.is_null()) publish_rated(id, seats, entry);
            });
    });
}

json Hub::Impl::rated_lobbies() {
    json list = hall.get().lobbies.public_json();
    for (json& entry : list) {
        const Lobby* lobby = hall.get().lobbies.find(entry.value("id", std::string()));
        if (!lobby) continue;
        const std::string pool = rating_pool(lobby->settings);
        for (json& seat : entry["seats"]) {
            if (!seat.is_object() || seat["player"].contains("bot")) continue;
            const std::string player = seat["player"].value("id", std::string());
            want_rating(player, pool);
            json shown = list_ratings.shown(player, pool);
            if (!shown.is_null()) seat["player"]["rating"] = std::move(shown);
        }
    }
    return list;
}

MatchPublisher Hub::Impl::publisher(const MatchOptions& options) {
    auto seats = std::make_shared<RatedSeats>();
    seats->pool = rating_pool(options.settings);
    for (const Member& m : options.seats)
        seats->players.push_back(bot_level_of(m.id) ? std::string() : m.id);
    return [this, seats](const std::string& id, const json& entry) {
        seats->entry.with([&](json& last) {
            last = entry;
            publish_rated(id, seats, last);
        });
    };
}

void Hub::Impl::publish_rated(const std::string& id, const std::shared_ptr<RatedSeats>& seats,
                              const json& entry) {
    if (entry.is_null()) {
        rated_seats.with([&](auto& all) { all.erase(id); });
        // A rated match changes its players' ratings: read again when next shown.
        for (const std::string& player : seats->players)
            if (!player.empty()) list_ratings.forget(player, seats->pool);
        return on_published(id, entry);
    }
    // Without a database nothing is rated: the entry goes as the match made it.
    if (!repo) return on_published(id, entry);
    rated_seats.with([&](auto& all) { all.emplace(id, seats); });
    for (const std::string& player : seats->players)
        if (!player.empty()) want_rating(player, seats->pool);
    on_published(id, with_ratings(entry, seats->pool, seats->players, list_ratings));
}

}  // namespace server
