#pragma once
// The whole state of a Splendor game: plain data, trivially copyable (a copy is one memcpy,
// which search and the server's trial steps rely on). Nothing here is hidden from the engine;
// what a viewer may see is cut out of it by view.hpp.

#include <array>
#include <cstdint>

#include "engine/splendor/cards.hpp"
#include "engine/splendor/gems.hpp"

namespace splendor {

inline constexpr int max_players = 4;
inline constexpr int row_size = 4;        ///< face-up cards per level
inline constexpr int max_reserved = 3;
inline constexpr int max_tokens = 10;     ///< a hand above this returns tokens at turn's end
inline constexpr int winning_points = 15; ///< reaching it finishes the round
inline constexpr int largest_deck = 40;   ///< level 1 has 40 cards, level 2 30, level 3 20

/// A reserved card and how it was taken: from a deck (`blind`, hidden from the others) or
/// from the face-up row (everyone saw it).
struct Reserved {
    std::int8_t card = -1;
    bool blind = false;
    friend bool operator==(const Reserved&, const Reserved&) = default;
};

/// One seat's holdings.
struct Player {
    Tokens tokens{};                                ///< tokens in hand, gold included
    Colours bonuses{};                              ///< one per development card bought, by colour
    std::int8_t points = 0;                         ///< cards' points plus nobles' points
    std::int8_t cards = 0;                          ///< development cards bought
    std::array<Reserved, max_reserved> reserved{};  ///< the first `reserved_count` are held
    std::int8_t reserved_count = 0;
    std::uint16_t nobles = 0;                       ///< bits by noble id: nobles received
    bool out = false;                               ///< resigned or timed out (3-4 players)
    std::array<std::uint64_t, 2> bought{};          ///< the cards bought, bits by id (bought_card)
    friend bool operator==(const Player&, const Player&) = default;
};

/// True if the seat bought card `id` (bit id % 64 of word id / 64 of `bought`).
inline bool bought_card(const Player& p, int id) {
    return (p.bought[static_cast<std::size_t>(id / 64)] >> (id % 64) & 1u) != 0;
}
/// Records card `id` as bought by the seat.
inline void mark_bought(Player& p, int id) {
    p.bought[static_cast<std::size_t>(id / 64)] |= std::uint64_t{1} << (id % 64);
}

/// Where the turn of `current` stands. A turn is an action, then returning tokens while the
/// hand holds more than ten, then choosing a noble when several are earned (one earned is
/// received without a step), then the row is already refilled and the next seat plays.
/// Confirm (only with `State::confirm_turns`): the turn is complete and waits for its player's
/// EndTurn step, so that its last steps can still be taken back (closes_undo, game.hpp).
enum class Phase : std::uint8_t { Action, Return, Noble, Over, Confirm };

struct State {
    std::int8_t players = 2;
    std::array<Player, max_players> seats{};
    Tokens supply{};                                         ///< the bank
    std::array<std::array<std::int8_t, largest_deck>, levels> decks{};  ///< top is [size-1]
    std::array<std::int8_t, levels> deck_size{};
    std::array<std::array<std::int8_t, row_size>, levels> rows{};       ///< -1: empty slot
    std::uint16_t nobles = 0;      ///< bits by noble id: nobles still on the table
    std::int8_t start_player = 0;  ///< the seat that played first (a round ends before it)
    std::int8_t current = 0;       ///< the seat whose turn it is
    Phase phase = Phase::Action;
    bool final_round = false;      ///< someone reached 15 points: this round is the last
    std::int8_t passes = 0;        ///< consecutive turns passed (docs/rulings.md, Splendor)
    std::uint32_t turn = 0;        ///< turns completed
    std::uint8_t winners = 0;      ///< bits by seat, once Over
    /// Every turn stops in Phase::Confirm before it passes (Settings::confirm_turns). Hashed
    /// and written in notation only when true, so states of games without it keep theirs.
    bool confirm_turns = false;

    const Player& seat(int s) const { return seats[static_cast<std::size_t>(s)]; }
    Player& seat(int s) { return seats[static_cast<std::size_t>(s)]; }
    friend bool operator==(const State&, const State&) = default;
};

}  // namespace splendor
