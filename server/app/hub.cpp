#include "server/app/hub.hpp"
#include "server/time/epoch_ms.hpp"

#include <type_traits>

#include "protocol/games.hpp"

#include "server/limits/deadline.hpp"
#include "server/net/client_address.hpp"
#include "server/app/hub_impl.hpp"
#include "server/app/overloaded.hpp"
#include "server/accounts/player_name.hpp"
#include "server/store/token_hash.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::Ref;

void Hub::Impl::on_lobby_message(const ParticipantPtr& from, const protocol::ClientBody& body,
                                 const Ref& ref) {
    const std::string& me = from->player_id();
    if (fleet && fleet->rooms().loading())
        return error(from, ErrorCode::Unavailable,
                     "the lobbies are being restored after a change of leader; retry shortly",
                     ref);
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
                       // The parser validated the settings; the game itself has the last word
                       // (Santorini's pools), whatever the kind of game.
                       auto trial = protocol::start_game(m.settings, 0, 0);
                       if (auto* e = std::get_if<std::string>(&trial))
                           return error(from, ErrorCode::InvalidField, *e, ref);
                       joined(hall.get().lobbies.create(member(me), m.settings));
                   },
                   [&](const protocol::LobbyJoin& m) {
                       if (queues.engaged(me)) return queued_error();
                       joined(m.lobby.empty() ? hall.get().lobbies.join_by_code(m.code, member(me))
                                              : hall.get().lobbies.join(m.lobby, member(me)));
                   },
                   [&](const protocol::LobbyLeave& m) {
                       departed(hall.get().lobbies.leave(m.lobby, me), me, "left");
                   },
                   [&](const protocol::LobbyKick& m) {
                       departed(hall.get().lobbies.kick(m.lobby, me, m.player), m.player, "kicked");
                   },
                   [&](const protocol::LobbyStart& m) { start_lobby(from, m.lobby, ref); },
                   [&](const protocol::LobbyChat& m) {
                       auto said = hall.get().lobbies.chat(m.lobby, me, m.text, now_epoch_ms());
                       if (auto* e = std::get_if<LobbyError>(&said))
                           return error(from, e->code, e->message, ref);
                       tell_chat(m.lobby, std::get<LobbyChatLine>(said));
                       if (fleet) fleet->rooms().changed();  // saved, for the next leader
                       ack(from, ref);
                   },
                   [&](const protocol::QueueJoin& m) { queues.join(from, m, ref); },
                   [&](const protocol::QueueLeave&) { queues.leave(from, ref); },
                   [&](const protocol::LobbiesSubscribe& m) {
                       lists.watch_lobbies(from, m.on);
                       ack(from, ref);
                   },
                   [&](const protocol::MatchesSubscribe& m) {
                       lists.watch_matches(from, m.on);
                       ack(from, ref);
                   },
                   [&](const auto&) {},
               },
               body);
}

// ---- Hub ----

Hub::Hub(boost::asio::io_context& io, const Config& config, Metrics& metrics, StepStore& store,
         store::Repository* repository, store::FleetStore* fleet, Broker* broker)
    : impl_(std::make_unique<Impl>(io, config, metrics, store, repository,
                                   repository ? fleet : nullptr, broker)) {
    if (repository && !config.database_url.empty())
        impl_->accounts = std::make_unique<Accounts>(
            config.database_url, *this,
            Accounts::Limits{.per_username_per_minute = config.sign_ins_per_username_per_minute,
                             .per_username_burst = config.sign_in_burst_per_username,
                             .per_address_per_minute = config.sign_ins_per_address_per_minute,
                             .per_address_burst = config.sign_in_burst_per_address,
                             .max_pending = config.max_pending_account_requests,
                             .max_sessions = config.max_sessions_per_account});
    // Stored where the guests are: in the database when there is one, else in memory.
    impl_->preferences = std::make_unique<PreferenceBook>(
        repository ? config.database_url : std::string(), *this, PreferenceBook::Limits{});
}

Hub::~Hub() {
    // Account requests still running use the hub: they finish first.
    impl_->accounts.reset();
    impl_->preferences.reset();
}

Accounts* Hub::accounts() {
    return impl_->accounts.get();
}

PreferenceBook& Hub::preferences() {
    return *impl_->preferences;
}

