#pragma once
// The small values of a Santorini view's JSON text (powers, squares, sets of them, indices,
// directions), written without a tree: shared by the view writer (view.cpp) and the power
// cards' part of it (view_card.cpp). Internal to protocol/santorini.

#include <bit>
#include <cstdint>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/square.hpp"
#include "protocol/json_text.hpp"
#include "protocol/santorini/names.hpp"
#include "protocol/santorini/quoted.hpp"

namespace protocol::santorini_view {

using santorini::Bitboard;
using santorini::PowerId;
using santorini::Square;

/// Every bit the draft pool may show: powers 1..power_count.
inline constexpr std::uint64_t power_bits = ((std::uint64_t{1} << santorini::power_count) - 1) << 1;

/// The n lowest bits (all 32 from n = 32 on).
inline std::uint32_t low_bits(int n) {
    return n >= 32 ? ~0u : (1u << n) - 1;
}

/// A power by its key, quoted, or null for none.
inline void write_power(JsonText& out, PowerId p) {
    out.raw(santorini_text::quoted_power(p));
}

/// A square's name, quoted, or null off the board.
inline void write_square(JsonText& out, Square s) {
    if (s == santorini::no_square)
        out.null();
    else
        out.raw(santorini_text::quoted_square(s));
}

/// The squares of a set as an array of names, lowest first.
inline void write_squares(JsonText& out, Bitboard b) {
    out.begin_array();
    for (; b != 0; b &= b - 1) out.raw(santorini_text::quoted_square(static_cast<Square>(std::countr_zero(b))));
    out.end_array();
}

/// The powers of a set (bit = PowerId) as an array of keys, lowest id first.
inline void write_powers(JsonText& out, std::uint64_t bits) {
    out.begin_array();
    for (bits &= power_bits; bits != 0; bits &= bits - 1)
        write_power(out, static_cast<PowerId>(std::countr_zero(bits)));
    out.end_array();
}

/// The set bits as an array of numbers (worker ids, seats), lowest first.
inline void write_indices(JsonText& out, std::uint32_t bits) {
    out.begin_array();
    for (; bits != 0; bits &= bits - 1) out.number(std::countr_zero(bits));
    out.end_array();
}

/// A seat or worker number, or null when negative.
inline void write_optional_index(JsonText& out, int i) {
    if (i >= 0)
        out.number(i);
    else
        out.null();
}

/// A direction as `aim` steps name it, quoted, or null while not set.
inline void write_direction(JsonText& out, int d) {
    if (d >= 0 && d < 8)
        out.string(direction_names[static_cast<std::size_t>(d)]);
    else
        out.null();
}

}  // namespace protocol::santorini_view
