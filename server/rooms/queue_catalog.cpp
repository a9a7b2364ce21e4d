#include "server/rooms/queue_catalog.hpp"

#include <algorithm>
#include <string>

namespace server {

const std::vector<QueueKind>& queue_kinds() {
    // Simple gods and all gods are both dealt at random ("random" draft): a quick game has no
    // time for a draft, and a server deal cannot be gamed by either player.
    static const std::vector<QueueKind> kinds = {
        {"santorini", "none"},
        {"santorini_simple", "simple"},
        {"santorini_gods", "all"},
        {"splendor", "none", "splendor"},
    };
    return kinds;
}

const QueueKind* find_queue(std::string_view name) {
    const auto& kinds = queue_kinds();
    auto it = std::find_if(kinds.begin(), kinds.end(),
                           [&](const QueueKind& k) { return k.name == name; });
    return it == kinds.end() ? nullptr : &*it;
}

const std::vector<ClockPreset>& clock_presets() {
    // The browser client's buttons (web/js/screens/home.js): few presets keep each queue
    // populated; anything else is a lobby's business.
    static const std::vector<ClockPreset> presets = {{180, 2}, {300, 3}, {600, 5}};
    return presets;
}

bool offered(const ClockPreset& clock) {
    const auto& presets = clock_presets();
    return std::find(presets.begin(), presets.end(), clock) != presets.end();
}

std::string offered_text() {
    std::string text;
    for (const auto& p : clock_presets()) {
        if (!text.empty()) text += ", ";
        text += std::to_string(p.base_seconds / 60) + "+" + std::to_string(p.increment_seconds);
    }
    return text;
}

protocol::LobbySettings queue_settings(const QueueKind& queue, const ClockPreset& clock) {
    protocol::LobbySettings s;
    s.game = std::string(queue.game);
    s.players = 2;
    s.rated = true;
    s.powers = std::string(queue.powers);
    s.draft = "random";
    s.golden_fleece = false;
    s.clock = "realtime";
    s.base_seconds = clock.base_seconds;
    s.increment_seconds = clock.increment_seconds;
    s.is_public = true;  // anyone may watch a rated game, as every match today
    return s;
}

nlohmann::json clock_json(const ClockPreset& clock) {
    return {{"kind", "realtime"},
            {"base_seconds", clock.base_seconds},
            {"increment_seconds", clock.increment_seconds}};
}

}  // namespace server
