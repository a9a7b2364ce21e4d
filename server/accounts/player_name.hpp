#pragma once
// Display names: what a guest may call themselves. A name is shown to every other player, in
// lists and in replays, so it must not be able to disguise itself or the text around it.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace server {

/// Code points in a display name, at most (the database allows 64; docs/api.md).
inline constexpr std::size_t max_name_code_points = 24;

/// Why `name` cannot be a display name, or nullopt when it can: valid UTF-8 of 1 to
/// max_name_code_points code points, not only spaces, no control characters (C0, DEL, C1) and
/// none of the characters that show nothing or reorder text (utf8::invisible_ranges(), the list
/// usernames refuse too).
std::optional<std::string> name_problem(std::string_view name);

}  // namespace server
