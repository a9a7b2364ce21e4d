#include "protocol/santorini/power_catalog_json.hpp"

#include <string>

#include "engine/santorini/power_catalog.hpp"
#include "protocol/santorini/power_texts.hpp"

namespace protocol {
namespace {

using json = nlohmann::json;

std::string_view category_name(santorini::PowerCategory category) {
    switch (category) {
        case santorini::PowerCategory::Simple: return "simple";
        case santorini::PowerCategory::Advanced: return "advanced";
        case santorini::PowerCategory::Hero: return "hero";
    }
    return "advanced";
}

json build() {
    json powers = json::array();
    for (const santorini::PowerInfo& info : santorini::all_powers()) {
        json players = json::array();
        for (int n = 1; n <= 4; ++n)
            if (santorini::allowed_with_players(info.id, n)) players.push_back(n);
        json banned = json::array();
        for (const santorini::PowerInfo& other : santorini::all_powers())
            if (santorini::banned_pair(info.id, other.id)) banned.push_back(std::string(other.key));
        powers.push_back({{"id", std::string(info.key)},
                          {"number", static_cast<int>(info.id)},
                          {"name", std::string(info.name)},
                          {"category", std::string(category_name(info.category))},
                          {"players", std::move(players)},
                          {"golden_fleece", info.golden_fleece},
                          {"banned", std::move(banned)},
                          {"text", std::string(power_text(info.id))}});
    }
    return json{{"powers", std::move(powers)}};
}

}  // namespace

const json& power_catalog_json() {
    // Built once: the catalog is constant for the life of the process.
    static const json catalog = build();
    return catalog;
}

}  // namespace protocol
