#include "engine/santorini/view.hpp"

namespace santorini {

State view_for(const State& state, int /*viewer*/) {
    State v = state;
    v.rng = 0;  // nobody may learn what the shuffles will deal next
    return v;
}

State revealed_view(const State& state) {
    State v = state;
    v.rng = 0;
    return v;
}

}  // namespace santorini
