#include "server/accounts/username.hpp"

#include <cstdint>
#include <optional>

namespace server {
namespace {

constexpr std::size_t min_chars = 3;
constexpr std::size_t max_chars = 24;

// The next code point of `text` at `i` (advancing `i`), or nullopt for invalid UTF-8 (overlong
// forms, surrogates and values past U+10FFFF included).
std::optional<std::uint32_t> next_code_point(std::string_view text, std::size_t& i) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    std::uint32_t cp = 0;
    if (lead < 0x80) {
        ++i;
        return lead;
    }
    if ((lead & 0xe0) == 0xc0) length = 2, cp = lead & 0x1fu;
    else if ((lead & 0xf0) == 0xe0) length = 3, cp = lead & 0x0fu;
    else if ((lead & 0xf8) == 0xf0) length = 4, cp = lead & 0x07u;
    else return std::nullopt;
    if (i + length > text.size()) return std::nullopt;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xc0) != 0x80) return std::nullopt;
        cp = (cp << 6) | (byte(i + k) & 0x3fu);
    }
    constexpr std::uint32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < smallest[length] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
        return std::nullopt;
    i += length;
    return cp;
}

// Characters that make one name look like another, hide text or reorder it on screen.
bool invisible_or_control(std::uint32_t cp) {
    if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) return true;  // C0, DEL, C1
    if (cp == 0x00ad || cp == 0x034f || cp == 0x061c || cp == 0x115f || cp == 0x1160 ||
        cp == 0x17b4 || cp == 0x17b5 || cp == 0x180e || cp == 0x3164 || cp == 0xfeff ||
        cp == 0xffa0)
        return true;
    if (cp >= 0x200b && cp <= 0x200f) return true;  // zero-width, LRM, RLM
    if (cp >= 0x202a && cp <= 0x202e) return true;  // bidi embeddings and overrides
    if (cp >= 0x2060 && cp <= 0x206f) return true;  // word joiner, invisible operators, isolates
    if (cp >= 0xfe00 && cp <= 0xfe0f) return true;  // variation selectors
    if (cp >= 0xfff0 && cp <= 0xfffb) return true;  // specials, interlinear annotations
    if (cp >= 0xe0000 && cp <= 0xe0fff) return true;  // tags, variation selectors supplement
    if ((cp >= 0xe000 && cp <= 0xf8ff) || cp >= 0xf0000) return true;  // private use
    return false;
}

// Spaces other than the plain one (U+0020): they pass for it on screen.
bool other_space(std::uint32_t cp) {
    return cp == 0x00a0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x2028 ||
           cp == 0x2029 || cp == 0x202f || cp == 0x205f || cp == 0x3000;
}

}  // namespace

std::variant<Username, std::string> read_username(std::string_view text) {
    std::size_t chars = 0;
    bool last_space = false;
    for (std::size_t i = 0; i < text.size();) {
        const auto cp = next_code_point(text, i);
        if (!cp) return std::string("a username must be valid UTF-8");
        if (invisible_or_control(*cp))
            return std::string("a username has no control, bidirectional or invisible characters");
        if (other_space(*cp)) return std::string("a username uses only the plain space");
        if (*cp == ' ') {
            if (chars == 0 || last_space)
                return std::string("a username has no leading or double spaces");
            last_space = true;
        } else {
            last_space = false;
        }
        if (++chars > max_chars) return std::string("a username has 3 to 24 characters");
    }
    if (chars < min_chars) return std::string("a username has 3 to 24 characters");
    if (last_space) return std::string("a username has no trailing space");
    Username name{std::string(text), std::string(text)};
    for (char& c : name.key)
        if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
    return name;
}

}  // namespace server
