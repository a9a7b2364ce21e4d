// Restoring stored matches: recovery at start (every live match, replayed from its steps) and
// match.open of a match that is not in memory (one that ended, maybe while the server was down).
// Recovery of a single node runs while connections are already accepted (Server::run): the
// seats of every live match count as playing before any replay, a request for a match not yet
// restored answers a retryable `unavailable`, and every connected player is told its matches
// (a `playing` event) once recovery ends. The work is linear in the stored steps: one snapshot
// read page by page, one replay per match on every core while the next page is read, and no
// list rebuilt per match.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <unordered_set>
#include <vector>

#include "server/limits/deadline.hpp"
#include "server/time/epoch_ms.hpp"
#include "server/app/hub_impl.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;


bool Hub::recovering() const { return impl_->life.recovering; }

void Hub::set_match_contexts(std::vector<boost::asio::io_context*> contexts) {
    if (!contexts.empty()) impl_->match_contexts = std::move(contexts);
}

void Hub::set_database_health(std::function<bool()> reachable) {
    impl_->life.database_reachable = std::move(reachable);
}

std::optional<bool> Hub::database_reachable() const {
    if (!impl_->repo || !impl_->life.database_reachable) return std::nullopt;
    return impl_->life.database_reachable();
}

void Hub::begin_recovery() {
    Impl& hub = *impl_;
    if (!hub.repo) return;
    if (hub.fleet) {
        // A fleet node joins first, so that it routes from its first request; the leader reads
        // the seats of every live match itself before it pairs anyone (fleet/leader_rooms.hpp).
        hub.fleet->join();
        hub.life.recovering = true;
        return;
    }
    hub.life.recovering = true;
    // The seats first, at once (one light read): a player of a live match not yet replayed
    // must not be let into a queue. If even that fails, the queues wait for recover().
    auto seats = hub.repo->live_seats();
    if (!seats) {
        hub.life.seats_known = false;
        return;
    }
    if (seats->empty()) {
        // Nothing live: nothing to restore, and no moment in which a match is on its way.
        hub.life.recovering = false;
        spdlog::info("event=recovery_done restored=0 failed=0 ms=0");
        return;
    }
    for (const auto& [match, player] : *seats) hub.registry.seat(match, player);
}

namespace {

/// The pages of stored matches between the reader and the replayers: bounded (the reader waits
/// while `limit` pages are queued), closed by the reader when it is done.
class PageQueue {
public:
    explicit PageQueue(std::size_t limit) : limit_(limit) {}

    void push(std::vector<store::StoredMatch>&& page) {
        std::unique_lock lock(mutex_);
        room_.wait(lock, [&] { return pages_.size() < limit_; });
        pages_.push_back(std::move(page));
        ready_.notify_one();
    }
    /// The next page, or nothing once the queue is closed and empty.
    std::optional<std::vector<store::StoredMatch>> pop() {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [&] { return !pages_.empty() || closed_; });
        if (pages_.empty()) return std::nullopt;
        auto page = std::move(pages_.front());
        pages_.pop_front();
        room_.notify_one();
        return page;
    }
    void close() {
        std::lock_guard lock(mutex_);
        closed_ = true;
        ready_.notify_all();
    }

private:
    std::mutex mutex_;
    std::condition_variable ready_, room_;
    std::deque<std::vector<store::StoredMatch>> pages_;
    std::size_t limit_;
    bool closed_ = false;
};

// Matches per page: big enough that a page's seats and steps are one cheap query, small enough
// that the replays start soon after the read does.
constexpr std::size_t restore_page = 250;

}  // namespace

