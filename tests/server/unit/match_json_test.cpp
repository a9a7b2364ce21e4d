// The API's JSON (server/match/match_json.hpp) from stored rows: headers, replays, views after a
// step, player pages, histories and leaderboards, and the hidden-information rule.

#include <catch2/catch_test_macros.hpp>

#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/santorini/game.hpp"
#include "server/match/match_json.hpp"
#include "tests/server/support/stored_game.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

using nlohmann::json;
using namespace server;

namespace {

ReplayPosition replay_of(const store::StoredMatch& m, std::size_t upto) {
    std::vector<std::string> records;
    for (const auto& s : m.steps) records.push_back(s.step_json);
    auto settings = std::get<StoredSettings>(read_stored_settings(m.settings_json));
    return std::get<ReplayPosition>(replay(settings, m.seed, records, upto));
}

// The engine's state behind a replayed game (the tests may look; server/ may not).
const santorini::State& state_of(const ReplayPosition& at) {
    return dynamic_cast<const protocol::SantoriniGame&>(*at.game).state();
}

protocol::LobbySettings simple_powers() {
    protocol::LobbySettings lobby;
    lobby.powers = "simple";
    lobby.draft = "full";
    return lobby;
}

}  // namespace

TEST_CASE("times are ISO-8601 in UTC with milliseconds, or null", "[match_json]") {
    CHECK(iso8601(1732380000123) == "2024-11-23T16:40:00.123Z");
    CHECK(iso8601(1000) == "1970-01-01T00:00:01.000Z");
    CHECK(iso8601(0).is_null());
}

TEST_CASE("a finished match's header has every field the client reads", "[match_json]") {
    const auto played = stored_game::play(simple_powers(), 42, 0);
    auto m = stored_game::as_stored(played, "finished", R"({"winners":[1],"reason":"win"})");
    m.seats[0].rating_after = 1420.5;
    m.seats[0].deviation_after = 290.0;  // a first rated game: no rating before
    m.seats[1].rating_before = 1600;
    m.seats[1].deviation_before = 80;
    m.seats[1].rating_after = 1610;
    m.seats[1].deviation_after = 78;
    m.seats[1].team = 1;
    const ReplayPosition all = replay_of(m, m.steps.size());
    const json h = match_header(m, all.game.get());

    CHECK(h["id"] == "m_test");
    CHECK(h["game"] == "santorini");
    CHECK(h["status"] == "finished");
    CHECK(h["live"] == false);
    CHECK(h["settings"]["powers"] == "simple");
    CHECK(h["created_at"] == "2024-11-23T16:40:00.123Z");
    CHECK(h["finished_at"].is_string());
    CHECK(h["pool"] == "santorini_powers");
    CHECK(h["steps"] == m.steps.size());
    CHECK(h["result"]["winners"] == json::array({1}));
    REQUIRE(h["seats"].size() == 2);
    const json& ann = h["seats"][0];
    CHECK(ann["seat"] == 0);
    CHECK(ann["team"].is_null());
    CHECK(ann["player"] == json{{"id", "p_ann"}, {"name", "Ann"}});
    // The drafted god comes from the replayed state, not the (empty) stored column.
    CHECK(ann["power"].is_string());
    CHECK(ann["rating_before"] == json{{"rating", 1500.0}, {"deviation", 350.0}});
    CHECK(ann["rating_after"] == json{{"rating", 1420.5}, {"deviation", 290.0}});
    CHECK(h["seats"][1]["team"] == 1);
    CHECK(h["seats"][1]["rating_after"]["rating"].get<double>() -
              h["seats"][1]["rating_before"]["rating"].get<double>() == 10.0);

    // Without the replay the stored columns are used; unrated seats have null ratings.
    m.seats[0].power = "apollo";
    m.seats[0].rating_after.reset();
    const json plain = match_header(m);
    CHECK(plain["seats"][0]["power"] == "apollo");
    CHECK(plain["seats"][0]["rating_before"].is_null());
    CHECK(plain["seats"][0]["rating_after"].is_null());
}

