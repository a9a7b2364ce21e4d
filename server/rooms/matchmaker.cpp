#include "server/rooms/matchmaker.hpp"

#include <algorithm>
#include <cmath>

namespace server {

bool Matchmaker::join(QueueEntry entry) {
    if (entries_.count(entry.player)) return false;
    std::string player = entry.player;
    entries_.emplace(std::move(player), Slot{std::move(entry), next_order_++});
    return true;
}

std::optional<QueueEntry> Matchmaker::leave(std::string_view player) {
    auto it = entries_.find(player);
    if (it == entries_.end()) return std::nullopt;
    QueueEntry entry = std::move(it->second.entry);
    entries_.erase(it);
    return entry;
}

const QueueEntry* Matchmaker::find(std::string_view player) const {
    auto it = entries_.find(player);
    return it == entries_.end() ? nullptr : &it->second.entry;
}

std::vector<QueueEntry> Matchmaker::entries() const {
    std::vector<const Slot*> order;
    for (const auto& [player, slot] : entries_) order.push_back(&slot);
    std::sort(order.begin(), order.end(), [](const Slot* a, const Slot* b) {
        if (a->entry.joined != b->entry.joined) return a->entry.joined < b->entry.joined;
        return a->order < b->order;
    });
    std::vector<QueueEntry> out;
    for (const Slot* slot : order) out.push_back(slot->entry);
    return out;
}

std::int64_t Matchmaker::missed_waves(const QueueEntry& entry, TimePoint now) const {
    if (now <= entry.joined || params_.wave.count() <= 0) return 0;
    return std::chrono::duration_cast<std::chrono::milliseconds>(now - entry.joined).count() /
           params_.wave.count();
}

double Matchmaker::window(const QueueEntry& entry, TimePoint now) const {
    return std::min(params_.max_window,
                    params_.base_window +
                        params_.widen_per_wave * static_cast<double>(missed_waves(entry, now)));
}

bool Matchmaker::acceptable(const QueueEntry& a, const QueueEntry& b, TimePoint now) const {
    if (a.player == b.player || a.key != b.key) return false;
    return std::abs(a.rating - b.rating) <= std::min(window(a, now), window(b, now));
}

std::vector<QueuePair> Matchmaker::pair(TimePoint now,
                                        const std::function<bool(const std::string&)>& present) {
    // Oldest first: by join time, then join order.
    std::vector<const Slot*> order;
    order.reserve(entries_.size());
    for (const auto& [player, slot] : entries_)
        if (!present || present(player)) order.push_back(&slot);
    std::sort(order.begin(), order.end(), [](const Slot* a, const Slot* b) {
        if (a->entry.joined != b->entry.joined) return a->entry.joined < b->entry.joined;
        return a->order < b->order;
    });
    // Quadratic in the waiters of a wave: fine for the hundreds a node sees at once; a large
    // pool would sort each key by rating and look only within the window.
    std::vector<bool> taken(order.size(), false);
    std::vector<std::pair<std::size_t, std::size_t>> chosen;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (taken[i]) continue;
        const QueueEntry& a = order[i]->entry;
        std::optional<std::size_t> best;
        double best_gap = 0;
        for (std::size_t j = i + 1; j < order.size(); ++j) {
            if (taken[j] || !acceptable(a, order[j]->entry, now)) continue;
            const double gap = std::abs(a.rating - order[j]->entry.rating);
            // Strictly closer only: an equal gap keeps the earlier (older) candidate.
            if (!best || gap < best_gap) best = j, best_gap = gap;
        }
        if (!best) continue;
        taken[i] = taken[*best] = true;
        chosen.emplace_back(i, *best);
    }
    std::vector<QueuePair> pairs;
    pairs.reserve(chosen.size());
    for (const auto& [i, j] : chosen)
        pairs.push_back(QueuePair{order[i]->entry, order[j]->entry});
    for (const auto& p : pairs) {
        entries_.erase(p.first.player);
        entries_.erase(p.second.player);
    }
    return pairs;
}

std::size_t Matchmaker::waiting(const QueueKey& key) const {
    return static_cast<std::size_t>(std::count_if(
        entries_.begin(), entries_.end(), [&](const auto& item) { return item.second.entry.key == key; }));
}

}  // namespace server
