#include "server/text/chat_text.hpp"

#include "server/text/utf8.hpp"

namespace utf8 {

std::variant<std::string, ChatProblem> chat_line(std::string_view text) {
    if (!valid(text)) return ChatProblem{"a chat line must be valid UTF-8"};
    const auto first = text.find_first_not_of(' ');
    if (first == std::string_view::npos) return ChatProblem{"a chat line cannot be empty"};
    text = text.substr(first, text.find_last_not_of(' ') - first + 1);
    std::size_t count = 0;
    bool visible = false;
    for (std::size_t at = 0; at < text.size();) {
        const auto cp = next_code_point(text, at);
        if (!cp) return ChatProblem{"a chat line must be valid UTF-8"};
        if (is_control(*cp))
            return ChatProblem{"a chat line cannot contain newlines or other control characters"};
        if (*cp != ' ' && !is_invisible(*cp)) visible = true;
        if (++count > max_chat_code_points)
            return ChatProblem{"a chat line has at most " + std::to_string(max_chat_code_points) +
                               " characters"};
    }
    if (!visible) return ChatProblem{"a chat line must show something"};
    return std::string(text);
}

}  // namespace utf8
