// The hub's small parts: replies, the lobby strand's helpers (who is connected, lobby events,
// the lobby list), the queues' host, the hub's timers, and what matches call back.
#include "server/app/hub_impl.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::Ref;

// ---- replies and lookups ----

void Hub::Impl::send(const ParticipantPtr& to, std::shared_ptr<const std::string> message) {
    // A fleet's leader tells nobody of a change to its rooms before the change is saved
    // (server/fleet/leader_rooms.hpp): what the lobby strand says waits for that save.
    if (fleet && hall.strand().running_in_this_thread() && fleet->rooms().holding())
        return fleet->rooms().hold(to, std::move(message));
    to->deliver(std::move(message));
}

void Hub::Impl::error(const ParticipantPtr& to, ErrorCode code, std::string_view message,
                      const Ref& ref) {
    metrics.rejected(code);
    send(to, shared(protocol::error_message(code, message, ref)));
}

void Hub::Impl::ack(const ParticipantPtr& to, const Ref& ref) {
    if (ref) send(to, shared(protocol::ack_message(ref)));
}

Member Hub::Impl::member(const std::string& player_id) const { return identity.member(player_id); }

std::shared_ptr<Match> Hub::Impl::find_match(const std::string& id) const {
    return registry.find(id);
}

bool Hub::Impl::leads() const { return !fleet || fleet->leads(); }

BotPlay Hub::Impl::bot_play() const {
    return BotPlay{bot_pool.get(), config.bot_time_limit, config.bot_delay};
}

// ---- lobby strand ----

std::vector<ParticipantPtr> Hub::Impl::connections_of(const std::string& player_id) {
    std::vector<ParticipantPtr> out;
    if (auto it = hall.get().connections.find(player_id); it != hall.get().connections.end())
        for (const auto& [id, p] : it->second) out.push_back(p);
    return out;
}

void Hub::Impl::tell_player(const std::string& player_id,
                            const std::shared_ptr<const std::string>& message) {
    for (const auto& p : connections_of(player_id)) send(p, message);
}

void Hub::Impl::tell_members(const Lobby& lobby) {
    auto message = shared(protocol::event_message("lobby", {{"lobby", lobby.to_json(true)}}));
    for (const Member& m : lobby.seats) tell_player(m.id, message);
}

void Hub::Impl::tell_chat(const std::string& lobby_id, const LobbyChatLine& line) {
    // Members only, like the invite code: the seats as they are now (a kicked or departed
    // player is not among them any more).
    const Lobby* lobby = hall.get().lobbies.find(lobby_id);
    if (!lobby) return;
    auto message = shared(
        protocol::event_message("lobby.chat", {{"lobby", lobby_id}, {"line", line.to_json()}}));
    for (const Member& m : lobby->seats) tell_player(m.id, message);
}

std::shared_ptr<const std::string> Hub::Impl::closed_message(const std::string& lobby,
                                                             std::string_view reason,
                                                             const std::string& match) {
    json fields = {{"lobby", lobby}, {"reason", reason}};
    if (!match.empty()) fields["match"] = match;
    return shared(protocol::event_message("lobby.closed", fields));
}

void Hub::Impl::publish_lobbies() {
    if (!leads()) return;  // the list comes from the leader
    if (fleet) fleet->rooms().changed();  // saved, for the next leader
    json list = rated_lobbies();
    metrics.open_lobbies = static_cast<std::int64_t>(hall.get().lobbies.size());
    if (!lists.set_lobbies(list)) return;
    if (fleet) fleet->publish_lobbies(list);
    lists.schedule();
}

void Hub::Impl::announce_departure(const Departure& d, const std::string& who,
                                   std::string_view reason) {
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

void Hub::Impl::release_seat_later(const std::string& player) {
    after(config.lobby_seat_grace, [this, player] {
        if (!connections_of(player).empty()) return;
        const Lobby* lobby = hall.get().lobbies.lobby_of(player);
        if (!lobby) return;
        const std::string lobby_id = lobby->id;
        auto result = hall.get().lobbies.leave(lobby_id, player);
        if (auto* d = std::get_if<Departure>(&result)) {
            spdlog::info("event=lobby_seat_released lobby={} player={}", lobby_id, player);
            announce_departure(*d, player, "disconnected");
        }
    });
}

std::optional<Member> Hub::Impl::over_match_cap(const std::vector<Member>& seats) {
    if (config.max_live_matches_per_player == 0) return std::nullopt;
    for (const Member& m : seats)
        if (hall.get().connections.count(m.id) &&
            registry.count_of(m.id) >= config.max_live_matches_per_player)
            return m;
    return std::nullopt;
}

void Hub::Impl::after(std::chrono::milliseconds delay, std::function<void()> action) {
    auto timer = std::make_shared<boost::asio::steady_timer>(lobby_strand);
    hall.get().timers.insert(timer);
    timer->expires_after(delay);
    timer->async_wait(
        [this, timer, action = std::move(action)](const boost::system::error_code& ec) {
            hall.get().timers.erase(timer);
            if (!ec && !life.stopping) action();
        });
}

void Hub::Impl::retire(const std::string& id) {
    // Destroyed here, outside the registry's lock.
    auto gone = registry.retire(id, repo ? 0 : config.finished_matches_in_memory);
}

// ---- QueueHost (lobby strand) ----

void Hub::Impl::tell(const std::string& player,
                     const std::shared_ptr<const std::string>& message) {
    tell_player(player, message);
}

void Hub::Impl::queue_changed() {
    if (fleet) fleet->rooms().changed();
}

bool Hub::Impl::online(const std::string& player) { return !connections_of(player).empty(); }

std::optional<QueueError> Hub::Impl::engaged(const std::string& player) {
    if (!life.seats_known)
        return QueueError{ErrorCode::Unavailable,
                          "the server is counting who plays in live matches (after a restart "
                          "or a change of leader); retry shortly"};
    if (hall.get().lobbies.lobby_of(player))
        return QueueError{ErrorCode::AlreadyInGame,
                          "you are waiting in a lobby; leave it before joining a queue"};
    if (auto ids = registry.matches_of(player); !ids.empty())
        return QueueError{ErrorCode::AlreadyInGame, "you are playing match " + ids.front() +
                                                        "; finish it before joining a queue"};
    return std::nullopt;
}

void Hub::Impl::start_match(std::vector<std::string> players, protocol::LobbySettings settings,
                            json origin,
                            std::function<void(std::variant<std::string, QueueError>)> done) {
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

// ---- matches ----

void Hub::Impl::discard(const std::shared_ptr<Match>& match) {
    match->shutdown();
    rated_seats.with([&](auto& all) { all.erase(match->id()); });
    lists.set_live_entry(match->id(), nullptr);
}

void Hub::Impl::on_published(const std::string& id, const json& entry) {
    if (entry.is_null()) registry.free_seats(id);  // over: its players may queue again
    lists.set_live_entry(id, entry);
    if (fleet) fleet->publish_live(id, entry);
    if (entry.is_null())
        // A short while for the requests already in flight and the players' last patches, then
        // the match leaves the registry (and memory, once nothing else holds it).
        boost::asio::post(lobby_strand, [this, id] {
            after(config.finished_match_keep, [this, id] { retire(id); });
        });
}

}  // namespace server
