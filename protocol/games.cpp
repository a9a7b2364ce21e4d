#include "protocol/games.hpp"

#include "engine/splendor/game.hpp"
#include "protocol/santorini/game.hpp"
#include "protocol/splendor/game.hpp"
#include "protocol/splendor/json.hpp"

namespace protocol {

namespace {

std::variant<std::unique_ptr<Game>, std::string> start_santorini(const LobbySettings& settings,
                                                                 std::uint64_t seed,
                                                                 int challenger) {
    auto engine = engine_settings(settings, seed, challenger);
    if (auto* error = std::get_if<std::string>(&engine)) return *error;
    auto game = santorini::new_game(std::get<santorini::Settings>(engine));
    if (!game.ok()) return game.error().message;
    return std::unique_ptr<Game>(std::make_unique<SantoriniGame>(std::move(*game)));
}

std::variant<std::unique_ptr<Game>, std::string> start_splendor(const LobbySettings& settings,
                                                                std::uint64_t seed,
                                                                int challenger) {
    splendor::Settings engine;
    engine.players = settings.players;
    engine.start_player = challenger;  // a seat the caller drew at random
    engine.seed = seed;
    engine.confirm_turns = settings.confirm_turns;
    auto game = splendor::new_game(engine);
    if (auto* error = std::get_if<std::string>(&game)) return *error;
    return std::unique_ptr<Game>(std::make_unique<SplendorGame>(std::get<splendor::State>(game)));
}

}  // namespace

std::variant<std::unique_ptr<Game>, std::string> start_game(const LobbySettings& settings,
                                                            std::uint64_t seed, int challenger) {
    if (settings.game == "santorini") return start_santorini(settings, seed, challenger);
    if (settings.game == "splendor") return start_splendor(settings, seed, challenger);
    return "unknown game '" + settings.game.substr(0, 32) + "'";
}

std::variant<nlohmann::json, std::string> canonical_step_of(std::string_view game,
                                                            const nlohmann::json& step) {
    if (game == "santorini") return canonical_step(step);
    if (game == "splendor") return canonical_splendor_step(step);
    return "unknown game '" + std::string(game.substr(0, 32)) + "'";
}

nlohmann::json readable_part(const nlohmann::json& record, Readable readable) {
    if (readable == Readable::Whole || !record.is_object()) return record;
    nlohmann::json part = {{"kind", record.value("kind", nlohmann::json())}};
    if (readable == Readable::KindAndTarget && record.contains("to")) part["to"] = record["to"];
    return part;
}

}  // namespace protocol
