// Recovery without a database: a match's stored records (RecordingStore) replayed by
// Match::restore give the same game, a changed state hash is refused, and the last record
// carries the result and a rating update.

#include <catch2/catch_test_macros.hpp>
#include <random>

#include "server/match/match.hpp"
#include "tests/server/support/hub_harness.hpp"

// Everything of this file in a namespace of its own: server_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace restore_test {

using namespace server;
using namespace server::test;

namespace {

struct Table {
    boost::asio::io_context io;
    RecordingStore store;
    Metrics metrics;
    MatchOptions options;
    std::vector<std::shared_ptr<FakeParticipant>> seats;
    std::uint64_t next_connection = 100;

    /// Any lobby settings (Splendor's too), one seat per player.
    struct Lobby {
        json settings;
    };

    explicit Table(const std::string& powers, bool rated = true)
        : Table(Lobby{[&] {
              json lobby = settings_json(2, powers);
              lobby["rated"] = rated;
              return lobby;
          }()}) {}
    explicit Table(const Lobby& lobby_settings) {
        const json& lobby = lobby_settings.settings;
        options.id = "m_restore";
        auto settings = protocol::lobby_settings_from_json(lobby);
        REQUIRE(std::holds_alternative<protocol::LobbySettings>(settings));
        options.settings = std::get<protocol::LobbySettings>(settings);
        options.seats = {Member{"p_ann", "Ann"}, Member{"p_bob", "Bob"}, Member{"p_cy", "Cy"},
                         Member{"p_di", "Di"}};
        options.seats.resize(static_cast<std::size_t>(options.settings.players));
        options.seed = 20261122;
        options.challenger = 1;
    }
    void settle() {
        io.restart();
        io.poll();
    }
    std::shared_ptr<Match> open(std::shared_ptr<Match> match) {
        seats.clear();
        for (const auto& m : options.seats) {
            seats.push_back(std::make_shared<FakeParticipant>(m.id, ++next_connection));
            match->open(seats.back(), std::nullopt, {});
        }
        settle();
        return match;
    }
    /// Plays up to `steps` random legal steps; returns how many were played.
    int play(Match& match, int steps, std::mt19937& rng) {
        int played = 0;
        for (; played < steps; ++played) {
            std::shared_ptr<FakeParticipant> decider;
            for (const auto& s : seats)
                if (decides(*s, match.id())) decider = s;
            if (!decider) break;
            match.step(decider, pick_step(decider->view(match.id()).view, rng), {});
            settle();
        }
        return played;
    }
    std::vector<ReplayStep> replay_steps() const {
        std::vector<ReplayStep> out;
        for (const auto& r : store.records())
            out.push_back(ReplayStep{r.number, r.player_id, r.step_json, r.at_ms, r.state_hash});
        return out;
    }
    auto restore(const std::vector<ReplayStep>& steps) {
        return Match::restore(io, options, steps, 0, store, metrics, [](auto&&...) {});
    }
};

}  // namespace

TEST_CASE("A restored match is the same game and goes on numbering its steps", "[match][restore]") {
    for (const std::string powers : {"none", "simple"}) {
        INFO("powers " << powers);
        Table t(powers);
        std::mt19937 rng(7);
        auto created = Match::create(t.io, t.options, t.store, t.metrics, [](auto&&...) {});
        auto original = t.open(std::get<std::shared_ptr<Match>>(created));
        const int played = t.play(*original, 12, rng);
        REQUIRE(played == 12);
        const auto records = t.store.records();
        REQUIRE(records.size() == 12);
        for (std::size_t i = 0; i < records.size(); ++i) {
            CHECK(records[i].number == i + 1);
            CHECK(records[i].state_hash.size() == 16);
            CHECK_FALSE(records[i].finish);
        }
        const json before = t.seats[0]->view(original->id()).view;

        auto restored_or = t.restore(t.replay_steps());
        REQUIRE(std::holds_alternative<std::shared_ptr<Match>>(restored_or));
        auto restored = t.open(std::get<std::shared_ptr<Match>>(restored_or));
        const auto after = t.seats[0]->view(restored->id());
        CHECK(after.view["state"] == before["state"]);
        CHECK(after.view["history"] == before["history"]);
        CHECK(after.view["status"] == before["status"]);
        // Versions restart above anything issued before: clients get a snapshot.
        CHECK(after.version > 1'000'000'000'000ull);

        // The restored match plays on; its records continue the numbering, and the last one
        // carries the finish with a rating update.
        original->shutdown();
        t.play(*restored, 2000, rng);
        const auto all = t.store.records();
        REQUIRE(all.size() > records.size());
        CHECK(all[records.size()].number == records.size() + 1);
        const auto& last = all.back();
        REQUIRE(last.finish);
        CHECK(last.finish->status == "finished");
        CHECK(last.finish->pool == (powers == "none" ? "santorini" : "santorini_powers"));
        const json result = json::parse(last.finish->result_json);
        REQUIRE(result["winners"].size() == 1);
        REQUIRE(last.finish->rate);
        const auto rated = last.finish->rate({RatingValue{}, RatingValue{}}, 1'800'000'000'000);
        REQUIRE(rated.size() == 2);
        const int winner = result["winners"][0];
        CHECK(rated[static_cast<std::size_t>(winner)].rating > 1500);
        CHECK(rated[static_cast<std::size_t>(1 - winner)].rating < 1500);
        CHECK(rated[0].games == 1);
    }
}

