#pragma once
// Santorini's names as JSON text, quoted and ready to append (squares, powers): shared by the
// view writer (protocol/santorini/view.cpp) and the step writer (protocol/santorini/step_writer.cpp), which write
// them without a std::string per name and without scanning them for characters to escape.

#include <array>
#include <string>
#include <string_view>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/square.hpp"

namespace protocol::santorini_text {

using santorini::PowerId;
using santorini::Square;

/// "A1".."E5" by square, quoted: a name is appended as it is, without a std::string per name
/// and without scanning it for characters to escape (there are none).
inline constexpr std::array<std::array<char, 4>, santorini::square_count> quoted_squares = [] {
    std::array<std::array<char, 4>, santorini::square_count> names{};
    for (int s = 0; s < santorini::square_count; ++s)
        names[static_cast<std::size_t>(s)] = {
            '"', static_cast<char>('A' + santorini::file_of(static_cast<Square>(s))),
            static_cast<char>('1' + santorini::rank_of(static_cast<Square>(s))), '"'};
    return names;
}();

/// santorini::square_name, quoted: "-" for anything off the board.
inline std::string_view quoted_square(Square s) {
    if (s < 0 || s >= santorini::square_count) return "\"-\"";
    return {quoted_squares[static_cast<std::size_t>(s)].data(), 4};
}

/// Power keys, quoted, by PowerId (None: null). Keys are single words of letters.
inline const std::array<std::string, santorini::power_count + 1>& quoted_powers() {
    static const auto table = [] {
        std::array<std::string, santorini::power_count + 1> t;
        t[0] = "null";
        for (int p = 1; p <= santorini::power_count; ++p)
            t[static_cast<std::size_t>(p)] =
                '"' + std::string(santorini::power_info(static_cast<PowerId>(p)).key) + '"';
        return t;
    }();
    return table;
}

/// The quoted key of `p` ("Apollo"), or null.
inline std::string_view quoted_power(PowerId p) {
    const auto i = static_cast<std::size_t>(p);
    const auto& table = quoted_powers();
    return i < table.size() ? std::string_view(table[i]) : std::string_view("null");
}

}  // namespace protocol::santorini_text
