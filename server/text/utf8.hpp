#pragma once
// UTF-8 text, once for the whole server: whether bytes are UTF-8, the code points they hold, and
// the characters a name must not contain because they show nothing or reorder the text around
// them. Pure functions, no I/O and no dependencies, so it is its own library (`text`) that
// store/ links too (tests/server/unit/utf8_test.cpp).

#include <cstddef>
#include <optional>
#include <span>
#include <string_view>

namespace utf8 {

/// The code point that starts at `at` in `s`, with `at` advanced past it; nullopt (and `at`
/// unchanged) for invalid UTF-8: a bad lead or continuation byte, a sequence cut short, an
/// overlong form, a surrogate (U+D800-DFFF) or a value above U+10FFFF. `at` < `s.size()`.
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& at);

/// True when `s` is valid UTF-8 throughout (the empty string is).
bool valid(std::string_view s);

/// True for a byte that continues a character (10xxxxxx): no character starts there.
constexpr bool is_continuation(unsigned char byte) {
    return (byte & 0xC0) == 0x80;
}

/// The code points in valid UTF-8 `s` (as PostgreSQL's length() counts characters in a UTF-8
/// database): its bytes that are not continuation bytes.
std::size_t code_points(std::string_view s);

/// True for a control character: C0 (U+0000-001F), DEL (U+007F) or C1 (U+0080-009F).
bool is_control(char32_t cp);

/// A range of code points, both ends included, and what they are.
struct CodePointRange {
    char32_t first;
    char32_t last;
    std::string_view what;
};

/// The characters that show nothing of their own (zero-width and format characters, fillers,
/// variation selectors, tags), show whatever a font makes of them (private use), or reorder the
/// text around them (bidirectional controls, line and paragraph separators): in a name they make
/// two names look alike, a name look empty, or a list read wrongly. One list for usernames and
/// display names alike (docs/protocol.md "Names", docs/api.md "Accounts"); sorted, disjoint.
std::span<const CodePointRange> invisible_ranges();

/// True when `cp` is in one of invisible_ranges().
bool is_invisible(char32_t cp);

}  // namespace utf8