TEST_CASE("A casual match finishes without a pool or a rating update", "[match][restore]") {
    Table t("none", /*rated=*/false);
    std::mt19937 rng(11);
    auto created = Match::create(t.io, t.options, t.store, t.metrics, [](auto&&...) {});
    auto match = t.open(std::get<std::shared_ptr<Match>>(created));
    t.play(*match, 2000, rng);
    const auto all = t.store.records();
    REQUIRE_FALSE(all.empty());
    const auto& last = all.back();
    REQUIRE(last.finish);
    CHECK(last.finish->status == "finished");
    CHECK(json::parse(last.finish->result_json)["winners"].size() == 1);
    CHECK(last.finish->pool.empty());
    CHECK_FALSE(last.finish->rate);
}

TEST_CASE("A stored step whose state hash differs stops the restore", "[match][restore]") {
    Table t("simple");
    std::mt19937 rng(3);
    auto created = Match::create(t.io, t.options, t.store, t.metrics, [](auto&&...) {});
    auto original = t.open(std::get<std::shared_ptr<Match>>(created));
    REQUIRE(t.play(*original, 8, rng) == 8);
    auto steps = t.replay_steps();
    steps[5].state_hash = "0000000000000000";
    auto restored = t.restore(steps);
    REQUIRE(std::holds_alternative<std::string>(restored));
    CHECK(std::get<std::string>(restored).find("step 6") != std::string::npos);
    CHECK(std::get<std::string>(restored).find("hash") != std::string::npos);

    // A step the engine refuses, and a gap in the numbers, are refused too.
    steps = t.replay_steps();
    steps[2].step_json = R"({"kind":"move","from":"A1","to":"A1"})";
    CHECK(std::holds_alternative<std::string>(t.restore(steps)));
    steps = t.replay_steps();
    steps.erase(steps.begin() + 3);
    CHECK(std::holds_alternative<std::string>(t.restore(steps)));
    original->shutdown();
    t.settle();
}

TEST_CASE("A restored Splendor match is the same game, hidden reserves and resignations included",
          "[match][restore][splendor]") {
    for (const int players : {2, 3, 4}) {
        INFO("players " << players);
        Table t(Table::Lobby{{{"game", "splendor"}, {"players", players}}});
        std::mt19937 rng(static_cast<unsigned>(players));
        auto created = Match::create(t.io, t.options, t.store, t.metrics, [](auto&&...) {});
        auto original = t.open(std::get<std::shared_ptr<Match>>(created));
        REQUIRE(t.play(*original, 15, rng) == 15);
        if (players > 2) {  // a seat resigns and is out; the game goes on
            original->resign(t.seats[2], {});
            t.settle();
        }
        REQUIRE(t.play(*original, 15, rng) == 15);
        const auto records = t.store.records();
        REQUIRE(records.size() == (players > 2 ? 31u : 30u));
        for (const auto& r : records) CHECK(r.state_hash.size() == 16);
        std::vector<json> before;
        for (const auto& seat : t.seats) before.push_back(seat->view(original->id()).view);

        auto restored_or = t.restore(t.replay_steps());
        if (auto* why = std::get_if<std::string>(&restored_or)) FAIL(*why);
        auto restored = t.open(std::get<std::shared_ptr<Match>>(restored_or));
        // Every seat sees what it saw, its own blind reserves included (and no one else's).
        for (std::size_t s = 0; s < t.seats.size(); ++s) {
            const auto after = t.seats[s]->view(restored->id());
            INFO("seat " << s);
            CHECK(after.view["state"] == before[s]["state"]);
            CHECK(after.view["history"] == before[s]["history"]);
            CHECK(after.view["seats"] == before[s]["seats"]);
            CHECK(after.view["status"] == "playing");
            CHECK(after.version > 1'000'000'000'000ull);
        }
        // A changed hash stops the restore at that step.
        auto steps = t.replay_steps();
        steps[7].state_hash = "0000000000000000";
        auto refused = t.restore(steps);
        REQUIRE(std::holds_alternative<std::string>(refused));
        CHECK(std::get<std::string>(refused).find("step 8") != std::string::npos);

        // The restored match plays on to its end; the last record rates it in Splendor's pool.
        original->shutdown();
        t.play(*restored, 5000, rng);
        const auto all = t.store.records();
        const auto& last = all.back();
        REQUIRE(last.finish);
        CHECK(last.finish->status == "finished");
        CHECK(last.finish->pool == "splendor");
        CHECK(last.finish->rate);
        restored->shutdown();
        t.settle();
    }
}

}  // namespace restore_test
