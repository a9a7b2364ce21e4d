#pragma once
// A stable hash of the whole Splendor state, stored with every step so that recovery can check
// that replaying the stored steps rebuilt exactly the state the players saw (docs/storage.md).

#include <string>

#include "engine/splendor/state.hpp"

namespace splendor {

/// 64-bit FNV-1a over every field of `state`, field by field (never the raw bytes: the struct
/// has padding), as 16 lower-case hex digits. Equal states hash equally in every build and on
/// every machine; changing the State's fields changes the hashes.
std::string state_hash(const State& state);

}  // namespace splendor
