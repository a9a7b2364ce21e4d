#include "engine/splendor/state_hash.hpp"

#include <cstdint>

#include "engine/common/fnv.hpp"

namespace splendor {
std::string state_hash(const State& s) {
    engine_common::Fnv h;
    h.add(s.players);
    for (const Player& p : s.seats) {
        h.add(p.tokens);
        h.add(p.bonuses);
        h.add(p.points);
        h.add(p.cards);
        for (const Reserved& r : p.reserved) {
            h.add(r.card);
            h.add(static_cast<std::uint8_t>(r.blind));
        }
        h.add(p.reserved_count);
        h.add(p.nobles);
        h.add(static_cast<std::uint8_t>(p.out));
        h.add(p.bought);
    }
    h.add(s.supply);
    for (const auto& deck : s.decks) h.add(deck);
    h.add(s.deck_size);
    for (const auto& row : s.rows) h.add(row);
    h.add(s.nobles);
    h.add(s.start_player);
    h.add(s.current);
    h.add(static_cast<std::uint8_t>(s.phase));
    h.add(static_cast<std::uint8_t>(s.final_round));
    h.add(s.passes);
    h.add(s.turn);
    h.add(s.winners);
    // Only when set: the hashes stored for games without it stay what they were.
    if (s.confirm_turns) h.add(std::uint8_t{1});
    return h.hex();
}

}  // namespace splendor
