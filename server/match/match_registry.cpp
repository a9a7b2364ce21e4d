#include "server/match/match_registry.hpp"

#include "server/match/match.hpp"

namespace server {

void MatchRegistry::State::seat_all(const std::string& match,
                                    const std::vector<std::string>& players) {
    auto& seats = seated[match];
    for (const auto& p : players) {
        seats.push_back(p);
        playing[p].insert(match);
    }
}

void MatchRegistry::State::unseat(const std::string& match) {
    auto it = seated.find(match);
    if (it == seated.end()) return;
    for (const auto& p : it->second)
        if (auto pit = playing.find(p); pit != playing.end()) {
            pit->second.erase(match);
            if (pit->second.empty()) playing.erase(pit);
        }
    seated.erase(it);
}

std::shared_ptr<Match> MatchRegistry::find(const std::string& id) const {
    return state_.read([&](const State& s) -> std::shared_ptr<Match> {
        auto it = s.matches.find(id);
        return it == s.matches.end() ? nullptr : it->second;
    });
}

void MatchRegistry::for_each(const std::function<void(const std::shared_ptr<Match>&)>& f) const {
    state_.read([&](const State& s) {
        for (const auto& [id, match] : s.matches) f(match);
    });
}

std::string MatchRegistry::fresh_id(const std::function<std::string()>& make) const {
    return state_.read([&](const State& s) {
        std::string id;
        do id = make();
        while (s.matches.count(id));
        return id;
    });
}

void MatchRegistry::hold(const std::shared_ptr<Match>& match,
                         const std::vector<std::string>& players) {
    const std::string& id = match->id();
    state_.with([&](State& s) {
        s.matches.emplace(id, match);
        if (s.seated[id].empty()) s.seat_all(id, players);
    });
}

std::shared_ptr<Match> MatchRegistry::hold_once(std::shared_ptr<Match> match) {
    const std::string id = match->id();
    return state_.with(
        [&](State& s) { return s.matches.emplace(id, std::move(match)).first->second; });
}

void MatchRegistry::seat(const std::string& match, const std::string& player) {
    state_.with([&](State& s) { s.seat_all(match, {player}); });
}

void MatchRegistry::seat_once(const std::string& match, const std::vector<std::string>& players) {
    state_.with([&](State& s) {
        if (s.seated[match].empty()) s.seat_all(match, players);
    });
}

void MatchRegistry::free_seats(const std::string& id, bool unless_held) {
    state_.with([&](State& s) {
        if (unless_held && s.matches.count(id)) return;
        s.unseat(id);
    });
}

std::optional<std::shared_ptr<Match>> MatchRegistry::drop(const std::string& id) {
    return state_.with([&](State& s) -> std::optional<std::shared_ptr<Match>> {
        if (!s.seated.count(id)) return std::nullopt;
        std::shared_ptr<Match> lost;
        if (auto it = s.matches.find(id); it != s.matches.end()) {
            lost = std::move(it->second);
            s.matches.erase(it);
        }
        // The seats stay: forgetting them let the players of a match a leader lost to a slower
        // renewal join a queue while it still played on elsewhere (CI, 2026-12-02).
        return lost;
    });
}

std::vector<std::string> MatchRegistry::seated_elsewhere() const {
    return state_.read([](const State& s) {
        std::vector<std::string> ids;
        for (const auto& [id, seats] : s.seated)
            if (!s.matches.count(id)) ids.push_back(id);
        return ids;
    });
}

std::vector<std::shared_ptr<Match>> MatchRegistry::retire(const std::string& id, std::size_t keep) {
    return state_.with([&](State& s) {
        std::vector<std::shared_ptr<Match>> gone;
        if (!s.matches.count(id)) return gone;
        s.kept_finished.push_back(id);
        while (s.kept_finished.size() > keep) {
            if (auto it = s.matches.find(s.kept_finished.front()); it != s.matches.end()) {
                gone.push_back(std::move(it->second));
                s.matches.erase(it);
            }
            s.kept_finished.pop_front();
        }
        return gone;
    });
}

void MatchRegistry::place(const std::string& id, const std::string& node) {
    state_.with([&](State& s) { s.placed[id] = node; });
}

std::string MatchRegistry::take_placed(const std::string& id,
                                       const std::vector<std::string>& players) {
    return state_.with([&](State& s) {
        std::string owner;
        auto it = s.placed.find(id);
        if (it == s.placed.end()) return owner;
        owner = std::move(it->second);
        s.placed.erase(it);
        s.seat_all(id, players);
        return owner;
    });
}

std::vector<std::string> MatchRegistry::held() const {
    return state_.read([](const State& s) {
        std::vector<std::string> ids;
        for (const auto& [id, seats] : s.seated)
            if (s.matches.count(id)) ids.push_back(id);
        return ids;
    });
}

int MatchRegistry::held_count() const {
    return state_.read([](const State& s) {
        int n = 0;
        for (const auto& [id, seats] : s.seated) n += s.matches.count(id) ? 1 : 0;
        return n;
    });
}

std::vector<std::string> MatchRegistry::matches_of(const std::string& player) const {
    return state_.read([&](const State& s) {
        std::vector<std::string> ids;
        if (auto it = s.playing.find(player); it != s.playing.end())
            ids.assign(it->second.begin(), it->second.end());
        return ids;
    });
}

std::size_t MatchRegistry::count_of(const std::string& player) const {
    return state_.read([&](const State& s) -> std::size_t {
        auto it = s.playing.find(player);
        return it == s.playing.end() ? 0 : it->second.size();
    });
}

}  // namespace server
