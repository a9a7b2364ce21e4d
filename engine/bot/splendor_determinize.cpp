// Dealing the unseen cards. A card the seat has not seen is face-up nowhere and in no reserve
// it can read; it lies in a deck, in a reserve hidden from the seat, or among some seat's
// bought cards (the view gives bonuses by colour, not which cards). Every unseen card of a
// level is treated as equally likely to be anywhere hidden: a slight blur (the bought ones
// cannot come up again), which keeps the sample cheap and never uses what the seat cannot know.

#include "engine/bot/splendor_determinize.hpp"

#include <array>
#include <utility>

#include "engine/splendor/rng.hpp"

namespace splendor::bot {
namespace {

std::size_t det_at(int i) {
    return static_cast<std::size_t>(i);
}

}  // namespace

State determinize(const View& v, std::uint64_t& rng) {
    State s;
    s.players = v.players;
    s.supply = v.supply;
    s.deck_size = v.deck_size;
    s.rows = v.rows;
    s.nobles = v.nobles;
    s.start_player = v.start_player;
    s.current = v.current;
    s.phase = v.phase == Phase::Confirm ? Phase::Action : v.phase;
    s.final_round = v.final_round;
    s.turn = v.turn;
    s.winners = v.winners;
    s.confirm_turns = false;
    for (auto& deck : s.decks) deck.fill(-1);

    std::array<bool, card_count> seen{};
    for (const auto& row : v.rows)
        for (auto id : row)
            if (id >= 0) seen[det_at(id)] = true;
    for (int i = 0; i < v.players; ++i) {
        const SeatView& sv = v.seats[det_at(i)];
        for (int r = 0; r < sv.reserved_count; ++r)
            if (sv.reserved[det_at(r)].card >= 0) seen[det_at(sv.reserved[det_at(r)].card)] = true;
    }

    // The unseen cards of each level, shuffled: hidden reserves are dealt first, then the deck.
    std::array<std::array<std::int8_t, largest_deck>, levels> pool{};
    std::array<int, levels> pool_size{};
    for (int id = 0; id < card_count; ++id) {
        if (seen[det_at(id)]) continue;
        auto l = det_at(card(id).level - 1);
        pool[l][det_at(pool_size[l]++)] = static_cast<std::int8_t>(id);
    }
    for (std::size_t l = 0; l < levels; ++l)
        for (int i = pool_size[l] - 1; i > 0; --i)
            std::swap(pool[l][det_at(i)], pool[l][det_at(random_below(rng, i + 1))]);
    std::array<int, levels> dealt{};
    auto deal = [&](int level) -> std::int8_t {
        auto l = det_at(level - 1);
        // A view always leaves enough unseen cards; a malformed one gets an empty slot.
        return dealt[l] < pool_size[l] ? pool[l][det_at(dealt[l]++)] : std::int8_t{-1};
    };

    for (int i = 0; i < v.players; ++i) {
        const SeatView& sv = v.seats[det_at(i)];
        Player& p = s.seat(i);
        p.tokens = sv.tokens;
        p.bonuses = sv.bonuses;
        p.points = sv.points;
        p.cards = sv.cards;
        p.nobles = sv.nobles;
        p.out = sv.out;
        p.reserved_count = sv.reserved_count;
        for (int r = 0; r < sv.reserved_count; ++r) {
            const ReservedView& rv = sv.reserved[det_at(r)];
            p.reserved[det_at(r)] =
                Reserved{.card = rv.card >= 0 ? rv.card : deal(rv.level), .blind = rv.blind};
        }
    }
    for (int level = 1; level <= levels; ++level) {
        auto l = det_at(level - 1);
        for (int k = 0; k < v.deck_size[l]; ++k) s.decks[l][det_at(k)] = deal(level);
    }
    return s;
}

}  // namespace splendor::bot
