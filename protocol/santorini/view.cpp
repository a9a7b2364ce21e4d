// The `state` object of a match view as text, and the patch between two typed views.
//
// Each part of the document is first read out of the State into a small plain value (a
// card's fields, the turn's fields): the writer writes that value, and the patch compares two
// of them, so what is written and what is compared cannot drift apart. Bit sets are masked to
// what the document shows (workers below worker_count, seats below seat_count, the 25 squares,
// powers 1..power_count) before they are compared, so equal masks mean equal JSON.
//
// The document itself is defined by protocol::state_json (santorini_json.cpp); the random-game
// test in tests/protocol/santorini_view_test.cpp holds the two equal.

#include "protocol/santorini/view.hpp"

#include "protocol/santorini/names.hpp"
#include "protocol/santorini/quoted.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/chaos.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/morpheus.hpp"
#include "engine/santorini/square.hpp"

namespace protocol {

using santorini::Bitboard;
using santorini::Phase;
using santorini::PowerId;
using santorini::Square;
using santorini::State;
using santorini::Step;
using santorini::StepKind;
using santorini::StepList;
using santorini_text::quoted_power;
using santorini_text::quoted_square;

namespace {

// A board cell, quoted: its height, then "D" if domed; indexed by height + 4 * dome.
constexpr std::array<std::string_view, 8> quoted_cells{"\"0\"",  "\"1\"",  "\"2\"",  "\"3\"",
                                                       "\"0D\"", "\"1D\"", "\"2D\"", "\"3D\""};

std::string_view quoted_cell(const santorini::Board& board, Square s) {
    const int h = std::clamp(board.height(s), 0, 3);
    return quoted_cells[static_cast<std::size_t>(h + (board.has_dome(s) ? 4 : 0))];
}

// Every bit the draft pool may show: powers 1..power_count.
constexpr std::uint64_t power_bits = ((std::uint64_t{1} << santorini::power_count) - 1) << 1;

std::uint32_t low_bits(int n) {
    return n >= 32 ? ~0u : (1u << n) - 1;
}

bool in_a_turn(const State& view) {
    return view.phase == Phase::Begin || view.phase == Phase::AfterMove ||
           view.phase == Phase::AfterBuild || view.phase == Phase::End;
}

// ---- small values ----

void write_power(JsonText& out, PowerId p) {
    out.raw(quoted_power(p));
}

void write_square(JsonText& out, Square s) {
    if (s == santorini::no_square)
        out.null();
    else
        out.raw(quoted_square(s));
}

void write_squares(JsonText& out, Bitboard b) {
    out.begin_array();
    for (; b != 0; b &= b - 1) out.raw(quoted_square(static_cast<Square>(std::countr_zero(b))));
    out.end_array();
}

void write_powers(JsonText& out, std::uint64_t bits) {
    out.begin_array();
    for (bits &= power_bits; bits != 0; bits &= bits - 1)
        write_power(out, static_cast<PowerId>(std::countr_zero(bits)));
    out.end_array();
}

// The set bits as an array of numbers (worker ids, seats), lowest first.
void write_indices(JsonText& out, std::uint32_t bits) {
    out.begin_array();
    for (; bits != 0; bits &= bits - 1) out.number(std::countr_zero(bits));
    out.end_array();
}

void write_optional_index(JsonText& out, int i) {
    if (i >= 0)
        out.number(i);
    else
        out.null();
}

// ---- the parts of the document, read out of the state ----

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

// A direction as `aim` steps name it, quoted, or null while not set.
void write_direction(JsonText& out, int d) {
    if (d >= 0 && d < 8)
        out.string(direction_names[static_cast<std::size_t>(d)]);
    else
        out.null();
}

// A power card as the table sees it (santorini_json.cpp, card_state_json).
struct Card {
    PowerId power = PowerId::None;
    PowerId acting_as = PowerId::None;
    int memory = 0;
    int counter = 0;
    Bitboard tokens = 0;
    unsigned extras = 0;
    bool moved_up = false;
    std::uint32_t bound = 0;
    int deck_size = 0;
    std::uint64_t discards = 0;
    int extra_turns = 0;
    int stored_builds = 0;
    int direction = -1;              // Aeolus' wind or Siren's song (-1: not set)
    Bitboard marks = 0;              // whirlpools, coins or the Fate on the board
    int on_card = 0;                 // whirlpools or coins still on the card
    Square square = santorini::no_square;  // Talus or the Abyss
    int reserve = 0;
    bool spent = false;
    int charmed = -1;
};

// How many of the workers of the side seat `card` plays are still on its card (Gaea's).
int reserve_workers(const State& view, int card) {
    const int side = view.seat(card).side;
    int n = 0;
    for (int i = 0; i < view.worker_count; ++i)
        if (view.worker(i).side == side && view.worker(i).in_reserve) ++n;
    return n;
}

// The card lying on seat `card` (Golden Fleece: the card beside the board keeps its state on
// seat 0) carrying `power`.
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

// The `this_turn` object (present in a turn and once the game is over).
struct ThisTurn {
    bool shown = false;
    int seat = 0;
    int worker = -1;
    Square start = santorini::no_square;
    std::uint32_t moved = 0;
    int moves = 0;
    int builds = 0;
    Square last_build = santorini::no_square;
    std::uint16_t flags = 0;  // only the turn_flag bits the document shows
};

constexpr std::uint16_t shown_flags =
    santorini::turn_flag::moved_up | santorini::turn_flag::no_move_up |
    santorini::turn_flag::dome_built | santorini::turn_flag::built_before_move |
    santorini::turn_flag::extra_turn;

ThisTurn this_turn_of(const State& view) {
    ThisTurn t;
    t.shown = in_a_turn(view) || view.over();
    if (!t.shown) return t;
    t.seat = view.turn.seat;
    t.worker = view.turn.worker >= 0 ? view.turn.worker : -1;
    t.start = view.turn.start;
    t.moved = view.turn.moved_workers & low_bits(view.worker_count);
    t.moves = view.turn.moves;
    t.builds = view.turn.builds;
    t.last_build = view.turn.last_build;
    t.flags = view.turn.flags & shown_flags;
    return t;
}

// The turn flags the document shows, with their keys.
struct FlagKey {
    std::uint16_t flag;
    std::string_view key;
};
constexpr std::array<FlagKey, 5> flag_keys{{
    {santorini::turn_flag::moved_up, "moved_up"},
    {santorini::turn_flag::no_move_up, "no_move_up"},
    {santorini::turn_flag::dome_built, "dome_built"},
    {santorini::turn_flag::built_before_move, "built_before_move"},
    {santorini::turn_flag::extra_turn, "extra_turn"},
}};

void write_this_turn(JsonText& out, const ThisTurn& t) {
    if (!t.shown) {
        out.null();
        return;
    }
    out.begin_object();
    out.key("seat").number(t.seat);
    write_optional_index(out.key("worker"), t.worker);
    write_square(out.key("start"), t.start);
    write_indices(out.key("moved"), t.moved);
    out.key("moves").number(t.moves);
    out.key("builds").number(t.builds);
    write_square(out.key("last_build"), t.last_build);
    for (const auto& f : flag_keys) out.key(f.key).boolean((t.flags & f.flag) != 0);
    out.end_object();
}

void write_worker(JsonText& out, const State& view, int i) {
    const auto& w = view.worker(i);
    out.begin_object();
    out.key("id").number(i);
    out.key("side").number(w.side);
    write_square(out.key("square"), w.square);
    out.key("female").boolean(w.female);
    out.key("reserve").boolean(w.in_reserve);
    out.end_object();
}

void write_workers(JsonText& out, const State& view) {
    out.begin_array();
    for (int i = 0; i < view.worker_count; ++i) write_worker(out, view, i);
    out.end_array();
}

void write_offer(JsonText& out, const santorini::Setup& setup) {
    out.begin_array();
    for (int i = 0; i < setup.offer_size; ++i)
        write_power(out, setup.offer[static_cast<std::size_t>(i)]);
    out.end_array();
}

std::uint32_t winner_bits(const State& view) {
    return view.winners & low_bits(view.seat_count);
}
std::uint32_t holder_bits(const State& view) {
    return view.fleece_holders & low_bits(view.seat_count);
}

void write_seat_card(JsonText& out, const State& view, int seat) {
    out.begin_object();
    write_card_members(out, card_of(view, seat, view.seat(seat).power));
    out.key("seat").number(seat);
    out.key("holder").number(view.holder[static_cast<std::size_t>(seat)]);
    out.end_object();
}

void write_fleece(JsonText& out, const State& view) {
    if (!view.setup.golden_fleece) {
        out.null();
        return;
    }
    out.begin_object();
    write_power(out.key("power"), view.fleece_power);
    write_square(out.key("ram"), view.ram);
    write_indices(out.key("holders"), holder_bits(view));
    out.key("card").begin_object();
    write_card_members(out, card_of(view, 0, view.fleece_power));
    out.end_object();
    out.end_object();
}

void write_legal(JsonText& out, const State& view, const StepList& legal) {
    out.begin_array();
    for (const Step& s : legal) write_step(view, s, out);
    out.end_array();
}

// Per-seat arrays, written whole.
void write_seat_powers(JsonText& out, const State& v) {
    out.begin_array();
    for (int s = 0; s < v.seat_count; ++s) write_power(out, v.seat(s).power);
    out.end_array();
}
void write_seat_out(JsonText& out, const State& v) {
    out.begin_array();
    for (int s = 0; s < v.seat_count; ++s) out.boolean(v.seat(s).out);
    out.end_array();
}
void write_seat_memory(JsonText& out, const State& v) {
    out.begin_array();
    for (int s = 0; s < v.seat_count; ++s) out.number(v.card(s).memory);
    out.end_array();
}
void write_cards(JsonText& out, const State& v) {
    out.begin_array();
    for (int s = 0; s < v.seat_count; ++s) write_seat_card(out, v, s);
    out.end_array();
}

// ---- the patch ----


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

void patch_this_turn(const ThisTurn& a, const ThisTurn& b, JsonPointer& path, PatchText& patch) {
    path.at("this_turn");
    if (a.shown != b.shown) {
        write_this_turn(patch.replace(path), b);
        return;
    }
    if (!b.shown) return;
    const std::size_t m = path.mark();
    if (a.seat != b.seat) patch.replace(path.back(m).key("seat")).number(b.seat);
    if (a.worker != b.worker)
        write_optional_index(patch.replace(path.back(m).key("worker")), b.worker);
    if (a.start != b.start) write_square(patch.replace(path.back(m).key("start")), b.start);
    if (a.moved != b.moved) write_indices(patch.replace(path.back(m).key("moved")), b.moved);
    if (a.moves != b.moves) patch.replace(path.back(m).key("moves")).number(b.moves);
    if (a.builds != b.builds) patch.replace(path.back(m).key("builds")).number(b.builds);
    if (a.last_build != b.last_build)
        write_square(patch.replace(path.back(m).key("last_build")), b.last_build);
    if (a.flags != b.flags)
        for (const auto& f : flag_keys)
            if ((a.flags ^ b.flags) & f.flag)
                patch.replace(path.back(m).key(f.key)).boolean((b.flags & f.flag) != 0);
}

void patch_workers(const State& a, const State& b, JsonPointer& path, PatchText& patch) {
    if (a.worker_count != b.worker_count) {
        write_workers(patch.replace(path.at("workers")), b);
        return;
    }
    for (int i = 0; i < b.worker_count; ++i) {
        const auto& x = a.worker(i);
        const auto& y = b.worker(i);
        if (x == y) continue;
        path.at("workers").index(i);
        const std::size_t m = path.mark();
        if (x.side != y.side) patch.replace(path.back(m).key("side")).number(y.side);
        if (x.square != y.square) write_square(patch.replace(path.back(m).key("square")), y.square);
        if (x.female != y.female) patch.replace(path.back(m).key("female")).boolean(y.female);
        if (x.in_reserve != y.in_reserve)
            patch.replace(path.back(m).key("reserve")).boolean(y.in_reserve);
    }
}

// Per-seat arrays and the seats' cards, element by element (whole when the seat count differs).
void patch_seats(const State& a, const State& b, JsonPointer& path, PatchText& patch) {
    if (a.seat_count != b.seat_count) {
        patch.replace(path.at("players")).number(b.seat_count);
        write_seat_powers(patch.replace(path.at("powers")), b);
        write_seat_out(patch.replace(path.at("out")), b);
        write_seat_memory(patch.replace(path.at("memory")), b);
        write_cards(patch.replace(path.at("cards")), b);
        return;
    }
    for (int s = 0; s < b.seat_count; ++s) {
        const auto& x = a.seat(s);
        const auto& y = b.seat(s);
        if (x.power != y.power) write_power(patch.replace(path.at("powers").index(s)), y.power);
        if (x.out != y.out) patch.replace(path.at("out").index(s)).boolean(y.out);
        if (a.card(s).memory != b.card(s).memory) patch.replace(path.at("memory").index(s)).number(b.card(s).memory);
    }
    for (int s = 0; s < b.seat_count; ++s) {
        const Card x = card_of(a, s, a.seat(s).power);
        const Card y = card_of(b, s, b.seat(s).power);
        path.at("cards").index(s);
        patch_card(x, y, path, patch);
        const auto u = static_cast<std::size_t>(s);
        if (a.holder[u] != b.holder[u]) patch.replace(path.key("holder")).number(b.holder[u]);
    }
}

void patch_draft(const State& a, const State& b, JsonPointer& path, PatchText& patch) {
    const auto& x = a.setup;
    const auto& y = b.setup;
    if (x.mode != y.mode) patch.replace(path.at("draft").key("mode")).string(draft_name(y.mode));
    if (x.challenger != y.challenger)
        patch.replace(path.at("draft").key("challenger")).number(y.challenger);
    if ((x.start_player >= 0 ? x.start_player : -1) != (y.start_player >= 0 ? y.start_player : -1))
        write_optional_index(patch.replace(path.at("draft").key("start_player")), y.start_player);
    if ((x.pool & power_bits) != (y.pool & power_bits))
        write_powers(patch.replace(path.at("draft").key("pool")), y.pool);
    const bool same_offer =
        x.offer_size == y.offer_size &&
        std::equal(x.offer.begin(), x.offer.begin() + x.offer_size, y.offer.begin());
    if (!same_offer) write_offer(patch.replace(path.at("draft").key("offer")), y);
    if (x.hero_seat != y.hero_seat)
        write_optional_index(patch.replace(path.at("draft").key("hero_seat")), y.hero_seat);
}

void patch_fleece(const State& a, const State& b, JsonPointer& path, PatchText& patch) {
    if (a.setup.golden_fleece != b.setup.golden_fleece) {
        write_fleece(patch.replace(path.at("fleece")), b);
        return;
    }
    if (!b.setup.golden_fleece) return;
    if (a.fleece_power != b.fleece_power)
        write_power(patch.replace(path.at("fleece").key("power")), b.fleece_power);
    if (a.ram != b.ram) write_square(patch.replace(path.at("fleece").key("ram")), b.ram);
    if (holder_bits(a) != holder_bits(b) || a.seat_count != b.seat_count)
        write_indices(patch.replace(path.at("fleece").key("holders")), holder_bits(b));
    path.at("fleece").key("card");
    patch_card(card_of(a, 0, a.fleece_power), card_of(b, 0, b.fleece_power), path, patch);
}

bool same_steps(const StepList& a, const StepList& b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin());
}

}  // namespace

