#include "engine/santorini/square.hpp"

namespace santorini {

std::string square_name(Square s) {
    if (s == no_square) return "-";
    return {static_cast<char>('A' + file_of(s)), static_cast<char>('1' + rank_of(s))};
}

std::optional<Square> parse_square(std::string_view t) {
    if (t.size() != 2) return std::nullopt;
    char f = t[0], r = t[1];
    if (f >= 'a' && f <= 'e') f = static_cast<char>(f - 'a' + 'A');
    if (f < 'A' || f > 'E' || r < '1' || r > '5') return std::nullopt;
    return make_square(f - 'A', r - '1');
}

}  // namespace santorini