std::pair<int, int> Hub::recover() {
    Impl& hub = *impl_;
    if (!hub.repo) return {0, 0};
    if (hub.fleet) {
        const auto counts = hub.fleet->restore_own();
        hub.end_recovery();
        return counts;
    }
    const auto started = std::chrono::steady_clock::now();
    // This thread reads pages of matches; replayers on every core replay them meanwhile, so the
    // restart costs about the larger of the read and the replays rather than their sum. Matches
    // are independent and the hub's maps are locked, so the order of their replays is free.
    PageQueue queue(4);
    std::atomic<int> restored{0}, failed{0};
    std::vector<std::thread> replayers;
    const unsigned cores = std::clamp(std::thread::hardware_concurrency(), 1U, 4U);
    for (unsigned i = 0; i < cores; ++i)
        replayers.emplace_back([&hub, &queue, &restored, &failed] {
            while (auto page = queue.pop())
                for (const store::StoredMatch& stored : *page)
                    if (!hub.life.stopping) {
                        bool ok = false;
                        try {
                            ok = hub.restore_stored(stored);
                        } catch (const std::exception& e) {  // one match, not the server
                            spdlog::error("event=recovery_failed match={} why=\"{}\"", stored.id,
                                          e.what());
                        }
                        (ok ? restored : failed)++;
                    }
        });
    std::unordered_set<std::string> handed;  // a read tried again skips what went before
    std::size_t matches = 0;
    auto read_all = [&] {
        return hub.repo->live_matches_paged(restore_page, [&](std::vector<store::StoredMatch>&& page) {
            std::erase_if(page, [&](const store::StoredMatch& m) { return !handed.insert(m.id).second; });
            matches += page.size();
            hub.seat_players(page);
            if (!page.empty()) queue.push(std::move(page));
        });
    };
    auto live = read_all();
    // In the background the database may still be starting: try again rather than give up.
    for (int attempt = 1; !live && hub.life.recovering && !hub.life.stopping && attempt < 600;
         ++attempt) {
        spdlog::warn("event=recovery_read_failed attempt={} error=\"{}\"", attempt,
                     live.error().message);
        std::this_thread::sleep_for(std::chrono::milliseconds(500));
        live = read_all();
    }
    const auto read = std::chrono::steady_clock::now();
    queue.close();
    for (std::thread& t : replayers) t.join();
    if (!live) {
        hub.life.recovering = false;
        hub.life.seats_known = true;
        throw std::runtime_error("recovery: cannot read live matches: " + live.error().message);
    }
    hub.life.seats_known = true;
    const auto done = std::chrono::steady_clock::now();
    spdlog::info("event=recovery_timing matches={} read_ms={} total_ms={} replayers={}", matches,
                 std::chrono::duration_cast<std::chrono::milliseconds>(read - started).count(),
                 std::chrono::duration_cast<std::chrono::milliseconds>(done - started).count(),
                 cores);
    hub.end_recovery();
    return {restored.load(), failed.load()};
}

void Hub::Impl::end_recovery() {
    Impl& hub = *this;
    if (hub.life.recovering.exchange(false))
        // The connections that came during recovery learn their matches now.
        boost::asio::post(hub.lobby_strand, [&hub] {
            for (const auto& [player, by_id] : hub.hall.get().connections)
                for (const auto& [id, who] : by_id) hub.tell_playing(who);
        });
}

void Hub::Impl::seat_players(const std::vector<store::StoredMatch>& live) {
    for (const store::StoredMatch& stored : live) {
        std::vector<std::string> players;
        for (const store::StoredSeat& seat : stored.seats) players.push_back(seat.player_id);
        registry.seat_once(stored.id, players);  // unless begin_recovery read them
    }
}

std::variant<std::shared_ptr<Match>, std::string> Hub::Impl::rebuild(
    const store::StoredMatch& stored) {
    MatchOptions options;
    options.id = stored.id;
    options.seed = stored.seed;
    options.history = config.history_per_match;
    options.history_bytes = config.history_bytes_per_viewer;
    // The same reading of the settings as the HTTP API's replays (server/match/replay.hpp).
    auto parsed = read_stored_settings(stored.settings_json);
    if (auto* e = std::get_if<std::string>(&parsed)) return *e;
    options.settings = std::get<StoredSettings>(parsed).lobby;
    options.challenger = std::get<StoredSettings>(parsed).challenger;
    options.invite_sha256 = std::get<StoredSettings>(parsed).invite_sha256;
    options.abandon = abandon_time(config, options.settings);
    options.bots = bot_play();
    options.spectators_interval = config.spectators_interval;
    options.make_rematch = rematch_maker();
    if (stored.status != "live") {
        const json result = json::parse(stored.result_json, nullptr, false);
        options.ended_as = result.is_object()
                               ? result
                               : json{{"winners", json::array()}, {"reason", "aborted"}};
    }
    for (const store::StoredSeat& seat : stored.seats) {
        options.seats.push_back(Member{seat.player_id, seat.display_name});
        identity.learn_name(seat.player_id, seat.display_name);
    }
    // The chat as stored; the match keeps the newest lines within its bounds.
    for (const server::ChatRecord& line : stored.chat)
        options.chat.push_back(StoredChatLine{line.number, line.channel == "spectators", line.seat,
                                              line.player_id, line.name, line.text, line.at_ms});
    std::vector<ReplayStep> steps;
    steps.reserve(stored.steps.size());
    for (const store::StoredStep& step : stored.steps)
        steps.push_back(ReplayStep{step.number, step.player_id, step.step_json, step.at_ms,
                                   step.state_hash});
    MatchPublisher publish = publisher(options);
    return Match::restore(next_match_home(), std::move(options), steps, stored.created_at_ms, store, metrics,
                          std::move(publish));
}

