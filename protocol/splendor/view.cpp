// The `state` object of a Splendor match view as text, and the patch between two typed views.
// What is written and what is compared are read from the view by the same small functions
// (the reserved cards as shown, the bit sets masked to what the document lists), so equal
// values mean equal JSON and the patch cannot drift from the writer.

#include "protocol/splendor/view.hpp"

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdint>
#include <string>

#include "engine/splendor/cards.hpp"
#include "protocol/splendor/json.hpp"

namespace protocol {

using splendor::SeatView;
using splendor::StepList;
using splendor::View;

namespace {


std::uint32_t low_bits(int n) {
    return n >= 32 ? ~0u : (1u << n) - 1;
}

std::uint32_t noble_bits(std::uint16_t nobles) {
    return nobles & low_bits(splendor::noble_count);
}

std::uint32_t winner_bits(const View& v) {
    return v.winners & low_bits(v.players);
}

void write_optional_index(JsonText& out, int i) {
    if (i >= 0)
        out.number(i);
    else
        out.null();
}

// The set bits as an array of numbers (seats), lowest first.
void write_indices(JsonText& out, std::uint32_t bits) {
    out.begin_array();
    for (; bits != 0; bits &= bits - 1) out.number(std::countr_zero(bits));
    out.end_array();
}

// The nobles of a bit set, whole, lowest id first.
void write_nobles(JsonText& out, std::uint32_t bits) {
    out.begin_array();
    for (bits = noble_bits(static_cast<std::uint16_t>(bits)); bits != 0; bits &= bits - 1)
        write_noble(out, std::countr_zero(bits));
    out.end_array();
}

void write_slot(JsonText& out, int card) {
    if (card >= 0 && card < splendor::card_count)
        write_card(out, card);
    else
        out.null();
}

void write_decks(JsonText& out, const View& v) {
    out.begin_array();
    for (int l = 0; l < splendor::levels; ++l) out.number(v.deck_size[static_cast<std::size_t>(l)]);
    out.end_array();
}

void write_rows(JsonText& out, const View& v) {
    out.begin_array();
    for (const auto& row : v.rows) {
        out.begin_array();
        for (int card : row) write_slot(out, card);
        out.end_array();
    }
    out.end_array();
}

// ---- a hand ----

// A reserved card as the document shows it: the card if the viewer may see it, its level
// (a visible card's own), how it was taken.
struct Shown {
    int card = -1;
    int level = 0;
    bool blind = false;
    friend bool operator==(const Shown&, const Shown&) = default;
};

Shown shown(const splendor::ReservedView& r) {
    const bool visible = r.card >= 0 && r.card < splendor::card_count;
    return {visible ? r.card : -1, visible ? splendor::card(r.card).level : r.level, r.blind};
}

int reserved_count(const SeatView& s) {
    return std::clamp<int>(s.reserved_count, 0, splendor::max_reserved);
}

bool same_reserved(const SeatView& a, const SeatView& b) {
    if (reserved_count(a) != reserved_count(b)) return false;
    for (int i = 0; i < reserved_count(a); ++i)
        if (shown(a.reserved[static_cast<std::size_t>(i)]) !=
            shown(b.reserved[static_cast<std::size_t>(i)]))
            return false;
    return true;
}

void write_reserved(JsonText& out, const SeatView& s) {
    out.begin_array();
    for (int i = 0; i < reserved_count(s); ++i) {
        const Shown r = shown(s.reserved[static_cast<std::size_t>(i)]);
        out.begin_object();
        write_slot(out.key("card"), r.card);
        out.key("level").number(r.level).key("blind").boolean(r.blind);
        out.end_object();
    }
    out.end_array();
}

void write_hand(JsonText& out, const SeatView& s) {
    out.begin_object();
    write_tokens(out.key("tokens"), s.tokens);
    write_colours(out.key("bonuses"), s.bonuses);
    out.key("points").number(s.points).key("cards").number(s.cards);
    write_reserved(out.key("reserved"), s);
    write_nobles(out.key("nobles"), s.nobles);
    out.key("out").boolean(s.out);
    out.end_object();
}

void write_hands(JsonText& out, const View& v) {
    out.begin_array();
    for (int s = 0; s < v.players; ++s) write_hand(out, v.seats[static_cast<std::size_t>(s)]);
    out.end_array();
}

void write_legal(JsonText& out, const StepList& legal) {
    out.begin_array();
    for (const auto& step : legal) write_step(step, out);
    out.end_array();
}

void patch_hand(const SeatView& a, const SeatView& b, JsonPointer& path, int seat, PatchText& patch) {
    auto member = [&](std::string_view key) -> std::string_view {
        return path.at("hands").index(seat).key(key);
    };
    if (a.tokens != b.tokens) write_tokens(patch.replace(member("tokens")), b.tokens);
    if (a.bonuses != b.bonuses) write_colours(patch.replace(member("bonuses")), b.bonuses);
    if (a.points != b.points) patch.replace(member("points")).number(b.points);
    if (a.cards != b.cards) patch.replace(member("cards")).number(b.cards);
    if (!same_reserved(a, b)) write_reserved(patch.replace(member("reserved")), b);
    if (noble_bits(a.nobles) != noble_bits(b.nobles))
        write_nobles(patch.replace(member("nobles")), b.nobles);
    if (a.out != b.out) patch.replace(member("out")).boolean(b.out);
}

}  // namespace

void write_state(const View& seen, int decider, const StepList* legal, JsonText& out) {
    out.begin_object();
    out.key("phase").string(splendor_phase_name(seen.phase));
    write_optional_index(out.key("decider"), decider);
    out.key("turn").number(seen.turn);
    out.key("players").number(seen.players);
    out.key("start_player").number(seen.start_player);
    out.key("final_round").boolean(seen.final_round);
    write_tokens(out.key("supply"), seen.supply);
    write_decks(out.key("decks"), seen);
    write_rows(out.key("rows"), seen);
    write_nobles(out.key("nobles"), seen.nobles);
    write_hands(out.key("hands"), seen);
    write_indices(out.key("winners"), winner_bits(seen));
    if (legal != nullptr) write_legal(out.key("legal"), *legal);
    out.end_object();
}

void write_state_patch(const View& from, int from_decider, const StepList* from_legal,
                       const View& to, int to_decider, const StepList* to_legal,
                       std::string_view prefix, PatchText& patch) {
    JsonPointer path(prefix);
    if (from.phase != to.phase)
        patch.replace(path.at("phase")).string(splendor_phase_name(to.phase));
    if (from_decider != to_decider)
        write_optional_index(patch.replace(path.at("decider")), to_decider);
    if (from.turn != to.turn) patch.replace(path.at("turn")).number(to.turn);
    if (from.players != to.players) patch.replace(path.at("players")).number(to.players);
    if (from.start_player != to.start_player)
        patch.replace(path.at("start_player")).number(to.start_player);
    if (from.final_round != to.final_round)
        patch.replace(path.at("final_round")).boolean(to.final_round);
    if (from.supply != to.supply) write_tokens(patch.replace(path.at("supply")), to.supply);
    if (from.deck_size != to.deck_size) write_decks(patch.replace(path.at("decks")), to);
    for (int l = 0; l < splendor::levels; ++l)
        for (int s = 0; s < splendor::row_size; ++s) {
            const int a = from.rows[static_cast<std::size_t>(l)][static_cast<std::size_t>(s)];
            const int b = to.rows[static_cast<std::size_t>(l)][static_cast<std::size_t>(s)];
            const bool shown_a = a >= 0 && a < splendor::card_count;
            const bool shown_b = b >= 0 && b < splendor::card_count;
            if (shown_a != shown_b || (shown_b && a != b))
                write_slot(patch.replace(path.at("rows").index(l).index(s)), b);
        }
    if (noble_bits(from.nobles) != noble_bits(to.nobles))
        write_nobles(patch.replace(path.at("nobles")), to.nobles);
    if (from.players != to.players) {
        write_hands(patch.replace(path.at("hands")), to);
    } else {
        for (int s = 0; s < to.players; ++s)
            patch_hand(from.seats[static_cast<std::size_t>(s)],
                       to.seats[static_cast<std::size_t>(s)], path, s, patch);
    }
    if (winner_bits(from) != winner_bits(to))
        write_indices(patch.replace(path.at("winners")), winner_bits(to));

    if (from_legal != nullptr && to_legal == nullptr) {
        patch.remove(path.at("legal"));
    } else if (to_legal != nullptr) {
        if (from_legal == nullptr)
            write_legal(patch.add(path.at("legal")), *to_legal);
        else if (*from_legal != *to_legal)
            write_legal(patch.replace(path.at("legal")), *to_legal);
    }
}

}  // namespace protocol
