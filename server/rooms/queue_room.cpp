#include "server/rooms/queue_room.hpp"

#include <chrono>
#include <cmath>

#include "server/app/ids.hpp"
#include "server/log/log.hpp"
#include "server/match/match.hpp"
#include "server/rooms/queue_catalog.hpp"
#include "server/time/epoch_ms.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;

namespace {

std::shared_ptr<const std::string> shared(std::string text) {
    return std::make_shared<const std::string>(std::move(text));
}

ClockPreset preset_of(const QueueKey& key) {
    return ClockPreset{key.base_seconds, key.increment_seconds};
}

}  // namespace

QueueRoom::QueueRoom(Strand strand, QueueHost& host, Metrics& metrics,
                     MatchmakerParameters parameters)
    : strand_(std::move(strand)),
      host_(host),
      metrics_(metrics),
      matchmaker_(parameters),
      timer_(strand_),
      grace_timer_(strand_) {
    rebuild_list();  // not publish(): the host is not built yet
}

void QueueRoom::error(const ParticipantPtr& to, ErrorCode code, std::string_view message,
                      const protocol::Ref& ref) {
    metrics_.rejected(code);
    host_.send(to, shared(protocol::error_message(code, message, ref)));
}

void QueueRoom::ack(const ParticipantPtr& to, const protocol::Ref& ref) {
    if (ref) host_.send(to, shared(protocol::ack_message(ref)));
}

std::shared_ptr<const std::string> QueueRoom::waiting_event(const QueueEntry& entry) {
    return shared(protocol::event_message("queue", {{"state", "waiting"},
                                                    {"queue", entry.key.queue},
                                                    {"clock", clock_json(preset_of(entry.key))},
                                                    {"since", entry.since_ms}}));
}

std::shared_ptr<const std::string> QueueRoom::left_event(std::string_view reason) {
    return shared(protocol::event_message("queue", {{"state", "left"}, {"reason", reason}}));
}

void QueueRoom::join(const ParticipantPtr& from, const protocol::QueueJoin& request,
                     const protocol::Ref& ref) {
    const std::string& me = from->player_id();
    if (stopped_) return error(from, ErrorCode::Unavailable, "the server is shutting down", ref);
    if (engaged(me))
        return error(from, ErrorCode::AlreadyQueued,
                     "you are already in a queue (or being matched); leave it first", ref);
    const QueueKind* kind = find_queue(request.queue);
    if (!kind) {
        std::string names;
        for (const QueueKind& k : queue_kinds())
            names += (names.empty() ? "" : ", ") + std::string(k.name);
        return error(from, ErrorCode::UnknownQueue,
                     "no queue \"" + request.queue.substr(0, 64) + "\"; queues: " + names, ref);
    }
    const ClockPreset clock{request.base_seconds, request.increment_seconds};
    if (!offered(clock))
        return error(from, ErrorCode::InvalidField,
                     "invalid field 'clock': queues offer " + offered_text() +
                         " (minutes + seconds per move)",
                     ref);
    if (auto busy = host_.engaged(me)) return error(from, busy->code, busy->message, ref);

    const std::uint64_t attempt = ++next_attempt_;
    joining_[me] = Joining{attempt, from, ref};
    QueueKey key{std::string(kind->name), clock.base_seconds, clock.increment_seconds};
    const std::string pool = rating_pool(queue_settings(*kind, clock));
    host_.rating(me, pool, [this, me, attempt, key = std::move(key)](auto rating) mutable {
        entered(me, attempt, std::move(key), rating);
    });
}