void write_state(const State& seen, const StepList* legal, JsonText& out) {
    out.begin_object();
    out.key("phase").string(phase_name(seen.phase));
    write_optional_index(out.key("decider"), santorini::decider(seen));
    out.key("turn").number(seen.turn.number);
    out.key("players").number(seen.seat_count);

    {  // the 25 cells in one piece
        char cells[2 + santorini::square_count * 5];
        std::size_t n = 0;
        cells[n++] = '[';
        for (Square s = 0; s < santorini::square_count; ++s) {
            if (s > 0) cells[n++] = ',';
            const std::string_view cell = quoted_cell(seen.board, s);
            std::copy(cell.begin(), cell.end(), cells + n);
            n += cell.size();
        }
        cells[n++] = ']';
        out.key("board").raw({cells, n});
    }

    write_workers(out.key("workers"), seen);
    write_seat_powers(out.key("powers"), seen);
    write_seat_out(out.key("out"), seen);
    write_indices(out.key("winners"), winner_bits(seen));

    out.key("draft").begin_object();
    out.key("mode").string(draft_name(seen.setup.mode));
    out.key("challenger").number(seen.setup.challenger);
    write_optional_index(out.key("start_player"), seen.setup.start_player);
    write_powers(out.key("pool"), seen.setup.pool);
    write_offer(out.key("offer"), seen.setup);
    write_optional_index(out.key("hero_seat"), seen.setup.hero_seat);
    out.end_object();

    write_fleece(out.key("fleece"), seen);
    write_seat_memory(out.key("memory"), seen);
    write_cards(out.key("cards"), seen);
    write_this_turn(out.key("this_turn"), this_turn_of(seen));
    if (legal != nullptr) write_legal(out.key("legal"), seen, *legal);
    out.end_object();
}

