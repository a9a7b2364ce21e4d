#include "server/fleet/leader_rooms.hpp"

#include <map>
#include <set>
#include <utility>

#include "server/app/hub_impl.hpp"
#include "server/rooms/room_snapshot.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {

LeaderRooms::LeaderRooms(Hub::Impl& hub, store::FleetStore& store)
    : hub_(hub), store_(store), last_(hub.lobby_strand) {}

void LeaderRooms::take_over() {
    loading_ = true;
    // Until every live match's seats are counted, a queue join is answered `unavailable`
    // (Hub::Impl::engaged): this node may not know who plays in the matches the old leader
    // made.
    hub_.life.seats_known = false;
    pending_load_ = true;
    if (load()) pending_load_ = false;
}

void LeaderRooms::retry() {
    if (pending_load_ && load()) pending_load_ = false;
}

bool LeaderRooms::load() {
    auto seats = hub_.repo->live_seats();
    if (!seats) {
        spdlog::warn("event=fleet_rooms_load_failed what=seats error=\"{}\"",
                     seats.error().message);
        return false;
    }
    std::map<std::string, std::vector<std::string>> by_match;
    for (auto& [match, player] : *seats) by_match[match].push_back(std::move(player));
    for (const auto& [match, players] : by_match) hub_.registry.seat_once(match, players);
    // A match that ended between the read and the seating had its `live` null (which frees
    // its seats) before there was anything to free: read again, and free the ones gone.
    if (auto again = hub_.repo->live_seats()) {
        std::set<std::string> still;
        for (const auto& [match, player] : *again) still.insert(match);
        for (const auto& [match, players] : by_match)
            if (!still.count(match)) hub_.registry.free_seats(match, /*unless_held=*/true);
    }
    auto document = store_.load_rooms();
    if (!document) {
        spdlog::warn("event=fleet_rooms_load_failed what=rooms error=\"{}\"",
                     document.error().message);
        return false;
    }
    RoomSnapshot rooms;
    if (!document->empty()) {
        auto read = read_room_snapshot(nlohmann::json::parse(*document, nullptr, false),
                                       std::chrono::steady_clock::now(), now_epoch_ms());
        if (auto* problem = std::get_if<std::string>(&read))
            // Unreadable rooms are dropped (as every leader's were before they were saved);
            // the seats are known, so the fleet goes on.
            spdlog::error("event=fleet_rooms_unreadable error=\"{}\"", *problem);
        else
            rooms = std::get<RoomSnapshot>(std::move(read));
    }
    boost::asio::post(
        hub_.lobby_strand, [this, rooms = std::move(rooms), matches = by_match.size()]() mutable {
            // What this node may still hold from an earlier time as leader is stale: another
            // node led since, and saved the truth.
            // (A start still in flight then finds no lobby and abandons its match.)
            std::vector<std::string> stale;
            for (const Lobby* lobby : hub_.hall.get().lobbies.all()) stale.push_back(lobby->id);
            for (const auto& id : stale) (void)hub_.hall.get().lobbies.take(id);
            hub_.queues.forget_places();
            std::size_t lobbies = 0;
            for (Lobby& lobby : rooms.lobbies) {
                const std::string id = lobby.id;
                if (!hub_.hall.get().lobbies.restore(std::move(lobby))) {
                    spdlog::warn("event=fleet_lobby_restore_skipped lobby={}", id);
                    continue;
                }
                ++lobbies;
                const Lobby* back = hub_.hall.get().lobbies.find(id);
                // Members already registered here learn it now; the others at their `hello`. A
                // member who does not come back leaves after the seat grace, as after a
                // disconnection.
                hub_.tell_members(*back);
                for (const Member& m : back->seats)
                    if (hub_.connections_of(m.id).empty()) hub_.release_seat_later(m.id);
            }
            // Seats are counted (above, before this was posted): a queued player who now sits in
            // a live match is not put back.
            hub_.life.seats_known = true;
            // The players' connections are restarted when the old leader is counted dead (up to a
            // lease from now) and then reconnect: a place survives that for three leases.
            const std::size_t places =
                hub_.queues.restore(std::move(rooms.queue), 3 * hub_.config.lease);
            loading_ = false;
            spdlog::info("event=fleet_rooms_restored lobbies={} queue_places={} seated_matches={}",
                         lobbies, places, matches);
            last_.get().clear();
            changed();
            hub_.publish_lobbies();
        });
    return true;
}

void LeaderRooms::changed() {
    // A stopping leader's clients leave the queues as their connections close: what it saved
    // before is what the next leader must find.
    if (loading_ || hub_.life.stopping || !hub_.leads()) return;
    std::string document =
        room_snapshot_json(hub_.hall.get().lobbies, hub_.queues.matchmaker().entries()).dump();
    std::string& last = last_.get();
    if (document == last) return;  // a wave that paired nobody, a list republished
    last = document;
    const bool start = writes_.with([&](Writes& w) {
        w.waiting = std::move(document);
        return !std::exchange(w.writing, true);
    });
    if (start) boost::asio::post(*hub_.blocking, [this] { write_pending(); });
}

void LeaderRooms::write_pending() {
    for (;;) {
        std::optional<std::string> document = writes_.with([](Writes& w) {
            std::optional<std::string> next = std::exchange(w.waiting, std::nullopt);
            if (!next) w.writing = false;
            return next;
        });
        if (!document) return;
        auto saved = store_.save_rooms(*document);
        if (!saved) {
            spdlog::warn("event=fleet_rooms_save_failed error=\"{}\"", saved.error().message);
            // The next change writes the whole document again.
            boost::asio::post(hub_.lobby_strand, [this] { last_.get().clear(); });
        }
    }
}

}  // namespace server