void Hub::forget_token(std::string_view player_id, std::string_view token) {
    impl_->identity.forget_token(token);
    // The revoked session's open sockets go too, on every node: signing out really signs out.
    impl_->close_sessions(std::string(player_id), [token = std::string(token)](const Participant& p) {
        return p.signed_in_with(token);
    });
    if (impl_->fleet)
        impl_->fleet->publish_revoked({std::string(player_id), store::token_sha256(token), ""});
}

void Hub::forget_tokens_of(std::string_view player_id, std::string_view keep) {
    impl_->identity.forget_tokens_of(player_id, keep);
    impl_->close_sessions(std::string(player_id), [keep = std::string(keep)](const Participant& p) {
        return !p.signed_in_with(keep);
    });
    if (impl_->fleet)
        impl_->fleet->publish_revoked({std::string(player_id), "", store::token_sha256(keep)});
}

void Hub::forget_session(std::string_view player_id, std::string_view token_sha256) {
    impl_->revoke_sessions(std::string(player_id), std::string(token_sha256), "");
    if (impl_->fleet)
        impl_->fleet->publish_revoked({std::string(player_id), std::string(token_sha256), ""});
}

void Hub::Impl::revoke_sessions(const std::string& player, const std::string& token_sha256,
                                const std::string& keep_sha256) {
    // Tokens arrive as their hashes, so each known token of the player is hashed to compare (a
    // player has a few).
    auto revoked = [token_sha256, keep_sha256](std::string_view token_hash) {
        return !token_sha256.empty() ? token_hash == token_sha256 : token_hash != keep_sha256;
    };
    identity.forget_tokens_where(player, [&](std::string_view token) {
        return revoked(store::token_sha256(token));
    });
    close_sessions(player, [revoked](const Participant& p) {
        const std::string hash = p.session_sha256();
        return !hash.empty() && revoked(hash);
    });
}

void Hub::Impl::close_sessions(std::string player,
                               std::function<bool(const Participant&)> revoked) {
    boost::asio::post(lobby_strand, [this, player = std::move(player),
                                     revoked = std::move(revoked)] {
        auto it = hall.get().connections.find(player);
        if (it == hall.get().connections.end()) return;
        for (const auto& [id, who] : it->second)
            if (revoked(*who)) who->signed_out();
    });
}

std::optional<Guest> Hub::create_guest(std::string_view name) {
    auto made = new_guest(name);
    if (auto* guest = std::get_if<Guest>(&made)) return std::move(*guest);
    return std::nullopt;
}


std::optional<Guest> Hub::Impl::fresh_guest(std::string_view name) const {
    if (name_problem(name)) return std::nullopt;
    return identity.fresh(name);
}

std::variant<Guest, IdentityError> Hub::Impl::store_guest(Guest guest) {
    if (repo) {
        auto stored =
            repo->create_guest(store::NewPlayer{guest.id, guest.name, guest.token, now_epoch_ms()});
        if (!stored) {
            spdlog::warn("event=guest_store_failed error=\"{}\"", stored.error().message);
            return IdentityError::Unavailable;
        }
    }
    identity.add(guest, /*rename=*/false);
    return guest;
}

std::optional<Guest> Hub::Impl::known_token(const std::string& token) const {
    return identity.find(token);
}

std::variant<Guest, IdentityError> Hub::Impl::lookup_token(const std::string& token) {
    auto player = repo->player_by_token(token);
    if (!player) {
        if (player.error().kind == store::StoreError::Kind::NotFound)
            return IdentityError::UnknownToken;
        spdlog::warn("event=identify_failed error=\"{}\"", player.error().message);
        return IdentityError::Unavailable;
    }
    Guest guest{player->id, player->display_name, token};
    identity.add(guest, /*rename=*/true);
    return guest;
}

std::variant<Guest, IdentityError> Hub::new_guest(std::string_view name) {
    auto guest = impl_->fresh_guest(name);
    if (!guest) return IdentityError::InvalidName;
    return impl_->store_guest(std::move(*guest));
}

void Hub::new_guest(std::string name, IdentityReply done) {
    auto guest = impl_->fresh_guest(name);
    if (!guest) return done(IdentityError::InvalidName);
    if (!impl_->repo) return done(impl_->store_guest(std::move(*guest)));
    // The insert blocks for a round trip: on the hub's pool, never on a network thread, and
    // answered Unavailable at the deadline whatever the database does.
    using Made = std::variant<Guest, IdentityError>;
    call_with_deadline<Made>(
        *impl_->blocking, impl_->io, impl_->config.database_deadline,
        [&hub = *impl_, guest = std::move(*guest)]() mutable {
            return hub.store_guest(std::move(guest));
        },
        [done = std::move(done)](std::optional<Made> made) {
            done(made ? std::move(*made) : Made(IdentityError::Unavailable));
        });
}

