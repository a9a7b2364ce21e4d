#include "server/rooms/list_ratings.hpp"

namespace server {

using nlohmann::json;

ListRatings::ListRatings(std::size_t capacity, std::chrono::seconds fresh_for)
    : capacity_(capacity), fresh_for_(fresh_for) {}

json ListRatings::shown(const std::string& player, const std::string& pool) const {
    return entries_.read([&](const std::map<Key, Entry>& entries) -> json {
        auto it = entries.find(Key{player, pool});
        if (it == entries.end() || !it->second.shown) return nullptr;
        return {{"rating", it->second.shown->rating},
                {"provisional", it->second.shown->provisional}};
    });
}

bool ListRatings::wanted(const std::string& player, const std::string& pool,
                         Clock::time_point now) {
    return entries_.with([&](std::map<Key, Entry>& entries) {
        auto it = entries.find(Key{player, pool});
        if (it == entries.end()) {
            if (entries.size() >= capacity_) {
                // Full: the oldest read goes (it is read again if a list still shows it).
                auto oldest = entries.end();
                for (auto e = entries.begin(); e != entries.end(); ++e)
                    if (!e->second.reading &&
                        (oldest == entries.end() || e->second.read_at < oldest->second.read_at))
                        oldest = e;
                if (oldest == entries.end()) return false;  // all being read: not now
                entries.erase(oldest);
            }
            entries[Key{player, pool}].reading = true;
            return true;
        }
        Entry& e = it->second;
        if (e.reading || now < e.retry_at || (e.shown && now - e.read_at < fresh_for_))
            return false;
        e.reading = true;
        return true;
    });
}

void ListRatings::put(const std::string& player, const std::string& pool,
                      std::optional<Shown> shown, Clock::time_point now) {
    entries_.with([&](std::map<Key, Entry>& entries) {
        auto it = entries.find(Key{player, pool});
        if (it == entries.end()) return;  // dropped meanwhile
        it->second.reading = false;
        if (!shown) {
            it->second.retry_at = now + retry_after;
            return;
        }
        it->second.shown = shown;
        it->second.read_at = now;
    });
}

void ListRatings::forget(const std::string& player, const std::string& pool) {
    entries_.with([&](std::map<Key, Entry>& entries) {
        auto it = entries.find(Key{player, pool});
        // Kept while shown (the old rating beats no rating), but stale: read again when next shown.
        if (it != entries.end()) it->second.read_at = it->second.retry_at = Clock::time_point{};
    });
}

json with_ratings(json entry, const std::string& pool, const std::vector<std::string>& players,
                  const ListRatings& ratings) {
    if (entry.is_null()) return entry;
    json list = json::array();
    for (const std::string& player : players)
        list.push_back(player.empty() ? json(nullptr) : ratings.shown(player, pool));
    entry["ratings"] = std::move(list);
    return entry;
}

}  // namespace server