TEST_CASE("a live match shows no result and is marked live", "[match_json]") {
    const auto played = stored_game::play(protocol::LobbySettings{}, 5, 0, 8);
    const auto m = stored_game::as_stored(played, "live", R"({"winners":[0],"reason":"win"})");
    const json h = match_header(m);
    CHECK(h["live"] == true);
    CHECK(h["status"] == "live");
    CHECK(h["result"].is_null());
    CHECK(h["finished_at"].is_null());
    CHECK(h["pool"] == "santorini");
    CHECK(h["seats"][0]["power"].is_null());
}

TEST_CASE("a replay lists every record in order with seat, player, step and time", "[match_json]") {
    const auto played = stored_game::play(simple_powers(), 9, 1);
    auto m = stored_game::as_stored(played, "finished", R"({"winners":[0],"reason":"win"})");
    const ReplayPosition all = replay_of(m, m.steps.size());
    const json r = replay_json(m, &all);
    CHECK(r["match"]["id"] == "m_test");
    REQUIRE(r["steps"].size() == m.steps.size());
    for (std::size_t i = 0; i < m.steps.size(); ++i) {
        const json& s = r["steps"][i];
        CHECK(s["number"] == i + 1);
        CHECK(s["seat"] == all.seats[i]);
        CHECK(s["player"] == (all.seats[i] == 0 ? "p_ann" : "p_bob"));
        CHECK(s["step"] == json::parse(m.steps[i].step_json));
        CHECK(s["at"].is_string());
    }

    // Events are steps too; the server's own records have no player.
    m.steps.push_back(store::StoredStep{static_cast<std::uint32_t>(m.steps.size() + 1), "",
                                        R"({"kind":"timeout","seat":1})", 1732380099000, ""});
    const json events = replay_json(m, nullptr);
    CHECK(events["steps"].back()["seat"] == 1);
    CHECK(events["steps"].back()["player"].is_null());
    CHECK(events["steps"].back()["step"]["kind"] == "timeout");
}

TEST_CASE("a live match that cannot be replayed shows only the kind of its steps", "[match_json]") {
    const auto played = stored_game::play(protocol::LobbySettings{}, 5, 0, 6);
    const auto m = stored_game::as_stored(played, "live");
    const json r = replay_json(m, nullptr);
    for (const json& s : r["steps"]) {
        CHECK(s["step"].size() == 1);
        CHECK(s["step"].contains("kind"));
    }
    // With the replay, steps without secrets are shown whole.
    const ReplayPosition all = replay_of(m, m.steps.size());
    CHECK(replay_json(m, &all)["steps"][0]["step"] == json::parse(m.steps[0].step_json));
}

TEST_CASE("the view after N is the live view's shape: spectators' while live, revealed after", "[match_json]") {
    const auto played = stored_game::play(simple_powers(), 77, 0);
    const std::string result = R"({"winners":[0],"reason":"win"})";
    for (const std::string status : {"live", "finished"}) {
        const auto m = stored_game::as_stored(played, status, result);
        for (std::size_t n : {std::size_t{0}, std::size_t{3}, m.steps.size()}) {
            INFO(status << " after " << n);
            const ReplayPosition at = replay_of(m, n);
            const json v = view_after_json(m, at);
            CHECK(v["match"] == "m_test");
            CHECK(v["game"] == "santorini");
            REQUIRE(v["seats"].size() == 2);
            CHECK(v["seats"][1]["player"]["name"] == "Bob");
            CHECK(v["seats"][0].contains("side"));
            CHECK(v["seats"][0]["out"] == false);
            CHECK(v["history"].size() == n);
            const santorini::State expected = status == "live"
                                                  ? santorini::view_for(state_of(at), santorini::spectator)
                                                  : santorini::revealed_view(state_of(at));
            CHECK(v["state"] == protocol::state_json(expected, nullptr));
            for (int s = 0; s < 2; ++s) {
                const json& seat = v["seats"][static_cast<std::size_t>(s)];
                CHECK(seat["seat"] == s);
                CHECK(seat["side"] == expected.seat(s).side);
                CHECK(seat["power"] == (expected.seat(s).power == santorini::PowerId::None
                                            ? json(nullptr)
                                            : json(santorini::power_info(expected.seat(s).power).key)));
            }
            CHECK_FALSE(v["state"].contains("legal"));
            const bool last = n == m.steps.size();
            if (last && status == "finished") {
                CHECK(v["status"] == "finished");
                CHECK(v["result"] == json::parse(result));
            } else {
                CHECK(v["result"].is_null());
            }
        }
        CHECK(view_after_json(m, replay_of(m, 0))["status"] == "draft");
    }
}

