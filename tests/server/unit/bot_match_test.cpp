// A match's computer seats, driven by hand (server/match/match_bots.cpp): the decision is searched on
// the bot pool's own thread while the match's io_context goes on; a busy pool never delays
// another match's steps; a decision the match no longer wants is dropped; a bot whose search
// fails (Splendor's, today) still plays a legal step.

#include <catch2/catch_test_macros.hpp>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "server/bots/bot_players.hpp"
#include "server/bots/bot_pool.hpp"
#include "server/rooms/lobby.hpp"
#include "server/match/match.hpp"
#include "tests/server/support/hub_harness.hpp"

using namespace server;
using namespace server::test;
using namespace std::chrono_literals;

namespace {

// A pool thread held by a job that waits until the test lets it go: a long search elsewhere.
class Blocker {
  public:
    void hold(BotPool& pool) {
        REQUIRE(pool.submit([this] {
            std::unique_lock lock(mutex_);
            running_ = true;
            changed_.notify_all();
            changed_.wait(lock, [this] { return released_; });
        }));
        std::unique_lock lock(mutex_);
        REQUIRE(changed_.wait_for(lock, 5s, [this] { return running_; }));
    }
    void release() {
        std::lock_guard lock(mutex_);
        released_ = true;
        changed_.notify_all();
    }
    ~Blocker() { release(); }

  private:
    std::mutex mutex_;
    std::condition_variable changed_;
    bool running_ = false;
    bool released_ = false;
};

// One match on the test's own io_context (polled by the test), with its people's connections.
struct BotTable {
    boost::asio::io_context& io;
    RecordingStore store;
    Metrics& metrics;
    std::shared_ptr<Match> match;
    std::vector<std::shared_ptr<FakeParticipant>> people;  // by seat; null for computer seats

    BotTable(boost::asio::io_context& context, Metrics& m, const std::string& id, json settings,
             std::vector<Member> seats, int challenger, BotPlay bots)
        : io(context), metrics(m) {
        MatchOptions options;
        options.id = id;
        options.settings =
            std::get<protocol::LobbySettings>(protocol::lobby_settings_from_json(settings));
        options.seats = seats;
        options.seed = 42;
        options.challenger = challenger;
        options.bots = bots;
        auto created = Match::create(io, options, store, metrics, [](auto&&...) {});
        REQUIRE(std::holds_alternative<std::shared_ptr<Match>>(created));
        match = std::get<std::shared_ptr<Match>>(created);
        std::uint64_t connection = 100;
        for (const Member& member : seats) {
            if (bot_level_of(member.id)) {
                people.push_back(nullptr);
                continue;
            }
            people.push_back(std::make_shared<FakeParticipant>(member.id, connection++));
            match->open(people.back(), std::nullopt, {});
        }
        match->wake_bots();
        poll();
    }
    ~BotTable() {
        match->shutdown();
        poll();
    }
    void poll() {
        io.restart();
        io.poll();
    }
    /// The tracked view of the first person at the table.
    TrackedView view() const {
        for (const auto& p : people)
            if (p) return p->view(match->id());
        return {};
    }
    /// Polls until the version passes `version` or `timeout` runs out.
    bool wait_past(std::uint64_t version, std::chrono::milliseconds timeout) {
        const auto deadline = std::chrono::steady_clock::now() + timeout;
        while (view().version <= version) {
            if (std::chrono::steady_clock::now() > deadline) return false;
            poll();
            std::this_thread::sleep_for(1ms);
        }
        return true;
    }
    /// The person whose turn it is plays the first legal step; returns how long until its
    /// patch came back (the step's round trip).
    std::chrono::microseconds play_first_legal() {
        const auto v = view();
        const int seat = v.view["state"]["decider"].get<int>();
        auto who = people.at(static_cast<std::size_t>(seat));
        REQUIRE(who);
        const json state = who->view(match->id()).view["state"];
        REQUIRE(state.contains("legal"));
        const auto start = std::chrono::steady_clock::now();
        match->step(who, state["legal"][0], {});
        REQUIRE(wait_past(v.version, 2s));
        return std::chrono::duration_cast<std::chrono::microseconds>(
            std::chrono::steady_clock::now() - start);
    }
};

// Polls `io` until `condition` holds (or 5 s pass).
bool eventually_polled(boost::asio::io_context& io, const std::function<bool()>& condition) {
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (!condition()) {
        if (std::chrono::steady_clock::now() > deadline) return false;
        io.restart();
        io.poll();
        std::this_thread::sleep_for(1ms);
    }
    return true;
}

json two_players() {
    return {{"game", "santorini"}, {"players", 2}, {"powers", "none"}, {"rated", false}};
}

}  // namespace

