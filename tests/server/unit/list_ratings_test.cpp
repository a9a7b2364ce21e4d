// The ratings the public lists show (server/rooms/list_ratings.hpp; docs/protocol.md, "Ratings
// in the lists"): read once per player and pool, again once stale or after a match ended, a
// failed read not retried at once, bounded, and written into a live entry seat by seat.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/rooms/list_ratings.hpp"

using server::ListRatings;
using nlohmann::json;
using namespace std::chrono_literals;

TEST_CASE("a listed rating is read once, shown, and read again when stale or after a match", "[lists][ratings]") {
    ListRatings ratings(100, 600s);
    const auto t0 = ListRatings::Clock::time_point{} + 1h;
    CHECK(ratings.shown("p_ann", "santorini").is_null());
    REQUIRE(ratings.wanted("p_ann", "santorini", t0));
    CHECK_FALSE(ratings.wanted("p_ann", "santorini", t0));  // being read
    ratings.put("p_ann", "santorini", ListRatings::Shown{1834, false}, t0);
    CHECK(ratings.shown("p_ann", "santorini") == json{{"rating", 1834}, {"provisional", false}});
    CHECK(ratings.shown("p_ann", "splendor").is_null());  // pools are separate ladders
    CHECK_FALSE(ratings.wanted("p_ann", "santorini", t0 + 599s));
    CHECK(ratings.wanted("p_ann", "santorini", t0 + 600s));  // stale: read again, shown meanwhile
    CHECK(ratings.shown("p_ann", "santorini")["rating"] == 1834);
    ratings.put("p_ann", "santorini", ListRatings::Shown{1840, false}, t0 + 601s);

    // A match of hers ended: the old rating stays shown until the new one is read.
    ratings.forget("p_ann", "santorini");
    CHECK(ratings.shown("p_ann", "santorini")["rating"] == 1840);
    REQUIRE(ratings.wanted("p_ann", "santorini", t0 + 602s));
    ratings.put("p_ann", "santorini", ListRatings::Shown{1852, false}, t0 + 603s);
    CHECK(ratings.shown("p_ann", "santorini")["rating"] == 1852);
}

TEST_CASE("a failed read is not retried at once, and the book keeps at most its capacity", "[lists][ratings]") {
    ListRatings ratings(2, 600s);
    const auto t0 = ListRatings::Clock::time_point{} + 1h;
    REQUIRE(ratings.wanted("p_bob", "splendor", t0));
    ratings.put("p_bob", "splendor", std::nullopt, t0);
    CHECK(ratings.shown("p_bob", "splendor").is_null());
    CHECK_FALSE(ratings.wanted("p_bob", "splendor", t0 + 1s));
    CHECK(ratings.wanted("p_bob", "splendor", t0 + ListRatings::retry_after));
    ratings.put("p_bob", "splendor", ListRatings::Shown{1500, true}, t0 + 31s);

    REQUIRE(ratings.wanted("p_cy", "splendor", t0 + 32s));
    ratings.put("p_cy", "splendor", ListRatings::Shown{1600, true}, t0 + 32s);
    // Full: the oldest read (Bob's) goes to make room.
    REQUIRE(ratings.wanted("p_dee", "splendor", t0 + 33s));
    CHECK(ratings.shown("p_bob", "splendor").is_null());
    CHECK(ratings.shown("p_cy", "splendor")["rating"] == 1600);
    // Nothing to evict while every entry is being read: not now.
    REQUIRE(ratings.wanted("p_cy", "splendor", t0 + 700s));
    CHECK_FALSE(ratings.wanted("p_eve", "splendor", t0 + 700s));
}

TEST_CASE("a live entry carries one rating per seat, null for a computer or a rating not read yet", "[lists][ratings]") {
    ListRatings ratings;
    const auto t0 = ListRatings::Clock::time_point{} + 1h;
    REQUIRE(ratings.wanted("p_ann", "santorini_powers", t0));
    ratings.put("p_ann", "santorini_powers", ListRatings::Shown{1500, true}, t0);
    const json entry = {{"id", "m_1"}, {"players", {"Ann", "Computer (level 2)", "Bob"}}};
    const json rated = server::with_ratings(entry, "santorini_powers", {"p_ann", "", "p_bob"}, ratings);
    CHECK(rated["ratings"] == json::array({json{{"rating", 1500}, {"provisional", true}}, nullptr, nullptr}));
    CHECK(rated["players"] == entry["players"]);
    CHECK(server::with_ratings(nullptr, "santorini", {"p_ann"}, ratings).is_null());
}
