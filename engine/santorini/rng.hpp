#pragma once
// The engine's randomness: the SplitMix64 both engines share (engine/common/splitmix.hpp).

#include "engine/common/splitmix.hpp"

namespace santorini {

using engine_common::next_random;
using engine_common::random_below;

}  // namespace santorini
