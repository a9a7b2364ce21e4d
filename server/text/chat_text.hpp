#pragma once
// A chat line's text (docs/protocol.md, "Chat"): trimmed of spaces, 1 to 280 characters, one
// line, and something visible in it. Pure, like the rest of text/ (tests/server/unit/chat_text_test.cpp).

#include <cstddef>
#include <string>
#include <string_view>
#include <variant>

namespace utf8 {

/// The most characters (code points) a chat line holds.
inline constexpr std::size_t max_chat_code_points = 280;

/// Why a chat text is refused.
struct ChatProblem {
    std::string message;
};

/// The line `text` makes: trimmed of spaces at both ends; refused when it is not UTF-8, holds a
/// control character (a newline too: a line is one line), is empty or only spaces and invisible
/// characters (invisible_ranges), or has more than max_chat_code_points characters. Invisible
/// characters between visible ones stay (emoji sequences are made of them); the client shows
/// every line in a direction-isolated element, so a bidirectional control reorders only its line.
std::variant<std::string, ChatProblem> chat_line(std::string_view text);

}  // namespace utf8
