// What a viewer may see of the state and of the steps.

#include "engine/santorini/view.hpp"
#include "tests/engine/scenario.hpp"

using namespace santorini;

TEST_CASE("view: the random state is hidden from every viewer, nothing else is", "[view]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,C3 B:D4,E1 A");
    s.rng = 12345;
    for (int viewer : {spectator, 0, 1}) {
        State v = view_for(s, viewer);
        CHECK(v.rng == 0);
        CHECK(to_notation(v) == to_notation(s));
    }
    CHECK(revealed_view(s).rng == 0);
}

TEST_CASE("view: without secrets in play every viewer reads every step in full", "[view]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,C3 B:D4,E1 A");
    auto step = parse_step(s, "move B2 B3");
    REQUIRE(step.has_value());
    for (int viewer : {spectator, 0, 1})
        CHECK(step_text_for(s, *step, 0, viewer) == "move B2 B3");
}