bool Hub::Impl::restore_stored(const store::StoredMatch& stored) {
    auto made = rebuild(stored);
    if (auto* why = std::get_if<std::string>(&made)) {
        spdlog::error("event=recovery_failed match={} steps={} why=\"{}\"", stored.id,
                      stored.steps.size(), *why);
        // Marked, not dropped: the match and its steps stay for a person to look at.
        auto marked = repo->end_match(
            stored.id, "aborted",
            json{{"winners", json::array()}, {"reason", "recovery_failed"}, {"why", *why}}.dump(),
            now_epoch_ms());
        if (!marked)
            spdlog::error("event=recovery_mark_failed match={} error=\"{}\"", stored.id,
                          marked.error().message);
        // Its players are free again.
        on_published(stored.id, nullptr);
        return false;
    }
    auto match = std::get<std::shared_ptr<Match>>(std::move(made));
    spdlog::debug("event=match_recovered match={} steps={}", stored.id, stored.steps.size());
    std::vector<Member> seats;
    for (const store::StoredSeat& seat : stored.seats)
        seats.push_back(Member{seat.player_id, seat.display_name});
    adopt(match, seats);
    return true;
}

void Hub::Impl::open_stored(const ParticipantPtr& from, const protocol::MatchOpen& m,
                            const Ref& ref) {
    using Found = store::Result<store::StoredMatch>;
    call_with_deadline<Found>(
        *blocking, io, config.database_deadline, [this, id = m.match] { return repo->match(id); },
        [this, from, m, ref](std::optional<Found> found) {
            if (!found || (!*found && found->error().kind != store::StoreError::Kind::NotFound))
                return error(from, ErrorCode::Unavailable,
                             "the match cannot be read now; temporarily unavailable, try again",
                             ref);
            if (!*found) return error(from, ErrorCode::UnknownMatch, "no such match", ref);
            // Loaded meanwhile (another request, a restore): that one answers.
            if (auto match = find_match(m.match)) return match->open(from, m.since, ref, m.code);
            const store::StoredMatch& stored = **found;
            if (stored.status == "live")
                // A live match is in memory unless a restore of it is under way (or failed
                // just now and is being marked): ask again.
                return error(from, ErrorCode::Unavailable,
                             "the match is being restored; try again", ref);
            auto made = rebuild(stored);
            if (auto* why = std::get_if<std::string>(&made)) {
                spdlog::error("event=stored_open_failed match={} why=\"{}\"", stored.id, *why);
                return error(from, ErrorCode::UnknownMatch,
                             "the stored match cannot be replayed: " + *why, ref);
            }
            auto match = std::get<std::shared_ptr<Match>>(std::move(made));
            {
                // Kept like any finished match: its first view published "over", which lets
                // it go after Config::finished_match_keep (retire).
                match = registry.hold_once(std::move(match));
            }
            match->open(from, m.since, ref, m.code);
        });
}

void Hub::Impl::tell_playing(const ParticipantPtr& who) {
    json ids = json::array();
    for (const std::string& id : registry.matches_of(who->player_id())) ids.push_back(id);
    if (ids.empty()) return;
    who->deliver(shared(protocol::event_message("playing", {{"matches", std::move(ids)}})));
}

}  // namespace server
