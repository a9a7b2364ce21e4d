#pragma once
// A hub with fake connections and an io_context run by the test itself: send a message, let
// every strand finish, look at what each connection received. Also stores that hold or record
// appends, and a driver that plays a match out from the players' own views.

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <catch2/catch_test_macros.hpp>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "server/app/hub.hpp"
#include "tests/server/support/fake_participant.hpp"

namespace server::test {

using nlohmann::json;

/// Acknowledges every append at once and keeps the records.
class RecordingStore final : public StepStore {
  public:
    void append(StepRecord record, std::function<void(bool)> done) override {
        {
            std::lock_guard lock(mutex_);
            records_.push_back(std::move(record));
        }
        done(true);
    }
    std::vector<StepRecord> records() const {
        std::lock_guard lock(mutex_);
        return records_;
    }

  private:
    mutable std::mutex mutex_;
    std::vector<StepRecord> records_;
};

/// Keeps every append waiting until the test answers it (the durability gate).
class HoldingStore final : public StepStore {
  public:
    void append(StepRecord record, std::function<void(bool)> done) override {
        std::lock_guard lock(mutex_);
        waiting_.emplace_back(std::move(record), std::move(done));
    }
    std::size_t waiting() const {
        std::lock_guard lock(mutex_);
        return waiting_.size();
    }
    /// Answers the oldest waiting append; returns its record.
    StepRecord answer(bool stored) {
        std::unique_lock lock(mutex_);
        auto [record, done] = std::move(waiting_.front());
        waiting_.pop_front();
        lock.unlock();
        done(stored);
        return record;
    }

  private:
    mutable std::mutex mutex_;
    std::deque<std::pair<StepRecord, std::function<void(bool)>>> waiting_;
};

/// A guest and its first connection.
struct Player {
    std::shared_ptr<FakeParticipant> conn;
    std::string id;
    std::string name;
};

class Harness {
  public:
    /// `cfg` with the lists and spectator counts sent at once (settle() runs no timers).
    static Config at_once(Config cfg) {
        cfg.list_interval = std::chrono::milliseconds(0);
        cfg.spectators_interval = std::chrono::milliseconds(0);
        return cfg;
    }

    explicit Harness(Config cfg = {}, StepStore* custom_store = nullptr)
        : config(at_once(cfg)),
          store(custom_store ? *custom_store : recording),
          hub(io, config, metrics, store) {}

    boost::asio::io_context io;
    Config config;
    Metrics metrics;
    RecordingStore recording;
    StepStore& store;
    Hub hub;

    /// A new guest with one open connection.
    Player guest(const std::string& name) {
        auto g = hub.create_guest(name);
        REQUIRE(g);
        return Player{connect(g->id), g->id, g->name};
    }
    /// Another connection (tab) of the same player.
    std::shared_ptr<FakeParticipant> tab(const Player& p) { return connect(p.id); }
    /// A new connection of `player_id`, connected to the hub as the transport does after hello.
    std::shared_ptr<FakeParticipant> connect(const std::string& player_id) {
        auto conn = std::make_shared<FakeParticipant>(player_id, ++next_connection_);
        hub.connected(conn);  // posted to the lobby strand: ahead of anything sent later
        return conn;
    }
    /// Hub::match_summary, waiting for its answer (runs the io_context until it comes).
    std::optional<json> summary(const std::string& match) {
        std::optional<std::optional<json>> answer;
        hub.match_summary(match, [&answer](std::optional<json> view) { answer = std::move(view); });
        settle();
        REQUIRE(answer.has_value());
        return *answer;
    }
    /// Parses `message` as the transport would, hands it to the hub and runs everything it causes.
    void send(const std::shared_ptr<FakeParticipant>& from, const json& message) {
        auto parsed = protocol::parse_client_message(message.dump());
        auto* m = std::get_if<protocol::ClientMessage>(&parsed);
        INFO(message.dump());
        REQUIRE(m);
        hub.handle(from, std::move(*m));
        settle();
    }
    /// The connection is gone.
    void drop(const std::shared_ptr<FakeParticipant>& conn) {
        hub.disconnected(conn);
        settle();
    }
    /// Runs every handler that is ready (timers that are not due stay pending).
    void settle() {
        io.restart();
        io.poll();
    }

