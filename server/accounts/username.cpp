#include "server/accounts/username.hpp"

#include "server/text/utf8.hpp"

namespace server {
namespace {

constexpr std::size_t min_chars = 3;
constexpr std::size_t max_chars = 24;

// Spaces other than the plain one (U+0020): they pass for it on screen. (U+2028 and U+2029
// are refused as invisible, with display names.)
bool other_space(char32_t cp) {
    return cp == 0x00a0 || cp == 0x1680 || (cp >= 0x2000 && cp <= 0x200a) || cp == 0x202f ||
           cp == 0x205f || cp == 0x3000;
}

}  // namespace

std::variant<Username, std::string> read_username(std::string_view text) {
    std::size_t chars = 0;
    bool last_space = false;
    for (std::size_t i = 0; i < text.size();) {
        const auto cp = utf8::next_code_point(text, i);
        if (!cp) return std::string("a username must be valid UTF-8");
        if (utf8::is_control(*cp) || utf8::is_invisible(*cp))
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