bool Hub::allow_guest_from(std::string_view client) {
    // By network (/24, /64): one person easily holds many addresses of one.
    return impl_->identity.allow_new_guest(network_key(client));
}

std::optional<Guest> Hub::authenticate(std::string_view token) const {
    auto found = identify(token);
    if (auto* guest = std::get_if<Guest>(&found)) return std::move(*guest);
    return std::nullopt;
}

std::variant<Guest, IdentityError> Hub::identify(std::string_view token) const {
    if (auto guest = impl_->known_token(std::string(token))) return std::move(*guest);
    if (!impl_->repo || token.empty()) return IdentityError::UnknownToken;
    return impl_->lookup_token(std::string(token));
}

void Hub::identify(std::string token, IdentityReply done) const {
    if (auto guest = impl_->known_token(token)) return done(std::move(*guest));
    if (!impl_->repo || token.empty()) return done(IdentityError::UnknownToken);
    // A guest made before a restart is found by its hash: a round trip, on the hub's pool.
    using Found = std::variant<Guest, IdentityError>;
    call_with_deadline<Found>(
        *impl_->blocking, impl_->io, impl_->config.database_deadline,
        [&hub = *impl_, token = std::move(token)] { return hub.lookup_token(token); },
        [done = std::move(done)](std::optional<Found> found) {
            done(found ? std::move(*found) : Found(IdentityError::Unavailable));
        });
}

void Hub::connected(const ParticipantPtr& who) {
    impl_->register_connection(who);
    if (impl_->fleet) impl_->fleet->connected(who);
}

void Hub::Impl::register_connection(const ParticipantPtr& who) {
    // Registered once, on the lobby strand, which alone reads who is connected. A new tab (or a
    // reload, or another device) learns at once which lobby its player sits in, with the invite
    // code: it could not have seen the events that came before it. Likewise for a queue.
    boost::asio::post(lobby_strand, [this, who] {
        hall.get().connections[who->player_id()][who->connection_id()] = who;
        if (const Lobby* lobby = hall.get().lobbies.lobby_of(who->player_id()))
            send(who, shared(protocol::event_message("lobby", {{"lobby", lobby->to_json(true)}})));
        queues.connected(who);
        // Likewise the matches it sits in (a restart, a start it was not told of); while
        // recovery runs, the end of recovery tells it.
        if (!life.recovering) tell_playing(who);
    });
}

void Hub::handle(const ParticipantPtr& from, protocol::ClientMessage message,
                 std::string_view text) {
    impl_->handle_request(from, std::move(message), text);
}

void Hub::Impl::handle_request(const ParticipantPtr& from, protocol::ClientMessage message,
                               std::string_view text) {
    if (fleet && fleet->hold(from, message, text)) return;
    dispatch(from, std::move(message), text);
}

void Hub::Impl::dispatch(const ParticipantPtr& from, protocol::ClientMessage message,
                         std::string_view text) {
    if (fleet && fleet->route(from, message, text)) return;
    dispatch_here(from, std::move(message));
}

std::shared_ptr<Match> Hub::Impl::handle_of(const ParticipantPtr& from, const std::string& id) {
    // The connection's own handles first (no lock: this runs on the connection's strand); a
    // match it has not opened is looked up in the registry.
    auto& opened = from->hub_state().opened;
    if (auto it = opened.find(id); it != opened.end()) {
        if (auto match = it->second.lock()) return match;
        opened.erase(it);  // let go by the hub: finished and gone
    }
    return find_match(id);
}

