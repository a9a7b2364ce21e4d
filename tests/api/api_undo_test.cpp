// Taking back steps and confirming turns end to end (docs/protocol.md, "Taking back a step
// (undo) and confirming turns"): a real server on a loopback port against a real PostgreSQL
// (SANTORINI_TEST_DATABASE_URL; scripts/with-postgres), a Santorini game with `confirm_turns`
// and a realtime clock played over the WebSocket to its end, with undo steps in every turn. The
// undo steps are stored in order like any other (the stored state hash after an undo is the
// restored state's), a restart in the middle of a turn after undos restores the match with the
// same undo still offered, the replay API shows the undo steps, the spectator receives each undo
// as a patch and reads "undo", and the clock keeps running: no time back for an undo, the
// increment once per confirmed turn.

#include <optional>
#include <string>
#include <vector>

#include <catch2/catch_test_macros.hpp>
#include <pqxx/pqxx>

#include "protocol/json/basic_json.hpp"
#include "tests/api/fetch_json.hpp"
#include "tests/api/invite_code.hpp"
#include "tests/server/support/e2e_support.hpp"
#include "tests/store/test_database.hpp"

// Everything of this file in a namespace of its own: api_tests is a unity build
// (CMakeLists.txt), and other sources of its batch have helpers of the same names.
namespace api_undo_test {

namespace http = boost::beast::http;
using e2e::json;

namespace {

const json undo_step = {{"kind", "undo"}};
const json end_turn_step = {{"kind", "end_turn"}};
constexpr int increment_ms = 5000;

json get_ok(std::uint16_t port, const std::string& target) {
    return api_test::fetch_json(port, api_test::with_invite_code(target));
}

bool lists(const json& view, const json& step) {
    const json& legal = view["state"].value("legal", json::array());
    return std::find(legal.begin(), legal.end(), step) != legal.end();
}

// The first legal step that is not `undo`.
json first_forward(const json& view) {
    for (const auto& st : view["state"]["legal"])
        if (st != undo_step) return st;
    FAIL("only undo is legal");
    return nullptr;
}

int remaining(const json& view, int seat) { return view["clock"]["remaining_ms"][static_cast<std::size_t>(seat)].get<int>(); }

// The players around one match on one server; rebuilt after a restart.
struct Table {
    std::unique_ptr<test::RunningServer> running;
    e2e::Traffic traffic;
    std::unique_ptr<e2e::Player> a, b, s;
    std::vector<e2e::Player*> by_seat{nullptr, nullptr};

    std::vector<e2e::Guest> guests;  // made once, stored: they outlive a restart

