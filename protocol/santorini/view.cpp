// The `state` object of a match view as text, and the patch between two typed views.
//
// Each part of the document is first read out of the State into a small plain value (a
// card's fields, the turn's fields): the writer writes that value, and the patch compares two
// of them, so what is written and what is compared cannot drift apart. Bit sets are masked to
// what the document shows (workers below worker_count, seats below seat_count, the 25 squares,
// powers 1..power_count) before they are compared, so equal masks mean equal JSON.
//
// The document itself is defined by the test oracle protocol::state_json
// (tests/support/protocol_oracles/santorini_state_json.cpp); the random-game
// test in tests/protocol/santorini_view_test.cpp holds the two equal.

#include "protocol/santorini/view.hpp"

#include "protocol/santorini/names.hpp"
#include "protocol/santorini/quoted.hpp"
#include "protocol/santorini/view_card.hpp"
#include "protocol/santorini/view_values.hpp"

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
using namespace santorini_view;  // the small values and the cards, shared with view_card.cpp

namespace {

// A board cell, quoted: its height, then "D" if domed; indexed by height + 4 * dome.
constexpr std::array<std::string_view, 8> quoted_cells{"\"0\"",  "\"1\"",  "\"2\"",  "\"3\"",
                                                       "\"0D\"", "\"1D\"", "\"2D\"", "\"3D\""};

std::string_view quoted_cell(const santorini::Board& board, Square s) {
    const int h = std::clamp(board.height(s), 0, 3);
    return quoted_cells[static_cast<std::size_t>(h + (board.has_dome(s) ? 4 : 0))];
}

bool in_a_turn(const State& view) {
    return view.phase == Phase::Begin || view.phase == Phase::AfterMove ||
           view.phase == Phase::AfterBuild || view.phase == Phase::End;
}

// ---- the parts of the document, read out of the state (the cards: view_card.cpp) ----

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
