// The loop guard (docs/engine.md 3.8, G18) for sides of three or more workers: a turn never
// passes twice through one state, however many workers travel, and turns stay finite.

#include <set>
#include <string>

#include "engine/santorini/perft.hpp"
#include "engine/santorini/turn_flow.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {

// Walks every path of the turn through real play, checking that no path meets a state of the
// turn twice (midturn_key: the whole state but the guard), and counts the full turns.
std::uint64_t walk(const State& s, std::set<std::string>& path, bool& repeated) {
    StepList list;
    legal_steps(s, list);
    std::uint64_t n = 0;
    for (const Step& st : list) {
        State next = s;
        apply_step(next, st);
        if (!same_turn(s, next)) {
            ++n;
            continue;
        }
        std::string key = detail::midturn_key(next);
        if (!path.insert(key).second) {
            repeated = true;
            continue;
        }
        n += walk(next, path, repeated);
        path.erase(key);
    }
    return n;
}

std::uint64_t checked_turns(const char* text) {
    State s = position(text);
    std::set<std::string> path{detail::midturn_key(s)};
    bool repeated = false;
    std::uint64_t n = walk(s, path, repeated);
    CHECK_FALSE(repeated);
    CHECK(count_full_turns(s) == n);
    CHECK(perft_distinct(s) > 0);
    return n;
}

}  // namespace

// Row 1 (A1-D1, or A1-E1) is open, every other square is domed but B's E5 and E4.
TEST_CASE("loop guard: Hermes with three workers in a corridor never repeats a state", "[loop][hermes]") {
    std::uint64_t n = checked_turns("0D0D0D0D0/0D0D0D0D0/0D0D0D0D0D/0D0D0D0D0D/00000D A:A1,B1,C1 B:E5,E4 A powers=Hermes,-");
    CHECK(n > 0);
}

TEST_CASE("loop guard: Hermes with four workers (a list of placements) stays finite", "[loop][hermes]") {
    std::uint64_t n = checked_turns("0D0D0D0D0/0D0D0D0D0/0D0D0D0D0D/0D0D0D0D0D/00000 A:A1,B1,C1,D1 B:E5,E4 A powers=Hermes,-");
    CHECK(n > 0);
}

TEST_CASE("loop guard: Triton with three workers on the perimeter never loops", "[loop][triton]") {
    std::uint64_t n = checked_turns("0D0D0D0D0/0D0D0D0D0/0D0D0D0D0D/00D0D0D0D/00000D A:A1,B1,C1 B:E5,E4 A powers=Triton,-");
    CHECK(n > 0);
}

TEST_CASE("loop guard: Hermes as the Golden Fleece held by a side of three workers", "[loop][hermes][fleece]") {
    // The Ram on A2 (open) touches A1: side A holds Hermes' power for the turn.
    const char* text = "0D0D0D0D0/0D0D0D0D0/0D0D0D0D0D/00D0D0D0D/00000D A:A1,B1,C1 B:E5,E4 A fleece=Hermes ram=A2";
    REQUIRE((position(text).fleece_holders & 1) != 0);
    std::uint64_t n = checked_turns(text);
    // More turns than without the fleece (travel on row 1): Hermes is in effect.
    CHECK(n > checked_turns("0D0D0D0D0/0D0D0D0D0/0D0D0D0D0D/00D0D0D0D/00000D A:A1,B1,C1 B:E5,E4 A"));
}

TEST_CASE("loop guard: Artemis with four workers", "[loop][artemis]") {
    checked_turns("00000/00000/00000/00000/00000 A:A1,B1,C1,D1 B:A5,E5 A powers=Artemis,-");
}

TEST_CASE("notation: sides of three workers and workers on a card read and write", "[notation][loop]") {
    for (const char* text : {
             "00000/00000/00000/00000/00000 A:A1,C3,E5 B:A5,E1,C1 A powers=Graeae,Graeae",
             "00000/00000/00100/00000/00000 A:A1,B1 B:E5,E4,B3 C:D2,A5 A powers=Apollo,Gaea,- reserve=0,1,0",
             "00000/00000/00000/00000/00000 A:A1,B1 B:E5,E4 B powers=Gaea,- reserve=2,0",
         }) {
        INFO(text);
        CHECK(to_notation(position(text)) == text);
    }
    CHECK_FALSE(parse_notation("00000/00000/00000/00000/00000 A:A1,B1 B:E5,E4 A reserve=2").ok());
    CHECK_FALSE(parse_notation("00000/00000/00000/00000/00000 A:A1,B1 B:E5,E4 A reserve=9,0").ok());
}