void QueueRoom::entered(const std::string& player, std::uint64_t attempt, QueueKey key,
                        std::optional<std::pair<double, double>> rating) {
    auto it = joining_.find(player);
    if (it == joining_.end() || it->second.attempt != attempt) return;  // left meanwhile
    Joining joining = std::move(it->second);
    joining_.erase(it);
    if (stopped_)
        return error(joining.from, ErrorCode::Unavailable, "the server is shutting down",
                     joining.ref);
    if (!rating)
        return error(joining.from, ErrorCode::Unavailable,
                     "your rating cannot be read now; temporarily unavailable, try again",
                     joining.ref);
    QueueEntry entry;
    entry.player = player;
    entry.key = std::move(key);
    entry.rating = rating->first;
    entry.deviation = rating->second;
    entry.joined = std::chrono::steady_clock::now();
    entry.since_ms = now_epoch_ms();
    auto message = waiting_event(entry);
    spdlog::info("event=queue_join player={} queue={} clock={}+{} rating={:.0f} deviation={:.0f}",
                 player, entry.key.queue, entry.key.base_seconds, entry.key.increment_seconds,
                 entry.rating, entry.deviation);
    matchmaker_.join(std::move(entry));  // cannot fail: engaged() was checked at the request
    // The counts first: a client that has its ack must find itself in GET /api/queues.
    publish();
    host_.tell(player, message);
    ack(joining.from, joining.ref);
    // Someone suitable may be waiting already: no need to make them wait for the next wave.
    wave();
}

void QueueRoom::leave(const ParticipantPtr& from, const protocol::Ref& ref) {
    const std::string& me = from->player_id();
    if (matching_.count(me)) return ack(from, ref);  // too late: `matched` is on its way
    if (auto it = joining_.find(me); it != joining_.end()) {
        // The join is answered now (it took effect, then was undone); its rating is ignored.
        ack(it->second.from, it->second.ref);
        joining_.erase(it);
    }
    if (auto entry = matchmaker_.leave(me))
        spdlog::info("event=queue_leave player={} queue={}", me, entry->key.queue);
    publish();
    host_.tell(me, left_event("left"));
    ack(from, ref);
}

void QueueRoom::connected(const ParticipantPtr& who) {
    const QueueEntry* entry = matchmaker_.find(who->player_id());
    if (!entry) return;
    host_.send(who, waiting_event(*entry));
    // A restored place waits for its player before it is paired (wave): now it may be.
    if (restored_.count(who->player_id())) wave();
}

void QueueRoom::offline(const std::string& player) {
    if (host_.online(player)) return;  // another tab came back (or was never gone)
    if (restored_.count(player)) return;  // end_grace decides
    joining_.erase(player);
    if (auto entry = matchmaker_.leave(player)) {
        spdlog::info("event=queue_leave player={} queue={} reason=disconnected", player,
                     entry->key.queue);
        publish();
    }
}

bool QueueRoom::engaged(const std::string& player) const {
    return matchmaker_.find(player) || joining_.count(player) || matching_.count(player);
}

json QueueRoom::list() const {
    return list_.read([](const json& list) { return list; });
}

void QueueRoom::shutdown() {
    stopped_ = true;
    timer_.cancel();
    grace_timer_.cancel();
}

std::size_t QueueRoom::restore(std::vector<QueueEntry> entries, std::chrono::milliseconds grace) {
    std::size_t put_back = 0;
    for (QueueEntry& entry : entries) {
        const std::string player = entry.player;
        if (engaged(player) || host_.engaged(player) || !find_queue(entry.key.queue)) {
            spdlog::info("event=queue_restore_skipped player={} queue={}", player,
                         entry.key.queue);
            continue;
        }
        spdlog::info("event=queue_restored player={} queue={} clock={}+{} since_ms={}", player,
                     entry.key.queue, entry.key.base_seconds, entry.key.increment_seconds,
                     entry.since_ms);
        auto message = waiting_event(entry);
        matchmaker_.join(std::move(entry));
        restored_.insert(player);
        host_.tell(player, message);  // the connections already registered with this leader
        ++put_back;
    }
    if (!restored_.empty() && !stopped_) {
        grace_timer_.expires_after(grace);
        grace_timer_.async_wait([this](const boost::system::error_code& ec) {
            if (!ec) end_grace();
        });
    }
    publish();
    wave();
    return put_back;
}

