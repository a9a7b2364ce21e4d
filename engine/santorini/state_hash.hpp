#pragma once
// A stable hash of the whole engine state, stored with every step so that recovery can check
// that replaying the stored steps rebuilt exactly the state the players saw (docs/storage.md).

#include <string>

#include "engine/santorini/state.hpp"

namespace santorini {

/// 64-bit FNV-1a over every field of `state`, field by field (never the raw bytes: the struct
/// has padding), as 16 lower-case hex digits. Equal states hash equally in every build and on
/// every little- or big-endian machine; changing the State's fields changes the hashes, so a
/// server with a new State layout cannot check matches stored by an older one (it says so).
std::string state_hash(const santorini::State& state);

}  // namespace santorini
