#include "server/tools/server_bench/pair.hpp"

#include <iostream>

namespace server_bench {

namespace {

/// Whether a view kept by patches equals a snapshot's, apart from what may move between the
/// two messages: a running clock's `remaining_ms` (a server may compute it when it sends).
/// Everything else, presence (`connected`) and the spectator count included, must be equal.
bool same_view(const json& patched, const json& snapshot) {
    if (!patched.is_object() || !snapshot.is_object() || patched.size() != snapshot.size())
        return patched == snapshot;
    for (auto it = patched.begin(); it != patched.end(); ++it) {
        const auto other = snapshot.find(it.key());
        if (other == snapshot.end()) return false;
        if (it.key() == "clock" && it->is_object() && other->is_object()) {
            json a = *it, b = *other;
            a.erase("remaining_ms");
            b.erase("remaining_ms");
            if (a != b) return false;
        } else if (*it != *other) {
            return false;
        }
    }
    return true;
}

std::size_t history_length(const json& view) {
    const auto it = view.find("history");
    return it != view.end() && it->is_array() ? it->size() : 0;
}

}  // namespace

void Pair::finish() {
    if (thinking_) {
        think_.cancel();  // its handler sees the run's end and checks the game
        return;
    }
    if (done_ || pending_ || checking_ > 0) return;  // act() or the check ends it
    if (players[0]->view.is_null() || players[1]->view.is_null()) return mark_done();
    act();
}

void Pair::on_message(int index, const json& message) {
    const std::string type = message.value("type", "");
    if (type == "welcome") {
        if (++welcomed_ == 2) new_lobby();
    } else if (type == "lobby" && index == 0 && !joined_) {
        const json& lobby = message["lobby"];
        if (!lobby.contains("code")) return;
        joined_ = true;
        lobby_ = lobby["id"];
        players[1]->send({{"type", "lobby.join"}, {"code", lobby["code"]}});
    } else if (type == "lobby" && index == 0 && message["lobby"].value("status", "") == "full") {
        players[0]->send({{"type", "lobby.start"}, {"lobby", lobby_}});
    } else if (type == "lobby.closed" && message.contains("match")) {
        if (done_) return;
        match_ = message["match"];
        players[index]->send({{"type", "match.open"}, {"match", match_}});
    } else if (type == "match.snapshot" && message.value("match", "") == match_) {
        if (checking_ > 0) return check(index, message);
        players[index]->view = message["view"];
        players[index]->version = message["version"];
        if (!started_ && !players[0]->view.is_null() && !players[1]->view.is_null()) {
            started_ = true;
            ++totals_.started;
        }
        act();
    } else if (type == "match.patch" && message.value("match", "") == match_) {
        on_patch(index, message);
    } else if (type == "error") {
        if (++totals_.errors <= 5) std::cerr << "server error: " << message.dump() << "\n";
    }
}

void Pair::on_patch(int index, const json& message) {
    Connection& c = *players[index];
    if (c.view.is_null()) return;  // the snapshot comes later and holds it
    const auto version = message["version"].get<std::uint64_t>();
    if (version <= c.version) return;              // a duplicate
    if (version != c.version + 1) ++totals_.gaps;  // a gap: the server skipped a version
    try {
        c.view.patch_inplace(message["patch"]);
    } catch (const json::exception& e) {
        if (++totals_.mismatches <= 5) std::cerr << "patch did not apply: " << e.what() << "\n";
    }
    c.version = version;
    if (!pending_) return act();
    // The step's patch is the one that lengthens the history (others change a seat's
    // connection or the spectator count).
    const auto latency = Clock::now() - pending_sent_;
    const bool has_step = history_length(c.view) > pending_history_;
    const bool measuring = totals_.measuring.load(std::memory_order_relaxed);
    if (index == pending_index_ && has_step && !got_own_) {
        got_own_ = true;
        if (measuring) ack.add(latency);
    } else if (index != pending_index_ && has_step && !got_other_) {
        got_other_ = true;
        if (measuring) broadcast.add(latency);
    }
    if (got_own_ && got_other_) {
        pending_ = false;
        if (measuring) {
            ++totals_.steps;
            if (players[pending_index_]->view["state"].value("decider", json()) != pending_decider_)
                ++totals_.turns;
        }
        act();
    }
}

void Pair::act() {
    if (pending_ || thinking_ || checking_ > 0 || done_) return;
    const json& view = players[0]->view;
    if (view.is_null() || players[1]->view.is_null()) return;
    const std::string status = view.value("status", "");
    if (status == "finished" || status == "aborted") {
        ++totals_.all_games;
        if (totals_.measuring) ++totals_.games;
        return start_check();
    }
    if (totals_.stopping) return start_check();
    if (totals_.hold_after > 0 && steps_in_game_ >= totals_.hold_after) {
        if (!holding_) ++totals_.holding;
        holding_ = true;
        return;  // a live match, left as it is, to measure what it costs to keep
    }
    const json decider = view["state"].value("decider", json());
    if (!decider.is_number_integer()) return;
    for (int i = 0; i < 2; ++i) {
        Connection& c = *players[i];
        if (c.view.value("you", -1) != decider.get<int>()) continue;
        const json& legal = c.view["state"]["legal"];
        if (!legal.is_array() || legal.empty()) return;
        if (totals_.think_max_ms <= 0) return send_step(i);
        // Human pace: the player thinks first. Other patches meanwhile (presence, spectators)
        // change nothing it may do, so the step is picked from its view when the time is up.
        thinking_ = true;
        think_.expires_after(std::chrono::milliseconds(
            std::uniform_int_distribution<int>(totals_.think_min_ms, totals_.think_max_ms)(rng_)));
        think_.async_wait([this, i](beast::error_code) {
            thinking_ = false;
            if (totals_.stopping) return act();  // the run's end: check the game instead
            send_step(i);
        });
        return;
    }
}

void Pair::send_step(int index) {
    Connection& c = *players[index];
    const json& legal = c.view["state"]["legal"];
    const json& step = legal[std::uniform_int_distribution<std::size_t>(0, legal.size() - 1)(rng_)];
    pending_ = true;
    ++steps_in_game_;
    got_own_ = got_other_ = false;
    pending_index_ = index;
    pending_history_ = history_length(c.view);
    pending_decider_ = c.view["state"].value("decider", json());
    pending_sent_ = Clock::now();
    json message{{"type", "match.step"}, {"match", match_}, {"step", step}};
    if (totals_.step_refs) message["ref"] = steps_in_game_;
    c.send(message);
}

void Pair::start_check() {
    checking_ = 2;
    for (auto& c : players) c->send({{"type", "match.open"}, {"match", match_}});
}

void Pair::check(int index, const json& snapshot) {
    const Connection& c = *players[index];
    ++totals_.checks;
    const auto version = snapshot.value("version", std::uint64_t{0});
    if (version != c.version || !same_view(c.view, snapshot["view"])) {
        if (++totals_.mismatches <= 5)
            std::cerr << "mismatch in " << match_ << " seat " << index << ": version " << c.version
                      << " patched, " << version << " in the snapshot; diff "
                      << json::diff(c.view, snapshot["view"]).dump().substr(0, 600) << "\n";
    }
    if (--checking_ > 0) return;
    const std::string status = c.view.value("status", "");
    if (status == "finished" || status == "aborted") {
        // Done with it, as a client leaving the game's page.
        for (auto& p : players) p->send({{"type", "match.close"}, {"match", match_}});
        if (totals_.stopping) return mark_done();
        return new_lobby();
    }
    mark_done();  // the run's end: the game in progress was checked
}

void Pair::mark_done() {
    if (done_) return;
    done_ = true;
    ++totals_.done;
}

void Pair::new_lobby() {
    if (totals_.stopping) return mark_done();
    joined_ = false;
    steps_in_game_ = 0;
    match_.clear();
    players[0]->view = json();
    players[1]->view = json();
    players[0]->send({{"type", "lobby.create"},
                      {"settings",
                       {{"game", "santorini"},
                        {"players", 2},
                        {"powers", totals_.powers},
                        {"public", false},
                        {"clock", {{"kind", "none"}}}}}});
}

}  // namespace server_bench
