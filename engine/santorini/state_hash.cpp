#include "engine/santorini/state_hash.hpp"

#include <cstdint>

#include "engine/common/fnv.hpp"

namespace santorini {

std::string state_hash(const santorini::State& s) {
    engine_common::Fnv h;
    for (santorini::Square q = 0; q < santorini::square_count; ++q) {
        h.add(static_cast<std::uint8_t>(s.board.height(q)));
        h.add(static_cast<std::uint8_t>(s.board.has_dome(q)));
    }
    h.add(s.worker_count);
    for (const auto& w : s.workers) {
        h.add(w.square);
        h.add(w.side);
        h.add(static_cast<std::uint8_t>(w.female));
        h.add(static_cast<std::uint8_t>(w.in_reserve));
    }
    h.add(s.seat_count);
    h.add(s.side_count);
    for (const auto& seat : s.seats) {
        h.add(static_cast<std::uint8_t>(seat.power));
        h.add(seat.side);
        h.add(static_cast<std::uint8_t>(seat.out));
    }
    h.add(static_cast<std::uint8_t>(s.phase));
    const auto& t = s.turn;
    h.add(t.number);
    h.add(t.seat);
    h.add(t.worker);
    h.add(t.start);
    h.add(t.last_build);
    h.add(t.moves);
    h.add(t.builds);
    h.add(t.flags);
    h.add(t.movable);
    h.add(t.moved_workers);
    h.add(t.extra);
    for (auto v : t.visited) h.add(v);
    const auto& u = s.setup;
    h.add(static_cast<std::uint8_t>(u.mode));
    h.add(static_cast<std::uint8_t>(u.golden_fleece));
    h.add(u.challenger);
    h.add(u.start_player);
    h.add(u.offer_size);
    for (auto p : u.offer) h.add(static_cast<std::uint8_t>(p));
    h.add(u.pool);
    for (auto o : u.placement_order) h.add(o);
    h.add(u.placer);
    h.add(u.token_cursor);
    // Added only when set, so the hashes of every game stored before the handicap variant stand.
    if (u.hero_seat >= 0) h.add(u.hero_seat);
    // Only when set: the hashes stored for games from before confirm_turns existed stay valid.
    if (u.confirm_turns) h.add(static_cast<std::uint8_t>(0xC0));  // a tag no hero seat (0, 1) can be
    h.add(static_cast<std::uint8_t>(s.fleece_power));
    h.add(s.ram);
    h.add(s.fleece_holders);
    h.add(s.winners);
    h.add(s.interrupt);
    for (auto x : s.holder) h.add(x);
    for (auto p : s.acting_as) h.add(static_cast<std::uint8_t>(p));
    for (const auto& card : s.cards) Card::fields(card, [&](const char*, auto v) { h.add(v); });
    h.add(s.rng);
    return h.hex();
}

}  // namespace santorini
