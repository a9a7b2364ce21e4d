// The queue room against a fake hub whose rating reads and match starts wait until the test
// answers them: what happens when a player leaves while their rating is read or after they were
// paired, when the rating cannot be read, and when the pair's match cannot be stored.

#include "server/rooms/queue_room.hpp"

#include <boost/asio/io_context.hpp>
#include <catch2/catch_test_macros.hpp>
#include <deque>
#include <map>

#include "tests/server/support/fake_participant.hpp"

using namespace server;
using namespace server::test;
using nlohmann::json;

namespace {

class FakeHost final : public QueueHost {
  public:
    std::map<std::string, std::shared_ptr<FakeParticipant>> online_players;
    std::deque<std::function<void(std::optional<std::pair<double, double>>)>> ratings;
    std::deque<std::pair<std::vector<std::string>, std::function<void(std::variant<std::string, QueueError>)>>>
        starts;
    std::optional<QueueError> busy;

    void tell(const std::string& player, const std::shared_ptr<const std::string>& message) override {
        if (auto it = online_players.find(player); it != online_players.end()) it->second->deliver(message);
    }
    bool online(const std::string& player) override { return online_players.count(player) != 0; }
    std::optional<QueueError> engaged(const std::string&) override { return busy; }
    void rating(const std::string&, const std::string&,
                std::function<void(std::optional<std::pair<double, double>>)> done) override {
        ratings.push_back(std::move(done));
    }
    void start_match(std::vector<std::string> players, protocol::LobbySettings, json,
                     std::function<void(std::variant<std::string, QueueError>)> done) override {
        starts.emplace_back(std::move(players), std::move(done));
    }
    /// Answers the oldest rating read.
    void answer_rating(std::optional<std::pair<double, double>> r) {
        auto done = std::move(ratings.front());
        ratings.pop_front();
        done(r);
    }
};

struct Room {
    boost::asio::io_context io;
    Metrics metrics;
    FakeHost host;
    QueueRoom room{boost::asio::make_strand(io), host, metrics};
    std::uint64_t next_connection = 0;

    std::shared_ptr<FakeParticipant> player(const std::string& id) {
        auto p = std::make_shared<FakeParticipant>(id, ++next_connection);
        host.online_players[id] = p;
        return p;
    }
    void join(const std::shared_ptr<FakeParticipant>& p, json ref) {
        room.join(p, protocol::QueueJoin{"santorini", 180, 2}, ref);
    }
};

}  // namespace

TEST_CASE("Leaving while the rating is read cancels the join", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann");
    r.join(ann, "j");
    REQUIRE(r.host.ratings.size() == 1);
    CHECK(r.room.engaged("p_ann"));
    CHECK(ann->messages().empty());  // nothing until the rating is known
    r.room.leave(ann, "l");
    auto got = ann->take();
    REQUIRE(got.size() == 3);
    CHECK(got[0] == json{{"type", "ack"}, {"ref", "j"}});
    CHECK(got[1]["state"] == "left");
    CHECK(got[2] == json{{"type", "ack"}, {"ref", "l"}});
    r.host.answer_rating(std::pair{1500.0, 350.0});  // late: ignored
    CHECK(ann->take().empty());
    CHECK_FALSE(r.room.engaged("p_ann"));
    CHECK(r.room.matchmaker().empty());
}

TEST_CASE("A rating that cannot be read refuses the join with unavailable", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann");
    r.join(ann, 1);
    r.host.answer_rating(std::nullopt);
    auto e = ann->last("error");
    CHECK(e["code"] == "unavailable");
    CHECK(e["ref"] == 1);
    CHECK_FALSE(r.room.engaged("p_ann"));
    CHECK(ann->of_type("queue").empty());
}

TEST_CASE("Disconnecting while the rating is read cancels the join", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann");
    r.join(ann, 1);
    r.host.online_players.erase("p_ann");
    r.room.offline("p_ann");
    r.host.answer_rating(std::pair{1500.0, 350.0});
    CHECK(r.room.matchmaker().empty());
    CHECK(ann->of_type("queue").empty());
}

TEST_CASE("Paired players are matched; a leave after the pair is too late", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann"), bob = r.player("p_bob");
    r.join(ann, 1);
    r.host.answer_rating(std::pair{1600.0, 80.0});
    r.join(bob, 2);
    r.host.answer_rating(std::pair{1550.0, 80.0});
    REQUIRE(r.host.starts.size() == 1);  // paired at Bob's join: 50 points apart
    CHECK(r.room.matchmaker().empty());
    CHECK(r.room.engaged("p_ann"));
    CHECK(r.room.list()[0]["waiting"] == 0);

    r.room.leave(ann, "late");
    CHECK(ann->last("ack")["ref"] == "late");
    CHECK(ann->last("queue")["state"] == "waiting");  // no `left`
    r.join(ann, 3);
    CHECK(ann->last("error")["code"] == "already_queued");

    auto [players, done] = std::move(r.host.starts.front());
    r.host.starts.pop_front();
    CHECK((players == std::vector<std::string>{"p_ann", "p_bob"} ||
           players == std::vector<std::string>{"p_bob", "p_ann"}));
    done(std::string("m_test"));
    for (const auto& p : {ann, bob}) {
        auto q = p->last("queue");
        CHECK(q["state"] == "matched");
        CHECK(q["match"] == "m_test");
    }
    CHECK_FALSE(r.room.engaged("p_ann"));
}

