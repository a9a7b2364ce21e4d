#include "engine/splendor/state_hash.hpp"

#include <cstdint>
#include <cstdio>

namespace splendor {
namespace {

/// FNV-1a, fed one integer at a time in a fixed byte order.
class Fnv {
  public:
    template <class T>
    void add(T value) {
        auto bits = static_cast<std::uint64_t>(value);
        for (std::size_t i = 0; i < sizeof(T); ++i) {
            hash_ ^= (bits >> (8 * i)) & 0xFFu;
            hash_ *= 0x100000001b3ull;
        }
    }
    template <class T, std::size_t N>
    void add(const std::array<T, N>& values) {
        for (const auto& v : values) add(v);
    }
    std::uint64_t value() const { return hash_; }

  private:
    std::uint64_t hash_ = 0xcbf29ce484222325ull;
};

}  // namespace

std::string state_hash(const State& s) {
    Fnv h;
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
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(h.value()));
    return text;
}

}  // namespace splendor
