#include "server/text/utf8.hpp"

#include <algorithm>
#include <array>

namespace utf8 {
namespace {

constexpr std::array<CodePointRange, 17> invisible{{
    {0x00AD, 0x00AD, "soft hyphen"},
    {0x034F, 0x034F, "combining grapheme joiner"},
    {0x061C, 0x061C, "Arabic letter mark"},
    {0x115F, 0x1160, "Hangul choseong and jungseong fillers"},
    {0x17B4, 0x17B5, "Khmer inherent vowels"},
    {0x180E, 0x180E, "Mongolian vowel separator"},
    {0x200B, 0x200F, "zero-width space, non-joiner and joiner, left-to-right and right-to-left marks"},
    {0x2028, 0x202E, "line and paragraph separators, bidirectional embeddings and overrides"},
    {0x2060, 0x206F, "word joiner, invisible operators, bidirectional isolates, deprecated format characters"},
    {0x3164, 0x3164, "Hangul filler"},
    {0xE000, 0xF8FF, "private use"},
    {0xFE00, 0xFE0F, "variation selectors"},
    {0xFEFF, 0xFEFF, "zero-width no-break space (byte order mark)"},
    {0xFFA0, 0xFFA0, "halfwidth Hangul filler"},
    {0xFFF0, 0xFFFB, "unassigned specials, interlinear annotation controls"},
    {0xE0000, 0xE0FFF, "tags, variation selectors supplement"},
    {0xF0000, 0x10FFFF, "supplementary private use A and B"},
}};

constexpr bool sorted_and_disjoint() {
    for (std::size_t i = 0; i < invisible.size(); ++i) {
        if (invisible[i].first > invisible[i].last) return false;
        if (i > 0 && invisible[i - 1].last >= invisible[i].first) return false;
    }
    return true;
}
static_assert(sorted_and_disjoint(), "is_invisible's binary search needs sorted, disjoint ranges");

}  // namespace

std::optional<char32_t> next_code_point(std::string_view s, std::size_t& at) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) {
        ++at;
        return lead;
    }
    std::size_t length = 0;
    char32_t cp = 0;
    if ((lead & 0xE0) == 0xC0)
        length = 2, cp = lead & 0x1Fu;
    else if ((lead & 0xF0) == 0xE0)
        length = 3, cp = lead & 0x0Fu;
    else if ((lead & 0xF8) == 0xF0)
        length = 4, cp = lead & 0x07u;
    else
        return std::nullopt;  // a continuation byte, or 0xF8-0xFF
    if (s.size() - at < length) return std::nullopt;  // cut short
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(at + k) & 0xC0) != 0x80) return std::nullopt;
        cp = (cp << 6) | (byte(at + k) & 0x3Fu);
    }
    // The shortest form only: a longer one could smuggle '/' or NUL past a byte-wise check.
    constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < smallest[length] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return std::nullopt;
    at += length;
    return cp;
}

bool valid(std::string_view s) {
    for (std::size_t at = 0; at < s.size();)
        if (!next_code_point(s, at)) return false;
    return true;
}

std::size_t code_points(std::string_view s) {
    return static_cast<std::size_t>(std::count_if(s.begin(), s.end(), [](char c) {
        return !is_continuation(static_cast<unsigned char>(c));
    }));
}

bool is_control(char32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F);
}

std::span<const CodePointRange> invisible_ranges() {
    return invisible;
}

bool is_invisible(char32_t cp) {
    // The first range that ends at or after cp: cp is in it if it also starts at or before.
    const auto it = std::lower_bound(invisible.begin(), invisible.end(), cp,
                                     [](const CodePointRange& r, char32_t c) { return r.last < c; });
    return it != invisible.end() && it->first <= cp;
}

}  // namespace utf8
