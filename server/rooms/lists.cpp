#include "server/rooms/lists.hpp"

#include <boost/asio/post.hpp>

#include "server/app/metrics.hpp"

namespace server {

using nlohmann::json;

void Lists::Published::rebuild_live() {
    if (!live_stale) return;
    live_stale = false;
    ListEntries list;
    list.reserve(live.size());
    for (const auto& [order, match] : live)
        if (match.listed) list.push_back(match.entry);
    live_list = std::make_shared<const ListEntries>(std::move(list));
}

Lists::Lists(const Strand& strand, Metrics& metrics, std::chrono::milliseconds interval,
             After after)
    : strand_(strand),
      metrics_(metrics),
      interval_(interval),
      after_(std::move(after)),
      subscribers_(strand) {}

json Lists::lobbies() const {
    return published_.read([](const Published& p) { return p.lobby_list; });
}

std::shared_ptr<const ListEntries> Lists::live() {
    return published_.with([](Published& p) {
        p.rebuild_live();
        return p.live_list;
    });
}

std::vector<std::pair<std::string, json>> Lists::live_entries() const {
    return published_.read([](const Published& p) {
        std::vector<std::pair<std::string, json>> out;
        for (const auto& [id, order] : p.live_order)
            out.emplace_back(id, json::parse(*p.live.at(order).entry.text));
        return out;
    });
}

bool Lists::set_lobbies(json list) {
    return published_.with([&](Published& p) {
        if (list == p.lobby_list) return false;
        p.lobby_entries = std::make_shared<const ListEntries>(list_entries(list));
        p.lobby_list = std::move(list);
        return true;
    });
}

void Lists::set_live_entry(const std::string& id, const json& entry) {
    const bool schedule = published_.with([&](Published& p) {
        auto it = p.live_order.find(id);
        if (entry.is_null()) {
            if (it == p.live_order.end()) return false;
            p.live.erase(it->second);
            p.live_order.erase(it);
        } else {
            Published::Live match{list_entry(entry), !entry.value("private", false)};
            if (it == p.live_order.end()) {
                p.live_order.emplace(id, p.next_live_order);
                p.live.emplace(p.next_live_order++, std::move(match));
            } else {
                p.live[it->second] = std::move(match);
            }
        }
        metrics_.live_matches = static_cast<std::int64_t>(p.live.size());
        p.live_stale = true;
        const bool first = !p.live_scheduled;
        p.live_scheduled = true;
        return first;
    });
    if (schedule) boost::asio::post(strand_, [this] { publish_live(); });
}

void Lists::publish_live() {
    published_.with([](Published& p) { p.live_scheduled = false; });
    if (!subscribers_.get().matches.empty()) schedule();
}

void Lists::schedule() {
    Subscribers& s = subscribers_.get();
    if (s.due) return;
    s.due = true;
    auto flush = [this] {
        subscribers_.get().due = false;
        this->flush();
    };
    if (interval_.count() == 0) return boost::asio::post(strand_, flush);
    after_(interval_, flush);
}

void Lists::flush() {
    Subscribers& s = subscribers_.get();
    std::shared_ptr<const ListEntries> lobbies_now;
    std::shared_ptr<const ListEntries> live_now;
    published_.with([&](Published& p) {
        lobbies_now = p.lobby_entries;
        if (!s.matches.empty()) {
            p.rebuild_live();
            live_now = p.live_list;
        }
    });
    s.lobby_feed.update(lobbies_now);
    if (s.lobbies.empty()) {
        s.lobby_feed.forget_changes();
    } else if (auto message = s.lobby_feed.take_changes()) {
        for (const auto& [id, p] : s.lobbies) p->deliver(message);
    }
    if (!live_now) {
        s.match_feed.forget_changes();  // nobody watches: the list waits until somebody reads it
    } else {
        s.match_feed.update(std::move(live_now));
        if (auto message = s.match_feed.take_changes())
            for (const auto& [id, p] : s.matches) p->deliver(message);
    }
}

namespace {

/// A new subscriber of a list: the list as it is now.
void watch(ListFeed& feed, std::map<std::uint64_t, ParticipantPtr>& subscribers,
           const ParticipantPtr& who, std::shared_ptr<const ListEntries> now) {
    feed.update(std::move(now));
    if (subscribers.empty()) feed.forget_changes();  // the changes before are nobody's news
    subscribers[who->connection_id()] = who;
    who->deliver(feed.snapshot());
}

}  // namespace

void Lists::watch_lobbies(const ParticipantPtr& who, bool on) {
    Subscribers& s = subscribers_.get();
    if (!on) {
        s.lobbies.erase(who->connection_id());
        return;
    }
    watch(s.lobby_feed, s.lobbies, who,
          published_.read([](const Published& p) { return p.lobby_entries; }));
}

void Lists::watch_matches(const ParticipantPtr& who, bool on) {
    Subscribers& s = subscribers_.get();
    if (!on) {
        s.matches.erase(who->connection_id());
        return;
    }
    watch(s.match_feed, s.matches, who, live());
}

void Lists::forget(std::uint64_t id) {
    Subscribers& s = subscribers_.get();
    s.lobbies.erase(id);
    s.matches.erase(id);
}

}  // namespace server
