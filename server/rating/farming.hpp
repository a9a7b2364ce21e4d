#pragma once
// The anti-farming rule (docs/ratings.md, "Farming"): two players who play each other again and
// again in one pool move each other's ratings only a few times a day. The match is still
// played and stored; past the cap it is recorded as not rated.

#include <cstdint>

namespace rating {

/// How many rated matches two players may have together in one pool within the window.
inline constexpr int rated_matches_per_pair = 3;
/// The window: the 24 hours before a match's end (rolling, not a calendar day).
inline constexpr std::int64_t farming_window_ms = 24LL * 60 * 60 * 1000;

}  // namespace rating
