#include "server/accounts/player_name.hpp"

#include <cstdint>

namespace server {
namespace {

// The next code point of `text` from `at` (advanced past it), or nullopt for invalid UTF-8:
// a bad lead or continuation byte, a sequence cut short, an overlong form, a surrogate, or a
// value above U+10FFFF.
std::optional<std::uint32_t> next_code_point(std::string_view text, std::size_t& at) {
    const auto lead = static_cast<unsigned char>(text[at]);
    std::uint32_t cp = 0;
    std::size_t extra = 0;
    if (lead < 0x80)
        cp = lead;
    else if ((lead & 0xE0) == 0xC0)
        cp = lead & 0x1Fu, extra = 1;
    else if ((lead & 0xF0) == 0xE0)
        cp = lead & 0x0Fu, extra = 2;
    else if ((lead & 0xF8) == 0xF0)
        cp = lead & 0x07u, extra = 3;
    else
        return std::nullopt;
    if (extra > 0 && at + extra >= text.size()) return std::nullopt;  // cut short
    for (std::size_t k = 1; k <= extra; ++k) {
        const auto next = static_cast<unsigned char>(text[at + k]);
        if ((next & 0xC0) != 0x80) return std::nullopt;
        cp = (cp << 6) | (next & 0x3Fu);
    }
    static constexpr std::uint32_t min_for_length[] = {0, 0x80, 0x800, 0x10000};
    if (cp < min_for_length[extra] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return std::nullopt;
    at += extra + 1;
    return cp;
}

bool is_control(std::uint32_t cp) {
    return cp < 0x20 || (cp >= 0x7F && cp < 0xA0);
}

// Characters that change the order text is shown in (a name could reverse what follows it in
// a list) or that show nothing at all (two names that look the same, an empty-looking name).
bool hides_or_reorders(std::uint32_t cp) {
    return cp == 0x061C                        // Arabic letter mark
           || cp == 0x180E                     // Mongolian vowel separator
           || (cp >= 0x200B && cp <= 0x200F)   // zero-width space, (non-)joiner, LRM, RLM
           || (cp >= 0x2028 && cp <= 0x202E)   // line/paragraph separators, embeddings, overrides
           || (cp >= 0x2060 && cp <= 0x2069)   // word joiner, invisible operators, isolates
           || cp == 0xFEFF;                    // zero-width no-break space (BOM)
}

}  // namespace

std::optional<std::string> name_problem(std::string_view name) {
    if (name.empty()) return "a name cannot be empty";
    std::size_t count = 0;
    bool visible = false;
    for (std::size_t at = 0; at < name.size();) {
        const auto cp = next_code_point(name, at);
        if (!cp) return "a name must be valid UTF-8";
        if (is_control(*cp)) return "a name cannot contain control characters";
        if (hides_or_reorders(*cp))
            return "a name cannot contain bidirectional-override or zero-width characters";
        if (*cp != ' ') visible = true;
        if (++count > max_name_code_points)
            return "a name has at most " + std::to_string(max_name_code_points) + " characters";
    }
    if (!visible) return "a name cannot be only spaces";
    return std::nullopt;
}

}  // namespace server