    /// players[0] creates a lobby with `settings`, the others join, the host starts it and
    /// every player opens the match; returns the match id.
    std::string start_match(const std::vector<Player>& players, const json& settings) {
        send(players[0].conn, {{"type", "lobby.create"}, {"settings", settings}});
        auto lobby = players[0].conn->last("lobby");
        REQUIRE(lobby.is_object());
        const std::string lobby_id = lobby["lobby"]["id"];
        for (std::size_t i = 1; i < players.size(); ++i)
            send(players[i].conn, {{"type", "lobby.join"}, {"lobby", lobby_id}});
        send(players[0].conn, {{"type", "lobby.start"}, {"lobby", lobby_id}});
        auto closed = players[0].conn->last("lobby.closed");
        REQUIRE(closed.is_object());
        REQUIRE(closed["reason"] == "started");
        const std::string match = closed["match"];
        for (const auto& p : players) send(p.conn, {{"type", "match.open"}, {"match", match}});
        return match;
    }

  private:
    std::uint64_t next_connection_ = 0;
};

/// Settings JSON for a lobby.create.
inline json settings_json(int players, const std::string& powers = "none",
                          const std::string& draft = "random") {
    return {{"game", "santorini"}, {"players", players}, {"powers", powers}, {"draft", draft}};
}

/// True if the view this connection tracked for `match` lists legal steps (it must decide).
inline bool decides(const FakeParticipant& conn, const std::string& match) {
    auto v = conn.view(match).view;
    return v.is_object() && v["state"].contains("legal");
}

/// A legal step from `view`. Santorini: a winning move up to level 3 if there is one, else a
/// random one. Splendor: mostly a buy when there is one (so that games end in a few dozen
/// turns), else a random one.
inline json pick_step(const json& view, std::mt19937& rng) {
    const json& legal = view["state"]["legal"];
    if (view.value("game", "santorini") == "splendor") {
        std::vector<std::size_t> buys;
        for (std::size_t i = 0; i < legal.size(); ++i)
            if (legal[i]["kind"] == "buy") buys.push_back(i);
        if (!buys.empty() && rng() % 4 != 0) return legal[buys[rng() % buys.size()]];
        return legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng)];
    }
    const json& board = view["state"]["board"];
    auto height = [&](const std::string& square) {
        int index = (square[0] - 'A') + (square[1] - '1') * 5;
        const std::string cell = board[static_cast<std::size_t>(index)];
        return cell.find('D') != std::string::npos ? 9 : cell[0] - '0';
    };
    for (const auto& s : legal)
        if (s["kind"] == "move" && height(s["to"]) == 3 && height(s["from"]) == 2) return s;
    std::uniform_int_distribution<std::size_t> pick(0, legal.size() - 1);
    return legal[pick(rng)];
}

/// Plays `match` until nobody has a legal step, `max_steps` were played or `go_on` says stop:
/// each time the deciding player's own view names a step and that player sends it. `go_on`
/// runs before each step. Returns the steps played.
inline int play_out(Harness& h, const std::vector<Player>& players, const std::string& match,
                    std::mt19937& rng, int max_steps, const std::function<bool()>& go_on = {}) {
    int played = 0;
    for (; played < max_steps; ++played) {
        if (go_on && !go_on()) break;
        const Player* decider = nullptr;
        for (const auto& p : players)
            if (decides(*p.conn, match)) {
                REQUIRE(decider == nullptr);  // only one view may list legal steps
                decider = &p;
            }
        if (!decider) break;
        const auto before = decider->conn->view(match).version;
        json step = pick_step(decider->conn->view(match).view, rng);
        decider->conn->take();
        h.send(decider->conn,
               {{"type", "match.step"}, {"match", match}, {"step", step}, {"ref", played}});
        for (const auto& m : decider->conn->take()) {
            INFO(m.dump());
            REQUIRE(m["type"] != "error");
        }
        REQUIRE(decider->conn->view(match).version == before + 1);
    }
    return played;
}

/// The view `conn` tracked for `match`.
/// The list `conn` holds as a subscriber of `type` ("lobbies", "matches"): its last snapshot
/// with every `<type>.changed` after it applied, as the browser client does (null before any).
inline json subscribed_list(const FakeParticipant& conn, const std::string& type) {
    json list = nullptr;
    for (const json& m : conn.messages()) {
        const std::string kind = m.value("type", "");
        if (kind == type) {
            list = m[type];
        } else if (kind == type + ".changed" && list.is_array()) {
            json next = json::array();
            for (const json& entry : list)
                if (std::find(m["removed"].begin(), m["removed"].end(), entry["id"]) == m["removed"].end())
                    next.push_back(entry);
            for (const json& entry : m["changed"]) {
                auto at = std::find_if(next.begin(), next.end(), [&](const json& e) { return e["id"] == entry["id"]; });
                if (at != next.end()) *at = entry;
                else next.push_back(entry);
            }
            list = std::move(next);
        }
    }
    return list;
}

inline json view_of(const Player& p, const std::string& match) {
    return p.conn->view(match).view;
}

}  // namespace server::test
