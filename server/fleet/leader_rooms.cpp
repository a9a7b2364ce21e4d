#include "server/fleet/leader_rooms.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>
#include <utility>

#include "server/app/hub_impl.hpp"
#include "server/rooms/room_snapshot.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {

LeaderRooms::LeaderRooms(Hub::Impl& hub, store::FleetStore& store)
    : hub_(hub), store_(store), saves_(hub.lobby_strand) {}

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
    // its seats) before there was anything to free; and seats counted here from an earlier
    // time (a match this node lost to a takeover, one it placed when it led before) outlive
    // their match if its owner's word that it was over never came. Read again, and free every
    // match run elsewhere that is not live. (Taken before the read: a match made after it is
    // not judged by it.)
    const std::vector<std::string> elsewhere = hub_.registry.seated_elsewhere();
    if (auto again = hub_.repo->live_seats()) {
        std::set<std::string> still;
        for (const auto& [match, player] : *again) still.insert(match);
        for (const auto& match : elsewhere)
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
            saves_.get().last.clear();
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
    Saves& saves = saves_.get();
    if (document == saves.last) return;  // a wave that paired nobody, a list republished
    saves.last = document;
    const std::uint64_t generation = ++saves.generation;
    const bool start = writes_.with([&](Writes& w) {
        w.waiting = std::move(document);
        w.generation = generation;
        return !std::exchange(w.writing, true);
    });
    if (start) boost::asio::post(*hub_.blocking, [this] { write_pending(); });
}

bool LeaderRooms::holding() const {
    return !loading_ && !hub_.life.stopping && hub_.leads();
}

void LeaderRooms::hold(ParticipantPtr to, std::shared_ptr<const std::string> message) {
    Saves& saves = saves_.get();
    saves.held.push_back(Held{std::move(to), std::move(message), 0});
    if (saves.held.size() > max_held) {
        spdlog::warn("event=fleet_rooms_held_overflow held={}", saves.held.size());
        saves.held.front().to->deliver(std::move(saves.held.front().message));
        saves.held.erase(saves.held.begin());
    }
    // After the handler that holds it: by then the handler's changes have their generation.
    if (!std::exchange(saves.release_posted, true))
        boost::asio::post(hub_.lobby_strand, [this] { release(); });
}

void LeaderRooms::release() {
    Saves& saves = saves_.get();
    saves.release_posted = false;
    // No longer leading (or stopping): nothing more will be saved here; what was held goes.
    const bool all = !holding();
    std::size_t sent = 0;
    for (Held& h : saves.held) {
        if (h.generation == 0) h.generation = saves.generation;
        if (!all && h.generation > saves.saved) break;  // in order: the rest waits too
        h.to->deliver(std::move(h.message));
        ++sent;
    }
    saves.held.erase(saves.held.begin(), saves.held.begin() + static_cast<std::ptrdiff_t>(sent));
}

void LeaderRooms::write_pending() {
    for (;;) {
        std::optional<std::pair<std::string, std::uint64_t>> next = writes_.with([](Writes& w) {
            std::optional<std::pair<std::string, std::uint64_t>> out;
            if (w.waiting) out.emplace(std::move(*w.waiting), w.generation);
            w.waiting.reset();
            if (!out) w.writing = false;
            return out;
        });
        if (!next) return;
        auto saved = store_.save_rooms(next->first);
        if (saved) {
            boost::asio::post(hub_.lobby_strand, [this, generation = next->second] {
                Saves& saves = saves_.get();
                saves.saved = std::max(saves.saved, generation);
                release();
            });
            continue;
        }
        spdlog::warn("event=fleet_rooms_save_failed error=\"{}\"", saved.error().message);
        // The whole document again, a second later (or at the next change, if sooner): the
        // messages held for it wait until it is stored.
        boost::asio::post(hub_.lobby_strand, [this] {
            Saves& saves = saves_.get();
            saves.last.clear();
            if (std::exchange(saves.retry_armed, true)) return;
            hub_.after(std::chrono::seconds(1), [this] {
                saves_.get().retry_armed = false;
                changed();
                release();
            });
        });
    }
}

}  // namespace server
