// The lobby's `rated` choice (docs/protocol.md, `lobby.create`): unsaid, a public lobby is
// rated and a private one casual, for both games; said, it is kept either way.

#include <catch2/catch_test_macros.hpp>

#include "protocol/json/basic_json.hpp"
#include "protocol/lobby_settings.hpp"

using nlohmann::json;
using protocol::LobbySettings;
using protocol::read_lobby_settings;

namespace {

bool rated_of(const json& settings) {
    auto read = read_lobby_settings(settings);
    REQUIRE(std::holds_alternative<LobbySettings>(read));
    const bool rated = std::get<LobbySettings>(read).rated;
    // What lobby lists and stored matches print says the same.
    CHECK(protocol::lobby_settings_json(std::get<LobbySettings>(read))["rated"] == rated);
    return rated;
}

json rated_settings(json base, const json& more) {
    base.update(more);
    return base;
}

}  // namespace

TEST_CASE("lobby rated: public lobbies default to rated, private ones to casual", "[lobby_settings]") {
    for (const char* game : {"santorini", "splendor"}) {
        INFO(game);
        const json base = {{"game", game}, {"players", 2}};
        CHECK(rated_of(base));
        CHECK(rated_of(rated_settings(base, {{"public", true}})));
        CHECK_FALSE(rated_of(rated_settings(base, {{"public", false}})));
        CHECK(rated_of(rated_settings(base, {{"public", false}, {"rated", true}})));
        CHECK_FALSE(rated_of(rated_settings(base, {{"public", true}, {"rated", false}})));
        CHECK_FALSE(rated_of(rated_settings(base, {{"rated", false}})));
        // A bad value is still refused, and names the field.
        auto bad = read_lobby_settings(rated_settings(base, {{"public", false}, {"rated", "yes"}}));
        REQUIRE(std::holds_alternative<protocol::SettingsError>(bad));
        CHECK(std::get<protocol::SettingsError>(bad).field == "settings.rated");
    }
}
