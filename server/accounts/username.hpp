#pragma once
// Account usernames: what may be one, and the key two usernames are compared by. Pure
// functions, no I/O (tests/server/unit/username_test.cpp).

#include <string>
#include <string_view>
#include <variant>

namespace server {

/// A username that passed the checks: as the player typed it, and its comparison key.
struct Username {
    std::string shown;  ///< as typed (shown on the leaderboard and player pages)
    std::string key;    ///< ASCII letters folded to lower case: "Ann" and "ann" are one name
};

/// Checks `text` as a username: valid UTF-8, 3-24 characters (code points), letters, digits,
/// punctuation and inner single spaces; no control characters, none of the characters that show
/// nothing or reorder text (utf8::invisible_ranges(), the list display names refuse too), no
/// other Unicode spaces, no space at either end. Returns the username, or a message saying what
/// is wrong.
std::variant<Username, std::string> read_username(std::string_view text);

}  // namespace server
