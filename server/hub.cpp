#include "server/hub.hpp"

#include <future>

#include "server/hub_impl.hpp"

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
    // TEMPORARY: waits for the match's strand (the asynchronous summary replaces this).
    auto match = impl_->find_match(std::string(match_id));
    if (!match) return std::nullopt;
    auto promise = std::make_shared<std::promise<json>>();
    auto answer = promise->get_future();
    match->spectator_view([promise](json view, std::uint64_t) { promise->set_value(std::move(view)); });
    return answer.get();
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
