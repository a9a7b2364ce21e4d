// A power card as a Santorini view shows it: read out of the state, written, and patched.
// Bit sets are masked to what the document shows (workers below worker_count, the 25
// squares, powers 1..power_count) before they are compared, so equal masks mean equal JSON.

#include "protocol/santorini/view_card.hpp"

#include <algorithm>
#include <bit>
#include <string_view>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/chaos.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/morpheus.hpp"
#include "engine/santorini/square.hpp"
#include "protocol/santorini/view_values.hpp"

namespace protocol::santorini_view {

using santorini::State;

namespace {

// Bits of Card::extras: the keys a card has beyond the common ones, by the powers it gives.
namespace extra {
constexpr unsigned moved_up = 1;        // Athena
constexpr unsigned bound = 2;           // Aphrodite
constexpr unsigned chaos = 4;           // Chaos: deck_size and discards
constexpr unsigned extra_turns = 8;     // Dionysus
constexpr unsigned stored_builds = 16;  // Morpheus
constexpr unsigned wind = 32;           // Aeolus
constexpr unsigned song = 64;           // Siren
constexpr unsigned whirlpools = 128;    // Charybdis: on the board and on the card
constexpr unsigned coins = 256;         // Clio: on the board and on the card
constexpr unsigned talus = 512;         // Europa & Talus
constexpr unsigned fate = 1024;         // Moerae (empty where hidden)
constexpr unsigned abyss = 2048;        // Tartarus (null where hidden)
constexpr unsigned reserve = 4096;      // Gaea, Jason: their workers still on the card
constexpr unsigned spent = 8192;        // every hero: the once-per-game power is used
constexpr unsigned charmed = 16384;     // Adonis: the opponent worker he chose
}  // namespace extra

// How many of the workers of the side seat `card` plays are still on its card (Gaea's).
int reserve_workers(const State& view, int card) {
    const int side = view.seat(card).side;
    int n = 0;
    for (int i = 0; i < view.worker_count; ++i)
        if (view.worker(i).side == side && view.worker(i).in_reserve) ++n;
    return n;
}

}  // namespace

Card card_of(const State& view, int card, PowerId power) {
    const auto u = static_cast<std::size_t>(card);
    const auto& seat = view.card(card);
    Card c;
    c.power = power;
    c.acting_as = power == PowerId::None ? power : view.acting_as[u];
    c.memory = seat.memory;
    c.counter = seat.counter;
    c.tokens = view.card(card).tokens & santorini::all_squares;
    for (PowerId p : {c.power, c.acting_as}) switch (p) {
            case PowerId::Athena:
                c.extras |= extra::moved_up;
                c.moved_up = seat.memory != 0;
                break;
            case PowerId::Aphrodite:
                c.extras |= extra::bound;
                c.bound = static_cast<std::uint32_t>(view.card(card).data & 0xFFFF) &
                          low_bits(view.worker_count);
                break;
            case PowerId::Chaos:
                c.extras |= extra::chaos;
                c.deck_size = std::popcount(santorini::powers::chaos_deck(view, card));
                c.discards = santorini::powers::chaos_discards(view, card) & power_bits;
                break;
            case PowerId::Dionysus:
                c.extras |= extra::extra_turns;
                c.extra_turns = seat.counter;
                break;
            case PowerId::Morpheus: {
                c.extras |= extra::stored_builds;
                c.stored_builds = santorini::powers::morpheus_pieces(view, card);
                break;
            }
            case PowerId::Aeolus:
                c.extras |= extra::wind;
                c.direction = santorini::powers::wind(view, card);
                break;
            case PowerId::Siren:
                c.extras |= extra::song;
                c.direction = santorini::powers::song(view, card);
                break;
            case PowerId::Charybdis:
                c.extras |= extra::whirlpools;
                c.marks = santorini::powers::whirlpools(view, card) & santorini::all_squares;
                c.on_card = std::max(0, santorini::powers::whirlpools_on_card(view, card));
                break;
            case PowerId::Clio:
                c.extras |= extra::coins;
                c.marks = santorini::powers::coins(view, card) & santorini::all_squares;
                c.on_card = std::max(0, santorini::powers::coins_on_card(view, card));
                break;
            case PowerId::EuropaTalus:
                c.extras |= extra::talus;
                c.square = santorini::powers::talus(view, card);
                break;
            case PowerId::Moerae:
                c.extras |= extra::fate;
                c.marks = santorini::powers::fate(view, card) & santorini::all_squares;
                break;
            case PowerId::Tartarus:
                c.extras |= extra::abyss;
                c.square = santorini::powers::abyss(view, card);
                break;
            case PowerId::Gaea:
            case PowerId::Jason:
                c.extras |= extra::reserve;
                c.reserve = reserve_workers(view, card);
                break;
            default:
                break;
        }
    if (power != PowerId::None && santorini::power_info(power).category == santorini::PowerCategory::Hero) {
        c.extras |= extra::spent;
        c.spent = santorini::powers::hero_spent(view, card);
    }
    if (power == PowerId::Adonis) {
        c.extras |= extra::charmed;
        c.charmed = santorini::powers::adonis_charmed(view, card);
    }
    return c;
}

void write_card_members(JsonText& out, const Card& c) {
    out.key("power");
    write_power(out, c.power);
    out.key("acting_as");
    write_power(out, c.acting_as);
    out.key("memory").number(c.memory);
    out.key("counter").number(c.counter);
    out.key("tokens");
    write_squares(out, c.tokens);
    if (c.extras & extra::moved_up) out.key("moved_up").boolean(c.moved_up);
    if (c.extras & extra::bound) write_indices(out.key("bound"), c.bound);
    if (c.extras & extra::chaos) {
        out.key("deck_size").number(c.deck_size);
        write_powers(out.key("discards"), c.discards);
    }
    if (c.extras & extra::extra_turns) out.key("extra_turns").number(c.extra_turns);
    if (c.extras & extra::stored_builds) out.key("stored_builds").number(c.stored_builds);
    if (c.extras & extra::wind) write_direction(out.key("wind"), c.direction);
    if (c.extras & extra::song) write_direction(out.key("song"), c.direction);
    if (c.extras & extra::whirlpools) {
        write_squares(out.key("whirlpools"), c.marks);
        out.key("whirlpools_on_card").number(c.on_card);
    }
    if (c.extras & extra::coins) {
        write_squares(out.key("coins"), c.marks);
        out.key("coins_on_card").number(c.on_card);
    }
    if (c.extras & extra::talus) write_square(out.key("talus"), c.square);
    if (c.extras & extra::fate) write_squares(out.key("fate"), c.marks);
    if (c.extras & extra::abyss) write_square(out.key("abyss"), c.square);
    if (c.extras & extra::reserve) out.key("reserve").number(c.reserve);
    if (c.extras & extra::spent) out.key("spent").boolean(c.spent);
    if (c.extras & extra::charmed) {
        out.key("charmed");
        if (c.charmed >= 0)
            out.number(c.charmed);
        else
            out.null();
    }
}

void patch_card(const Card& a, const Card& b, JsonPointer& path, PatchText& patch) {
    const std::size_t m = path.mark();
    if (a.power != b.power) write_power(patch.replace(path.back(m).key("power")), b.power);
    if (a.acting_as != b.acting_as)
        write_power(patch.replace(path.back(m).key("acting_as")), b.acting_as);
    if (a.memory != b.memory) patch.replace(path.back(m).key("memory")).number(b.memory);
    if (a.counter != b.counter) patch.replace(path.back(m).key("counter")).number(b.counter);
    if (a.tokens != b.tokens) write_squares(patch.replace(path.back(m).key("tokens")), b.tokens);

    // A key a card may gain or lose with its powers: removed, added, or replaced if changed.
    auto member = [&](unsigned bit, std::string_view key, bool changed, auto write) {
        const bool was = (a.extras & bit) != 0, is = (b.extras & bit) != 0;
        if (was && !is)
            patch.remove(path.back(m).key(key));
        else if (is && !was)
            write(patch.add(path.back(m).key(key)));
        else if (is && changed)
            write(patch.replace(path.back(m).key(key)));
    };
    member(extra::moved_up, "moved_up", a.moved_up != b.moved_up,
           [&](JsonText& out) { out.boolean(b.moved_up); });
    member(extra::bound, "bound", a.bound != b.bound,
           [&](JsonText& out) { write_indices(out, b.bound); });
    member(extra::chaos, "deck_size", a.deck_size != b.deck_size,
           [&](JsonText& out) { out.number(b.deck_size); });
    member(extra::chaos, "discards", a.discards != b.discards,
           [&](JsonText& out) { write_powers(out, b.discards); });
    member(extra::extra_turns, "extra_turns", a.extra_turns != b.extra_turns,
           [&](JsonText& out) { out.number(b.extra_turns); });
    member(extra::stored_builds, "stored_builds", a.stored_builds != b.stored_builds,
           [&](JsonText& out) { out.number(b.stored_builds); });
    member(extra::wind, "wind", a.direction != b.direction,
           [&](JsonText& out) { write_direction(out, b.direction); });
    member(extra::song, "song", a.direction != b.direction,
           [&](JsonText& out) { write_direction(out, b.direction); });
    member(extra::whirlpools, "whirlpools", a.marks != b.marks,
           [&](JsonText& out) { write_squares(out, b.marks); });
    member(extra::whirlpools, "whirlpools_on_card", a.on_card != b.on_card,
           [&](JsonText& out) { out.number(b.on_card); });
    member(extra::coins, "coins", a.marks != b.marks,
           [&](JsonText& out) { write_squares(out, b.marks); });
    member(extra::coins, "coins_on_card", a.on_card != b.on_card,
           [&](JsonText& out) { out.number(b.on_card); });
    member(extra::talus, "talus", a.square != b.square,
           [&](JsonText& out) { write_square(out, b.square); });
    member(extra::fate, "fate", a.marks != b.marks,
           [&](JsonText& out) { write_squares(out, b.marks); });
    member(extra::abyss, "abyss", a.square != b.square,
           [&](JsonText& out) { write_square(out, b.square); });
    member(extra::reserve, "reserve", a.reserve != b.reserve,
           [&](JsonText& out) { out.number(b.reserve); });
    member(extra::spent, "spent", a.spent != b.spent,
           [&](JsonText& out) { out.boolean(b.spent); });
    member(extra::charmed, "charmed", a.charmed != b.charmed, [&](JsonText& out) {
        if (b.charmed >= 0)
            out.number(b.charmed);
        else
            out.null();
    });
    path.back(m);
}

}  // namespace protocol::santorini_view