void Hub::Impl::dispatch_here(const ParticipantPtr& from, protocol::ClientMessage message) {
    Impl& hub = *this;
    const Ref& ref = message.ref;
    if (hub.life.stopping)
        return hub.error(from, ErrorCode::Unavailable, "the server is shutting down", ref);
    auto& opened = from->hub_state().opened;
    auto with_match = [&](const std::string& id, auto&& act) {
        if (auto match = handle_of(from, id)) return act(match);
        if (hub.life.recovering)
            return hub.error(from, ErrorCode::Unavailable,
                             "the server is restoring its matches after a restart; retry shortly",
                             ref);
        hub.error(from, ErrorCode::UnknownMatch, "no such match", ref);
    };
    std::visit(
        Overloaded{
            [&](const protocol::Hello&) {
                hub.error(from, ErrorCode::WrongPhase, "already authenticated", ref);
            },
            [&](const protocol::Ping&) { from->deliver(shared(protocol::pong_message(ref))); },
            [&](const protocol::MatchOpen& m) {
                // Not in memory: a finished match (or one that ended while the server was
                // down) still opens, from the store.
                if (hub.life.open_stored_matches && !hub.life.recovering &&
                    !handle_of(from, m.match))
                    return hub.open_stored(from, m, ref);
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    // Handles of matches the hub let go are dropped here, so the map stays
                    // as small as the matches the connection really has open.
                    std::erase_if(opened, [](const auto& item) { return item.second.expired(); });
                    opened[m.match] = match;
                    match->open(from, m.since, ref, m.code);
                });
            },
            [&](const protocol::MatchClose& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    opened.erase(m.match);
                    match->close(from, ref);
                });
            },
            [&](protocol::MatchStep& m) {
                // The message is ours: its step moves on to the match rather than being copied.
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    match->step(from, std::move(m.step), ref);
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
            [&](const protocol::MatchClaim& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    match->claim(from, m.seat, m.what == protocol::MatchClaim::What::Abort, ref);
                });
            },
            [&](const protocol::MatchRematch& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    match->rematch(from, m.accept, ref);
                });
            },
            [&](protocol::MatchChat& m) {
                with_match(m.match, [&](const std::shared_ptr<Match>& match) {
                    match->chat(from, hub.identity.member(from->player_id()).name,
                                std::move(m.text), ref);
                });
            },
            [&](const auto& request) {
                // Lobbies, queues and subscriptions live on the lobby strand.
                boost::asio::post(hub.lobby_strand,
                                  [&hub, from, body = protocol::ClientBody{request}, ref] {
                                      hub.on_lobby_message(from, body, ref);
                                  });
            },
        },
        message.body);
}

void Hub::disconnected(const ParticipantPtr& who) {
    if (impl_->fleet) impl_->fleet->disconnected(who);
    impl_->disconnect_participant(who);
}

void Hub::Impl::disconnect_participant(const ParticipantPtr& who) {
    Impl& hub = *this;
    const auto id = who->connection_id();
    auto& opened = who->hub_state().opened;
    for (const auto& [match_id, handle] : opened)
        if (auto match = handle.lock()) match->remove(id);
    opened.clear();
    boost::asio::post(hub.lobby_strand, [&hub, id, player = who->player_id()] {
        hub.lists.forget(id);
        auto it = hub.hall.get().connections.find(player);
        if (it == hub.hall.get().connections.end() || it->second.erase(id) == 0) return;
        if (!it->second.empty()) return;
        hub.hall.get().connections.erase(it);
        hub.release_seat_later(player);
        hub.queues.offline(player);  // at once: nobody is paired with an absent player
    });
}

json Hub::public_lobbies() const {
    return impl_->lists.lobbies();
}

json Hub::live_matches() const {
    return json::parse(live_matches_text());
}

std::string Hub::live_matches_text() const {
    return list_text(*impl_->lists.live());
}

json Hub::queues() const {
    if (!impl_->leads()) return impl_->fleet->queue_list();
    return impl_->queues.list();
}

void Hub::match_summary(std::string match_id, std::string_view code,
                        std::function<void(std::optional<json>)> done) const {
    auto match = impl_->find_match(match_id);
    // A private match is as unknown to whoever lacks its code (no seated player is known here).
    if (!match || !match->may_watch({}, code)) return done(std::nullopt);
    match->spectator_view(
        [done = std::move(done)](json view, std::uint64_t) { done(std::move(view)); });
}

bool Hub::stopping() const { return impl_->life.stopping; }

json Hub::fleet_status() const {
    return impl_->fleet ? impl_->fleet->status() : json(nullptr);
}

void Hub::shutdown() {
    if (impl_->life.stopping.exchange(true)) return;
    boost::asio::post(impl_->lobby_strand, [&hub = *impl_] {
        for (const auto& timer : hub.hall.get().timers) timer->cancel();
        hub.queues.shutdown();
    });
    impl_->registry.for_each([](const std::shared_ptr<Match>& match) { match->shutdown(); });
    // In a fleet the matches go to other nodes now rather than when their leases run out.
    if (impl_->fleet) boost::asio::post(*impl_->blocking, [&hub = *impl_] { hub.fleet->leave(); });
}

}  // namespace server
