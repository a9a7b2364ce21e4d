// Dealing the unseen cards. A card the seat has not seen is face-up nowhere and in no reserve
// it can read; it lies in a deck, in a reserve hidden from the seat, or among some seat's
// bought cards (the view gives bonuses by colour, not which cards). The sample sets aside, per
// level, as many unseen cards as were bought, of the colours the seats' bonuses show; the rest
// are dealt uniformly. The bought cards' identities stay a guess: the view does not carry them.

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
    // Which unseen cards were bought is not in the view, but how many of each colour were is
    // (the seats' bonuses), and so is how many of each level (the unseen cards not needed by the
    // deck or a hidden reserve). Set aside that many per level, only of colours still owed, so a
    // colour nobody holds never leaves the deck and a blue card is never "bought" for nobody.
    // The most constrained level (3) goes first; a set that cannot be met falls back to any card.
    Colours owed{};
    for (int i = 0; i < v.players; ++i)
        for (std::size_t c = 0; c < owed.size(); ++c) owed[c] += v.seats[det_at(i)].bonuses[c];
    std::array<int, levels> hidden{};
    for (int i = 0; i < v.players; ++i) {
        const SeatView& sv = v.seats[det_at(i)];
        for (int r = 0; r < sv.reserved_count; ++r)
            if (sv.reserved[det_at(r)].card < 0) ++hidden[det_at(sv.reserved[det_at(r)].level - 1)];
    }
    for (std::size_t l = levels; l-- > 0;) {
        int bought = pool_size[l] - hidden[l] - v.deck_size[l];
        // Stable partition: the cards set aside move to the back, the kept order stays shuffled.
        std::array<std::int8_t, largest_deck> kept{}, aside{};
        int nk = 0, na = 0;
        for (int i = 0; i < pool_size[l]; ++i) {
            const std::int8_t id = pool[l][det_at(i)];
            auto c = static_cast<std::size_t>(card(id).bonus);
            if (na < bought && owed[c] > 0) {
                --owed[c];
                aside[det_at(na++)] = id;
            } else {
                kept[det_at(nk++)] = id;
            }
        }
        // Unmet: the last kept cards are set aside instead (any colour).
        while (na < bought && nk > 0) aside[det_at(na++)] = kept[det_at(--nk)];
        for (int i = 0; i < nk; ++i) pool[l][det_at(i)] = kept[det_at(i)];
        for (int i = 0; i < na; ++i) pool[l][det_at(nk + i)] = aside[det_at(i)];
    }
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
