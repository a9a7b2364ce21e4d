// Random games with confirm_turns on and undos taken at random, as the protocol takes them (a
// stack of earlier states, cleared by every step closes_undo names). After every step: every
// invariant, Confirm offers exactly EndTurn, an undoable step lets no viewer see a card it did
// not see before, and at every EndTurn the game equals a twin played without confirm_turns
// from the same steps less the undone ones and the EndTurns. Every game must end.
//
// SANTORINI_RANDOM_GAMES_PERCENT shortens it like the other random games.

#include <algorithm>
#include <bitset>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/splendor/game.hpp"
#include "engine/splendor/state_hash.hpp"
#include "engine/splendor/view.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace random_confirm_test {

using namespace splendor;

namespace {

constexpr int step_bound = 4000;

int games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

// Every card id `viewer` can name: the rows, the reserves it may see, every bought card.
std::bitset<card_count> seen_by(const State& s, int viewer) {
    std::bitset<card_count> seen;
    const View v = view_for(s, viewer);
    for (const auto& row : v.rows)
        for (auto id : row)
            if (id >= 0) seen.set(static_cast<std::size_t>(id));
    for (int i = 0; i < s.players; ++i) {
        const SeatView& sv = v.seats[static_cast<std::size_t>(i)];
        for (int r = 0; r < sv.reserved_count; ++r)
            if (auto id = sv.reserved[static_cast<std::size_t>(r)].card; id >= 0)
                seen.set(static_cast<std::size_t>(id));
        for (int id = 0; id < card_count; ++id)
            if (bought_card(s.seat(i), id)) seen.set(static_cast<std::size_t>(id));
    }
    return seen;
}

// Nothing `after` shows any viewer was unseen by that viewer `before`.
bool reveals_nothing(const State& before, const State& after) {
    for (int viewer = spectator; viewer < before.players; ++viewer) {
        const auto was = seen_by(before, viewer);
        if ((seen_by(after, viewer) & ~was).any()) return false;
    }
    return true;
}

struct Totals {
    int games = 0, undos = 0, turns_checked = 0, failures = 0;
    long steps = 0;
    std::vector<std::string> messages;
};

void play_game(Totals& t, int players, std::uint64_t seed) {
    std::mt19937_64 choose(seed * 104729 + 3);
    Settings settings{.players = players,
                      .start_player = static_cast<int>(seed % static_cast<std::uint64_t>(players)),
                      .seed = seed,
                      .confirm_turns = true};
    State s = std::get<State>(new_game(settings));
    settings.confirm_turns = false;
    State twin = std::get<State>(new_game(settings));
    std::vector<State> undo;  // states before the undoable steps of this turn, latest last
    std::vector<Step> turn;   // the steps of this turn still standing
    StepList list;
    std::string failure;
    int n = 0;
    ++t.games;
    while (decider(s) >= 0 && n < step_bound && failure.empty()) {
        ++n;
        if (!undo.empty() && choose() % 4 == 0) {
            s = undo.back();
            undo.pop_back();
            turn.pop_back();
            ++t.undos;
            if (auto e = check_invariants(s); !e.empty()) failure = "after an undo: " + e;
            continue;
        }
        legal_steps(s, list);
        if (list.empty()) {
            failure = "no legal step while the game goes on";
            break;
        }
        if ((s.phase == Phase::Confirm) !=
            (list.size() == 1 && list[0].kind == StepKind::EndTurn)) {
            failure = "Confirm and EndTurn disagree";
            break;
        }
        std::vector<std::size_t> buys;
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].kind == StepKind::Buy) buys.push_back(i);
        const Step st = !buys.empty() && choose() % 10 < 6 ? list[buys[choose() % buys.size()]]
                                                            : list[choose() % list.size()];
        const State before = s;
        apply_step(s, st);
        const bool closed = closes_undo(before, st, s);
        if (auto e = check_invariants(s); !e.empty()) {
            failure = "check_invariants: " + e;
        } else if (!closed && !reveals_nothing(before, s)) {
            failure = "an undoable step showed a card";
        } else if (!closed && (s.phase == Phase::Over || decider(s) != decider(before))) {
            failure = "the door stayed open past the turn";
        } else if (st.kind == StepKind::EndTurn) {
            if (!closed) failure = "EndTurn left the door open";
            for (const Step& x : turn) apply_step(twin, x);
            State flipped = s;
            flipped.confirm_turns = false;
            if (!(flipped == twin)) failure = "the game differs from its twin without confirm";
            ++t.turns_checked;
            turn.clear();
        } else {
            turn.push_back(st);
        }
        if (closed)
            undo.clear();
        else
            undo.push_back(before);
    }
    t.steps += n;
    if (failure.empty() && decider(s) >= 0) failure = "still running";
    if (failure.empty() && state_hash(s) == state_hash(twin)) failure = "confirm is not hashed";
    if (!failure.empty() && ++t.failures <= 5)
        t.messages.push_back("players=" + std::to_string(players) +
                             " seed=" + std::to_string(seed) + " step " + std::to_string(n) +
                             ": " + failure);
}

}  // namespace

TEST_CASE("random games with confirm turns and undos: the same games as without, every game ends",
          "[undo]") {
    Totals t;
    const int count = games(1500);
    for (int g = 0; g < count; ++g)
        play_game(t, 2 + g % 3, 300001 + static_cast<std::uint64_t>(g));
    INFO(t.games << " games, " << t.steps << " steps, " << t.undos << " undos, "
                 << t.turns_checked << " turns compared with the twin");
    for (const auto& m : t.messages) UNSCOPED_INFO(m);
    CHECK(t.failures == 0);
    CHECK(t.undos > t.games);
    CHECK(t.turns_checked > t.games * 20);
}

}  // namespace random_confirm_test
