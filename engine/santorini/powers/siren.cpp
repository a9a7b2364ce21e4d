// Siren: not implemented yet (power_catalog.cpp: implemented = 0, so it is never offered).

#include "engine/santorini/powers/powers.hpp"

namespace santorini::powers {

const PowerRules siren{};

}  // namespace santorini::powers
