#include "engine/santorini/perft.hpp"

#include <catch2/catch_test_macros.hpp>

#include "engine/santorini/notation.hpp"

using namespace santorini;

TEST_CASE("perft shortcut agrees with the step generator") {
    for (const char* fen : {"00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A",
                            "01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 A",
                            "01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 B"}) {
        auto s = parse_notation(fen);
        REQUIRE(s.ok());
        for (int d = 1; d <= 3; ++d) CHECK(perft(*s, d) == perft_by_steps(*s, d));
    }
}