TEST_CASE("player pages, rating histories and leaderboards", "[match_json]") {
    const std::int64_t now = 1732380000000;
    store::PoolRating established_rating{"santorini", RatingValue{true, 1700, 60, 0.06, 30, now - 1000}};
    store::PoolRating new_rating{"santorini_powers", RatingValue{true, 1550, 250, 0.06, 2, now - 1000}};
    // An established player who has not played for a year is provisional again.
    store::PoolRating stale{"santorini", RatingValue{true, 1700, 60, 0.06, 30, now - 365LL * 86400000}};
    CHECK(established(established_rating.value, now));
    CHECK_FALSE(established(new_rating.value, now));
    CHECK_FALSE(established(stale.value, now));

    const auto played = stored_game::play(protocol::LobbySettings{}, 5, 0, 4);
    const json page = player_json(store::Player{"p_ann", "Ann", 1000}, {established_rating, new_rating},
                                  {stored_game::as_stored(played, "live")}, now);
    CHECK(page["id"] == "p_ann");
    CHECK(page["name"] == "Ann");
    CHECK(page["created_at"] == "1970-01-01T00:00:01.000Z");
    REQUIRE(page["ratings"].size() == 2);
    CHECK(page["ratings"][0]["pool"] == "santorini");
    CHECK(page["ratings"][0]["provisional"] == false);
    CHECK(page["ratings"][0]["games"] == 30);
    CHECK(page["ratings"][0]["volatility"] == 0.06);
    CHECK(page["ratings"][1]["provisional"] == true);
    CHECK(page["recent_matches"].size() == 1);
    CHECK(page["recent_matches"][0]["id"] == "m_test");

    const json history = rating_history_json(
        "p_ann", "santorini",
        {store::RatingChange{2, "santorini", "m_2", 1600, 100, 0.06, 2000},
         store::RatingChange{1, "santorini", "m_1", 1550, 200, 0.06, 1000}});
    CHECK(history["player"] == "p_ann");
    CHECK(history["pool"] == "santorini");
    REQUIRE(history["history"].size() == 2);
    CHECK(history["history"][0]["match"] == "m_1");  // oldest first: the chart reads left to right
    CHECK(history["history"][1] ==
          json{{"rating", 1600.0}, {"deviation", 100.0}, {"volatility", 0.06}, {"match", "m_2"},
               {"at", "1970-01-01T00:00:02.000Z"}});

    const json board = leaderboard_json(
        "santorini", {store::LeaderboardEntry{3, "p_ann", "Ann", established_rating.value}}, now);
    CHECK(board["pool"] == "santorini");
    REQUIRE(board["entries"].size() == 1);
    CHECK(board["entries"][0]["rank"] == 3);
    CHECK(board["entries"][0]["player"] == json{{"id", "p_ann"}, {"name", "Ann"}});
    CHECK(board["entries"][0]["rating"] == 1700.0);
    CHECK(board["entries"][0]["games"] == 30);
    CHECK(board["entries"][0]["deviation"].get<double>() >= 60.0);
}