void write_state_patch(const State& from, const StepList* from_legal, const State& to,
                       const StepList* to_legal, std::string_view prefix, PatchText& patch) {
    JsonPointer path(prefix);
    if (from.phase != to.phase) patch.replace(path.at("phase")).string(phase_name(to.phase));
    if (const int d = santorini::decider(to); santorini::decider(from) != d)
        write_optional_index(patch.replace(path.at("decider")), d);
    if (from.turn.number != to.turn.number) patch.replace(path.at("turn")).number(to.turn.number);

    if (!(from.board == to.board))
        for (Square s = 0; s < santorini::square_count; ++s)
            if (const auto cell = quoted_cell(to.board, s); quoted_cell(from.board, s) != cell)
                patch.replace(path.at("board").index(s)).raw(cell);

    patch_workers(from, to, path, patch);
    patch_seats(from, to, path, patch);
    if (winner_bits(from) != winner_bits(to) || from.seat_count != to.seat_count)
        write_indices(patch.replace(path.at("winners")), winner_bits(to));
    patch_draft(from, to, path, patch);
    patch_fleece(from, to, path, patch);
    patch_this_turn(this_turn_of(from), this_turn_of(to), path, patch);

    if (from_legal != nullptr && to_legal == nullptr) {
        patch.remove(path.at("legal"));
    } else if (to_legal != nullptr) {
        if (from_legal == nullptr)
            write_legal(patch.add(path.at("legal")), to, *to_legal);
        else if (!same_steps(*from_legal, *to_legal))
            write_legal(patch.replace(path.at("legal")), to, *to_legal);
    }
}

}  // namespace protocol