void QueueRoom::forget_places() {
    for (const QueueEntry& entry : matchmaker_.entries()) matchmaker_.leave(entry.player);
    restored_.clear();
    publish();
}

void QueueRoom::end_grace() {
    const std::set<std::string> players = std::move(restored_);
    restored_.clear();
    for (const auto& player : players) offline(player);
}

void QueueRoom::wave() {
    if (stopped_) return;
    // A place restored from the previous leader is paired only once its player is connected
    // here again: paired before, the player would never hear `matched` (nothing was registered
    // to tell), and would come back to a queue it is no longer in.
    const auto pairs = matchmaker_.pair(std::chrono::steady_clock::now(), [this](const std::string& p) {
        return !restored_.count(p) || host_.online(p);
    });
    // The counts before anyone is told `matched`: the paired players wait no more.
    publish();
    for (const QueuePair& pair : pairs) start(pair);
    arm();
}

void QueueRoom::start(const QueuePair& pair) {
    const QueueKey& key = pair.first.key;
    const QueueKind* kind = find_queue(key.queue);
    if (!kind) return;  // only catalogue queues are ever joined
    const auto now = std::chrono::steady_clock::now();
    spdlog::info(
        "event=queue_pair queue={} clock={}+{} players={},{} ratings={:.0f},{:.0f} waited_ms={},{}",
        key.queue, key.base_seconds, key.increment_seconds, pair.first.player, pair.second.player,
        pair.first.rating, pair.second.rating,
        std::chrono::duration_cast<std::chrono::milliseconds>(now - pair.first.joined).count(),
        std::chrono::duration_cast<std::chrono::milliseconds>(now - pair.second.joined).count());
    std::vector<std::string> seats = {pair.first.player, pair.second.player};
    if (random_below(2) == 1) std::swap(seats[0], seats[1]);  // nobody keeps a seat by waiting
    for (const auto& p : seats) matching_.insert(p);
    json origin = {{"queue", key.queue}};
    host_.start_match(
        seats, queue_settings(*kind, preset_of(key)), std::move(origin),
        [this, seats, key](std::variant<std::string, QueueError> made) {
            for (const auto& p : seats) matching_.erase(p);
            if (auto* e = std::get_if<QueueError>(&made)) {
                // Not put back: a store that just failed would fail again at the next wave;
                // the players are told and may join again (docs/matchmaking.md).
                spdlog::warn("event=queue_match_failed players={},{} error=\"{}\"", seats[0],
                             seats[1], e->message);
                for (const auto& p : seats) host_.tell(p, left_event("unavailable"));
                return;
            }
            const std::string& match = std::get<std::string>(made);
            auto message = shared(protocol::event_message(
                "queue", {{"state", "matched"},
                          {"queue", key.queue},
                          {"clock", clock_json(preset_of(key))},
                          {"match", match}}));
            for (const auto& p : seats) host_.tell(p, message);
        });
}

void QueueRoom::arm() {
    if (armed_ || stopped_ || matchmaker_.empty()) return;
    armed_ = true;
    timer_.expires_after(matchmaker_.parameters().wave);
    timer_.async_wait([this](const boost::system::error_code& ec) {
        if (ec) return;  // cancelled: the room may be gone, touch nothing
        armed_ = false;
        wave();
    });
}

void QueueRoom::publish() {
    rebuild_list();
    host_.queue_changed();
}

void QueueRoom::rebuild_list() {
    json list = json::array();
    for (const QueueKind& kind : queue_kinds())
        for (const ClockPreset& clock : clock_presets())
            list.push_back(
                {{"queue", kind.name},
                 {"clock", clock_json(clock)},
                 {"waiting", matchmaker_.waiting(QueueKey{std::string(kind.name),
                                                          clock.base_seconds,
                                                          clock.increment_seconds})}});
    list_.with([&](json& published) { published = std::move(list); });
}

}  // namespace server
