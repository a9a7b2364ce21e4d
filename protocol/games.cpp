#include "protocol/games.hpp"

#include "protocol/santorini_game.hpp"

namespace protocol {

std::variant<std::unique_ptr<Game>, std::string> start_game(const LobbySettings& settings,
                                                            std::uint64_t seed, int challenger) {
    auto engine = engine_settings(settings, seed, challenger);
    if (auto* error = std::get_if<std::string>(&engine)) return *error;
    auto game = santorini::new_game(std::get<santorini::Settings>(engine));
    if (!game.ok()) return game.error().message;
    return std::unique_ptr<Game>(std::make_unique<SantoriniGame>(std::move(*game)));
}

}  // namespace protocol