TEST_CASE("A match that cannot be stored: both are told `left`, unavailable", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann"), bob = r.player("p_bob");
    r.join(ann, 1);
    r.host.answer_rating(std::pair{1500.0, 350.0});
    r.join(bob, 2);
    r.host.answer_rating(std::pair{1500.0, 350.0});
    REQUIRE(r.host.starts.size() == 1);
    r.host.starts.front().second(QueueError{protocol::ErrorCode::Unavailable, "store down"});
    for (const auto& p : {ann, bob})
        CHECK(p->last("queue") == json{{"type", "queue"}, {"state", "left"}, {"reason", "unavailable"}});
    CHECK_FALSE(r.room.engaged("p_ann"));
    CHECK(r.room.matchmaker().empty());  // not put back: they may join again
    r.join(ann, 4);
    CHECK(r.host.ratings.size() == 1);
}

TEST_CASE("The hub's own refusals come back as they are", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann");
    r.host.busy = QueueError{protocol::ErrorCode::AlreadyInGame, "you are playing match m_x"};
    r.join(ann, 1);
    CHECK(ann->last("error")["code"] == "already_in_game");
    CHECK(ann->last("error")["message"] == "you are playing match m_x");
    CHECK(r.host.ratings.empty());
}

TEST_CASE("Far ratings are paired by the wave timer once the windows have widened", "[queue][room]") {
    Room r;
    auto ann = r.player("p_ann"), bob = r.player("p_bob");
    r.join(ann, 1);
    r.host.answer_rating(std::pair{1500.0, 60.0});
    r.join(bob, 2);
    r.host.answer_rating(std::pair{1615.0, 60.0});  // 115 apart: two waves (124)
    CHECK(r.host.starts.empty());
    // The timer waves once a second; run the io_context for up to five seconds.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (r.host.starts.empty() && std::chrono::steady_clock::now() < deadline)
        r.io.run_for(std::chrono::milliseconds(100));
    CHECK(r.host.starts.size() == 1);
    r.room.shutdown();
    r.io.run_for(std::chrono::milliseconds(50));
}

TEST_CASE("Restored places (a new leader) wait out their grace, then the absent ones leave",
          "[queue][room][fleet]") {
    Room r;
    auto ann = r.player("p_ann");  // already back; bob is not (yet)
    const auto now = std::chrono::steady_clock::now();
    QueueEntry a{"p_ann", QueueKey{"santorini", 180, 2}, 1500, 350,
                 now - std::chrono::seconds(30), 1};
    QueueEntry b{"p_bob", QueueKey{"santorini", 300, 3}, 1500, 350, now, 2};
    QueueEntry unknown{"p_cy", QueueKey{"no_such_queue", 180, 2}, 1500, 350, now, 3};
    CHECK(r.room.restore({a, b, unknown}, std::chrono::milliseconds(50)) == 2);
    CHECK(r.room.engaged("p_ann"));
    CHECK(r.room.engaged("p_bob"));
    CHECK_FALSE(r.room.engaged("p_cy"));
    // Told at once, with the time they joined.
    auto got = ann->take();
    REQUIRE(got.size() == 1);
    CHECK(got[0]["state"] == "waiting");
    CHECK(got[0]["since"] == 1);
    // Losing the last connection within the grace does not take a restored place away.
    r.host.online_players.erase("p_ann");
    r.room.offline("p_ann");
    CHECK(r.room.engaged("p_ann"));
    r.host.online_players["p_ann"] = ann;  // ann comes back; bob never does
    r.io.run_for(std::chrono::milliseconds(200));
    CHECK(r.room.engaged("p_ann"));
    CHECK_FALSE(r.room.engaged("p_bob"));
    // Past the grace, an ordinary disconnection leaves at once again.
    r.host.online_players.erase("p_ann");
    r.room.offline("p_ann");
    CHECK_FALSE(r.room.engaged("p_ann"));
}

TEST_CASE("forget_places empties the queues without a word to anyone", "[queue][room][fleet]") {
    Room r;
    auto ann = r.player("p_ann");
    QueueEntry a{"p_ann", QueueKey{"santorini", 180, 2}, 1500, 350,
                 std::chrono::steady_clock::now(), 1};
    REQUIRE(r.room.restore({a}, std::chrono::milliseconds(50)) == 1);
    (void)ann->take();
    r.room.forget_places();
    CHECK_FALSE(r.room.engaged("p_ann"));
    CHECK(ann->take().empty());
    CHECK(r.room.matchmaker().empty());
}