TEST_CASE("a busy bot pool never delays another match's steps", "[bots]") {
    boost::asio::io_context io;
    Metrics metrics;
    BotPool pool(1, 8);
    Blocker blocker;
    blocker.hold(pool);  // the pool's only thread is searching for someone else

    // The computer is the challenger: it decides at once, and its request waits for the pool.
    BotTable bot_game(io, metrics, "m_bot", two_players(), {Member{"p_ann", "Ann"}, bot_member(3)},
                      1, BotPlay{&pool, 0ms, 0ms});
    const auto bot_version = bot_game.view().version;
    REQUIRE(bot_version > 0);
    CHECK(bot_game.view().view["seats"][1]["player"]["bot"]["level"] == 3);
    CHECK(bot_game.view().view["seats"][1]["connected"] == true);  // a computer is always there
    CHECK(pool.waiting() == 1);

    BotTable people(io, metrics, "m_people", two_players(),
                    {Member{"p_bob", "Bob"}, Member{"p_cat", "Cat"}}, 0, BotPlay{&pool, 0ms, 0ms});
    std::chrono::microseconds slowest{0};
    for (int i = 0; i < 12 && people.view().view["status"] != "finished"; ++i)
        slowest = std::max(slowest, people.play_first_legal());
    INFO("slowest round trip " << slowest.count() << " us");
    CHECK(slowest < 100ms);
    people.poll();
    CHECK(bot_game.view().version == bot_version);  // still thinking, as far as anyone knows

    blocker.release();
    REQUIRE(bot_game.wait_past(bot_version, 5s));
    // The computer's step came as a patch like anyone's, and is stored under its player.
    CHECK(bot_game.view().patches >= 1);
    CHECK(bot_game.view().errors == 0);
    const auto records = bot_game.store.records();
    REQUIRE_FALSE(records.empty());
    CHECK(records.front().player_id == "c_3");
    // (It may have gone on deciding since: placing its workers after naming itself to start.)
    CHECK(metrics.render().find("santorini_bot_decisions_total{outcome=\"searched\"} 0") ==
          std::string::npos);
}

TEST_CASE("a computer's decision is dropped once the match moved on", "[bots]") {
    boost::asio::io_context io;
    Metrics metrics;
    BotPool pool(1, 8);
    Blocker blocker;
    blocker.hold(pool);
    BotTable table(io, metrics, "m_drop", two_players(), {Member{"p_ann", "Ann"}, bot_member(2)},
                   1, BotPlay{&pool, 0ms, 0ms});
    const auto version = table.view().version;
    // Ann leaves before the first move: the match ends without a game while the bot thinks.
    table.match->resign(table.people[0], {});
    REQUIRE(table.wait_past(version, 2s));
    CHECK(table.view().view["status"] == "aborted");
    const auto stored = table.store.records().size();
    blocker.release();
    // The decision comes back and is dropped: nothing more stored, nothing more sent.
    REQUIRE(eventually_polled(io, [&] {
        return metrics.render().find("santorini_bot_decisions_total{outcome=\"dropped\"} 1") !=
               std::string::npos;
    }));
    CHECK(table.store.records().size() == stored);
}

TEST_CASE("a whole game against the computer reaches its end, the bot's steps stored as its own",
          "[bots]") {
    boost::asio::io_context io;
    Metrics metrics;
    BotPool pool(1, 8);
    BotTable table(io, metrics, "m_whole", two_players(), {Member{"p_ann", "Ann"}, bot_member(1)},
                   0, BotPlay{&pool, 0ms, 0ms});
    int moves = 0;
    while (table.view().view["status"] != "finished" && moves < 600) {
        const auto v = table.view();
        if (v.view["state"]["decider"] == 0)
            table.play_first_legal();
        else
            REQUIRE(table.wait_past(v.version, 5s));
        ++moves;
    }
    CHECK(table.view().view["status"] == "finished");
    CHECK(table.view().errors == 0);
    bool bot_played = false;
    for (const StepRecord& r : table.store.records()) {
        CHECK((r.player_id == "p_ann" || r.player_id == "c_1"));
        bot_played |= r.player_id == "c_1";
        // Never rated, whatever the lobby said.
        if (r.finish) CHECK(r.finish->pool.empty());
    }
    CHECK(bot_played);
}

TEST_CASE("a Splendor computer whose search fails still plays a legal step", "[bots]") {
    boost::asio::io_context io;
    Metrics metrics;
    BotPool pool(1, 8);
    BotTable table(io, metrics, "m_splendor_bot", json{{"game", "splendor"}, {"players", 2}, {"bots", 1}},
                   {Member{"p_ann", "Ann"}, bot_member(3)}, 1, BotPlay{&pool, 0ms, 0ms});
    // The computer starts: whatever its search does, a legal step is played and the turn passes
    // to Ann. (Its step may be in before the first look: the constructor's poll can run it.)
    const auto deadline = std::chrono::steady_clock::now() + 5s;
    while (table.view().view["state"]["decider"] != 0) {
        REQUIRE(std::chrono::steady_clock::now() < deadline);
        table.poll();
        std::this_thread::sleep_for(1ms);
    }
    CHECK(table.view().errors == 0);
    REQUIRE(!table.store.records().empty());
    for (const StepRecord& r : table.store.records()) CHECK(r.player_id == "c_3");
    const std::string metrics_text = metrics.render();
    CHECK((metrics_text.find("outcome=\"searched\"} 1") != std::string::npos ||
           metrics_text.find("outcome=\"fallback\"} 1") != std::string::npos));
}
