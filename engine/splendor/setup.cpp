// Setup: the bank by player count, the three decks shuffled from the seed, four face-up cards
// a level, players + 1 nobles drawn. The seed is used here only; the game after it is
// deterministic.

#include <numeric>

#include "engine/splendor/game.hpp"
#include "engine/splendor/rng.hpp"
#include "engine/splendor/turn_flow.hpp"

namespace splendor {

int detail::gems_per_colour(int players) {
    return players == 2 ? 4 : players == 3 ? 5 : 7;
}

Tokens detail::starting_supply(int players) {
    Tokens t{};
    for (int c = 0; c < gem_colours; ++c)
        t[static_cast<std::size_t>(c)] = static_cast<std::int8_t>(gems_per_colour(players));
    t[Gold] = 5;
    return t;
}

std::optional<std::string> validate(const Settings& settings) {
    if (settings.players < 2 || settings.players > max_players)
        return "Splendor is played by 2, 3 or 4 players";
    if (settings.start_player < 0 || settings.start_player >= settings.players)
        return "the start player must be one of the seats";
    return std::nullopt;
}

std::variant<State, std::string> new_game(const Settings& settings) {
    if (auto problem = validate(settings)) return *problem;
    State s;
    s.players = static_cast<std::int8_t>(settings.players);
    s.start_player = static_cast<std::int8_t>(settings.start_player);
    s.current = s.start_player;
    s.confirm_turns = settings.confirm_turns;
    s.supply = detail::starting_supply(settings.players);
    for (auto& deck : s.decks) deck.fill(-1);

    std::uint64_t rng = settings.seed;
    // Each deck in card-id order, then Fisher-Yates; level 1 first, then 2, then 3.
    for (int id = 0; id < card_count; ++id) {
        auto l = static_cast<std::size_t>(card(id).level - 1);
        s.decks[l][static_cast<std::size_t>(s.deck_size[l]++)] = static_cast<std::int8_t>(id);
    }
    for (std::size_t l = 0; l < levels; ++l)
        for (int i = s.deck_size[l] - 1; i > 0; --i)
            std::swap(s.decks[l][static_cast<std::size_t>(i)],
                      s.decks[l][static_cast<std::size_t>(random_below(rng, i + 1))]);
    // The face-up rows are dealt from the top, slot 0 first.
    for (std::size_t l = 0; l < levels; ++l)
        for (auto& slot : s.rows[l]) {
            auto top = static_cast<std::size_t>(--s.deck_size[l]);
            slot = s.decks[l][top];
            s.decks[l][top] = -1;
        }
    // Nobles: the first players + 1 of a shuffle of all ten.
    std::array<int, noble_count> order{};
    std::iota(order.begin(), order.end(), 0);
    for (int i = noble_count - 1; i > 0; --i)
        std::swap(order[static_cast<std::size_t>(i)],
                  order[static_cast<std::size_t>(random_below(rng, i + 1))]);
    for (int i = 0; i <= settings.players; ++i)
        s.nobles =
            static_cast<std::uint16_t>(s.nobles | (1u << order[static_cast<std::size_t>(i)]));
    return s;
}

}  // namespace splendor
