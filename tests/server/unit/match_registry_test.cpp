// server::MatchRegistry's seats: who counts as seated in a live match, kept while the match
// plays anywhere in the fleet and freed when it is over. (Holding matches themselves is
// covered wherever a Match is made: hub, restore and fleet tests.)

#include "server/match/match_registry.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <string>
#include <vector>

namespace {

std::vector<std::string> sorted(std::vector<std::string> ids) {
    std::sort(ids.begin(), ids.end());
    return ids;
}

}  // namespace

TEST_CASE("seats counted for a match run elsewhere stay until it is over", "[registry]") {
    server::MatchRegistry registry;
    registry.seat_once("m1", {"ann", "bob"});
    registry.seat_once("m2", {"ann", "cat"});
    CHECK(registry.matches_of("ann") == std::vector<std::string>{"m1", "m2"});
    CHECK(registry.count_of("bob") == 1);
    CHECK(sorted(registry.seated_elsewhere()) == std::vector<std::string>{"m1", "m2"});
    CHECK(registry.held().empty());

    // Counted once: a second reading of the same seats changes nothing.
    registry.seat_once("m1", {"ann", "bob"});
    CHECK(registry.count_of("ann") == 2);

    // A match this node lost to a takeover: nothing was held to shut down, and its players
    // still sit in it.
    const auto lost = registry.drop("m1");
    REQUIRE(lost.has_value());
    CHECK(*lost == nullptr);
    CHECK(registry.matches_of("bob") == std::vector<std::string>{"m1"});
    CHECK(!registry.drop("m9").has_value());  // never seated here

    // Its owner says it is over: free (unless_held changes nothing for a match not held).
    registry.free_seats("m1", /*unless_held=*/true);
    CHECK(registry.matches_of("bob").empty());
    CHECK(registry.matches_of("ann") == std::vector<std::string>{"m2"});
    CHECK(registry.seated_elsewhere() == std::vector<std::string>{"m2"});
    registry.free_seats("m2");
    CHECK(registry.count_of("ann") == 0);
    CHECK(registry.seated_elsewhere().empty());
}