    void connect(const server::Config& config) {
        running = std::make_unique<test::RunningServer>(config);
        if (guests.empty())
            for (const char* name : {"Alice", "Bob", "Carol"}) guests.push_back(e2e::http_guest(running->port(), name));
        a = std::make_unique<e2e::Player>(running->port(), traffic, "alice");
        b = std::make_unique<e2e::Player>(running->port(), traffic, "bob");
        s = std::make_unique<e2e::Player>(running->port(), traffic, "spectator");
        a->hello(guests[0].token);
        b->hello(guests[1].token);
        s->hello(guests[2].token);
    }
    void open(const std::string& match) {
        e2e::open_match(*s, match);
        e2e::open_match(*a, match);
        e2e::open_match(*b, match);
        e2e::sync({a.get(), b.get(), s.get()}, match);
        by_seat[a->match(match).view["you"].get<std::size_t>()] = a.get();
        by_seat[b->match(match).view["you"].get<std::size_t>()] = b.get();
    }
    std::vector<e2e::Player*> everyone() { return {a.get(), b.get(), s.get()}; }
};

}  // namespace

TEST_CASE("undo and confirm turns over real sockets, stored in PostgreSQL, restored after a restart, replayed", "[api][e2e][undo]") {
    store_test::TestSchema schema;
    server::Config config = e2e::config();
    config.database_url = schema.url();
    Table t;
    t.connect(config);

    const json settings = {{"game", "santorini"},
                           {"players", 2},
                           {"powers", "none"},
                           {"confirm_turns", true},
                           {"clock", {{"kind", "realtime"}, {"base_seconds", 600}, {"increment_seconds", increment_ms / 1000}}}};
    const std::string match = e2e::start_private_match(*t.a, *t.b, settings).match;
    t.open(match);

    std::vector<json> steps;            // every step sent, undo included, in order
    std::vector<json> spectator_states;  // the spectator's `state` after each step (0: before the first)
    spectator_states.push_back(t.s->match(match).view["state"]);
    int undos = 0, confirmations = 0, turns_seen = 0, confirmed_after_restart = 0;
    bool restarted = false;
    std::optional<int> turn_start_remaining;  // the mover's time when its turn began
    int last_turn = -1;
    int undone_turn = -1;    // the turn whose confirmation was already taken back
    int restart_turn = -1;   // the clock is not checked across the restart

    auto play = [&](const json& step) {
        const json before_view = t.s->match(match).view;
        const int mover = e2e::decider(before_view);
        const json played = e2e::play_chosen(t.by_seat, t.everyone(), match, static_cast<int>(steps.size()) + 1,
                                             [&](const json&) { return step; });
        steps.push_back(played);
        const json& now = t.s->match(match).view;
        spectator_states.push_back(now["state"]);
        // Every viewer reads the same line; the spectator's history grows by exactly one.
        CHECK(now["history"].size() == before_view["history"].size() + 1);
        if (played == undo_step) {
            ++undos;
            CHECK(now["history"].back() == "undo");
            CHECK(t.a->match(match).view["history"].back() == "undo");
            // No time back: the mover's clock went on running.
            CHECK(remaining(now, mover) <= remaining(before_view, mover));
            CHECK(now["clock"]["running"] == mover);
        }
        return played;
    };

    int guard = 0;
    while (t.s->match(match).view["status"] != "finished") {
        REQUIRE(++guard < 2000);
        const json& view = t.by_seat[static_cast<std::size_t>(std::max(0, e2e::decider(t.s->match(match).view)))]->match(match).view;
        const int mover = e2e::decider(view);
        const json& state = view["state"];
        const std::string phase = state["phase"].get<std::string>();
        const int turn = state.value("turn", 0);
        if (phase == "place" || phase == "start_player" || phase == "token") {
            CHECK_FALSE(lists(view, undo_step));  // never during setup
            play(first_forward(view));
            continue;
        }
        if (turn != last_turn) {
            last_turn = turn;
            ++turns_seen;
            turn_start_remaining = remaining(view, mover);
        }
        if (phase == "begin") CHECK_FALSE(lists(view, undo_step));  // nothing of this turn yet
        if (phase == "after_move") {
            REQUIRE(lists(view, undo_step));
            if (turns_seen == 5 && !restarted) {
                // A restart in the middle of the turn, one step after an undo: the match comes
                // back from its stored steps with the same state and the same undo.
                restarted = true;
                restart_turn = turn;
                const json state_before = t.s->match(match).view["state"];
                const json mover_legal = state["legal"];
                t.a.reset();
                t.b.reset();
                t.s.reset();
                t.running.reset();
                t.connect(config);
                t.open(match);
                CHECK(t.s->match(match).view["state"] == state_before);
                const json& again = t.by_seat[static_cast<std::size_t>(mover)]->match(match).view;
                CHECK(again["state"]["legal"] == mover_legal);
                REQUIRE(lists(again, undo_step));
                play(undo_step);  // back to the turn's start, after the restart
                CHECK(t.s->match(match).view["state"]["phase"] == "begin");
                continue;
            }
        }
        if (phase == "confirm") {
            REQUIRE(state["legal"].size() == 2);
            CHECK(lists(view, end_turn_step));
            REQUIRE(lists(view, undo_step));
            // Each turn: take back the last step (twice every third turn), then confirm.
            if (undone_turn != turn) {
                undone_turn = turn;
                play(undo_step);
                if (turns_seen % 3 == 0) play(undo_step);
                continue;
            }
            const int before_end = remaining(t.s->match(match).view, mover);
            play(end_turn_step);
            ++confirmations;
            if (restarted) ++confirmed_after_restart;  // the stored settings still confirm
            const json& after = t.s->match(match).view;
            if (after["status"] == "finished") break;
            // The increment once for the whole turn: what the turn cost, plus one increment.
            if (turn == restart_turn) continue;
            CHECK(remaining(after, mover) <= *turn_start_remaining + increment_ms);
            CHECK(remaining(after, mover) > *turn_start_remaining + increment_ms - 3000);
            CHECK(remaining(after, mover) > before_end);
            CHECK(after["clock"]["running"] != mover);
            continue;
        }
        play(first_forward(view));
    }
    WARN(steps.size() << " steps, " << undos << " undos, " << confirmations << " confirmed turns");
    CHECK(restarted);
    CHECK(undos > 10);
    CHECK(confirmations > 5);
    CHECK(confirmed_after_restart > 3);
    const json& final_view = t.s->match(match).view;
    CHECK(final_view["result"].is_object());
    CHECK(final_view["history"].size() == steps.size());

    // Stored in order, append-only: one row per step, undo included; the hash after an undo
    // is that of the state it restored.
    {
        auto c = schema.connect();
        pqxx::work w(c);
        auto rows = w.exec_params("SELECT number, step::text, state_hash FROM steps WHERE match_id = $1 ORDER BY number", match);
        REQUIRE(rows.size() == steps.size());
        std::vector<std::string> hashes;
        for (std::size_t i = 0; i < rows.size(); ++i) {
            INFO("stored step " << i + 1);
            CHECK(rows[i][0].as<int>() == static_cast<int>(i + 1));
            CHECK(json::parse(rows[i][1].as<std::string>()) == steps[i]);
            hashes.push_back(rows[i][2].is_null() ? std::string() : rows[i][2].as<std::string>());
        }
        // Replaying the steps as a stack of states: an undo's hash is that of the step before
        // the one it took back (the first step's "before" has no row: skip those).
        std::vector<std::size_t> kept;  // positions (into hashes) of the steps still standing
        int checked = 0;
        for (std::size_t i = 0; i < steps.size(); ++i) {
            if (steps[i] != undo_step) {
                kept.push_back(i);
                continue;
            }
            REQUIRE_FALSE(kept.empty());
            kept.pop_back();
            if (kept.empty() || hashes[i].empty()) continue;
            CHECK(hashes[i] == hashes[kept.back()]);
            ++checked;
        }
        CHECK(checked > 10);
    }

    // The replay API shows the steps, undo included, and the view after each undo is what the
    // spectator was sent then.
    const std::uint16_t port = t.running->port();
    const json replay = get_ok(port, "/api/matches/" + match + "/replay");
    REQUIRE(replay["steps"].size() == steps.size());
    int replayed_undos = 0;
    for (std::size_t i = 0; i < steps.size(); ++i) {
        INFO("replay step " << i + 1);
        CHECK(replay["steps"][i]["step"] == steps[i]);
        if (steps[i] != undo_step) continue;
        ++replayed_undos;
        if (replayed_undos % 4 != 1) continue;  // a sample of views
        const json answer = get_ok(port, "/api/matches/" + match + "/view?after=" + std::to_string(i + 1));
        json shown = answer["view"]["state"];
        json live = spectator_states[i + 1];
        shown.erase("legal");
        live.erase("legal");
        CHECK(shown == live);
        CHECK(answer["view"]["history"][i] == "undo");
    }
    CHECK(replayed_undos == undos);
    e2e::check_traffic(t.traffic);
}

}  // namespace api_undo_test
