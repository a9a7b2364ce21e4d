// Random games through the whole engine, 2, 3 and 4 players. After every step: every invariant
// (check_invariants), and against a ledger the test keeps of who bought which card: each
// seat's bought cards (Player::bought) are the ledger's, its points = its cards' points + its
// nobles', its bonuses = its cards' colours. Every game must end; a sample replays bit for bit
// from its seed and steps; no viewer other than the owner ever sees a blind reserve, in views
// or in history lines.
//
// 12,000 games: a few seconds in a release build. SANTORINI_RANDOM_GAMES_PERCENT=10 plays a
// tenth of each group (the variable the Santorini random games read, so one setting shortens
// both); unset, every group plays in full.

#include <algorithm>
#include <bit>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/splendor/game.hpp"
#include "engine/splendor/notation.hpp"
#include "engine/splendor/state_hash.hpp"
#include "engine/splendor/view.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace random_play_test {

using namespace splendor;

namespace {

constexpr int step_bound = 2000;  // a game still running after this many steps is a failure

int games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

struct Outcome {
    int games = 0, by_points = 0, by_passes = 0, shared = 0;
    long steps = 0;
    std::vector<std::string> failures;
    int failure_count = 0;
};

// Who bought what, kept from the steps.
struct Ledger {
    std::vector<std::vector<int>> bought;
    explicit Ledger(int players) : bought(static_cast<std::size_t>(players)) {}

    std::string check(const State& s) const {
        for (int i = 0; i < s.players; ++i) {
            const Player& p = s.seat(i);
            int points = 0;
            Colours bonuses{};
            for (int id : bought[static_cast<std::size_t>(i)]) {
                points += card(id).points;
                ++bonuses[static_cast<std::size_t>(card(id).bonus)];
            }
            for (int n = 0; n < noble_count; ++n)
                if (p.nobles >> n & 1u) points += noble(n).points;
            if (p.points != points)
                return "seat " + std::to_string(i) + ": points are not its cards' and nobles'";
            if (p.bonuses != bonuses)
                return "seat " + std::to_string(i) + ": bonuses are not its cards' colours";
            if (p.cards != static_cast<int>(bought[static_cast<std::size_t>(i)].size()))
                return "seat " + std::to_string(i) + ": card count";
            std::array<std::uint64_t, 2> record{};
            for (int id : bought[static_cast<std::size_t>(i)])
                record[static_cast<std::size_t>(id / 64)] |= std::uint64_t{1} << (id % 64);
            if (p.bought != record)
                return "seat " + std::to_string(i) + ": its bought cards are not the ledger's";
        }
        return "";
    }
};

// A blind reserve of `owner` must be hidden from every other seat and from spectators.
std::string check_secrets(const State& s) {
    for (int owner = 0; owner < s.players; ++owner) {
        const Player& p = s.seat(owner);
        for (int r = 0; r < p.reserved_count; ++r) {
            const Reserved& res = p.reserved[static_cast<std::size_t>(r)];
            for (int viewer = spectator; viewer < s.players; ++viewer) {
                auto seen = view_for(s, viewer)
                                .seats[static_cast<std::size_t>(owner)]
                                .reserved[static_cast<std::size_t>(r)]
                                .card;
                bool may = !res.blind || viewer == owner;
                if (seen != (may ? res.card : -1))
                    return "a reserve shown wrongly to viewer " + std::to_string(viewer);
            }
            if (view_for(s, revealed)
                    .seats[static_cast<std::size_t>(owner)]
                    .reserved[static_cast<std::size_t>(r)]
                    .card != res.card)
                return "the revealed view hides a reserve";
        }
    }
    return "";
}

void play_group(Outcome& o, int players, int count, std::uint64_t first_seed) {
    StepList list;
    for (int g = 0; g < count; ++g) {
        const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(g);
        std::mt19937_64 choose(seed * 7919 + 1);
        Settings settings{
            .players = players,
            .start_player = static_cast<int>(seed % static_cast<std::uint64_t>(players)),
            .seed = seed};
        State s = std::get<State>(new_game(settings));
        Ledger ledger(players);
        std::vector<Step> played;
        std::string failure;
        int n = 0;
        ++o.games;
        while (decider(s) >= 0 && n < step_bound && failure.empty()) {
            legal_steps(s, list);
            if (list.empty()) {
                failure = "no legal step while the game goes on";
                break;
            }
            // Buy more often than uniform choice would, so that most games reach 15 points.
            std::vector<std::size_t> buys;
            for (std::size_t i = 0; i < list.size(); ++i)
                if (list[i].kind == StepKind::Buy) buys.push_back(i);
            std::size_t pick = !buys.empty() && choose() % 10 < 6 ? buys[choose() % buys.size()]
                                                                  : choose() % list.size();
            const Step st = list[pick];
            const int actor = decider(s);
            if (st.kind == StepKind::Reserve && st.card < 0) {
                std::string other = step_text_for(s, st, actor, (actor + 1) % players);
                std::string watcher = step_text_for(s, st, actor, spectator);
                if (other.starts_with("reserve #") || watcher.starts_with("reserve #"))
                    failure = "a blind reserve's line names the card: " + other;
            }
            if (st.kind == StepKind::Buy)
                ledger.bought[static_cast<std::size_t>(actor)].push_back(st.card);
            apply_step(s, st);
            played.push_back(st);
            ++n;
            if (auto e = check_invariants(s); !e.empty())
                failure = "check_invariants: " + e;
            else if (auto l = ledger.check(s); !l.empty())
                failure = l;
            else if (auto h = check_secrets(s); !h.empty())
                failure = h;
        }
        o.steps += n;
        if (failure.empty() && decider(s) >= 0)
            failure = "still running after " + std::to_string(step_bound) + " steps";
        if (failure.empty()) {
            bool fifteen = false;
            for (int i = 0; i < players; ++i)
                fifteen = fifteen || s.seat(i).points >= winning_points;
            (fifteen ? o.by_points : o.by_passes) += 1;
            if (std::popcount(s.winners) > 1) ++o.shared;
            auto place = places(s);
            for (int i = 0; i < players; ++i)
                if ((place[static_cast<std::size_t>(i)] == 1) != ((s.winners >> i & 1u) != 0))
                    failure = "places disagree with winners";
        }
        if (failure.empty() && g % 50 == 0) {  // a sample replays bit for bit
            State again = std::get<State>(new_game(settings));
            for (const Step& st : played) apply_step(again, st);
            if (!(again == s) || state_hash(again) != state_hash(s)) failure = "the replay differs";
        }
        if (!failure.empty() && ++o.failure_count <= 5)
            o.failures.push_back("players=" + std::to_string(players) +
                                 " seed=" + std::to_string(seed) + " step " + std::to_string(n) +
                                 ": " + failure);
    }
}

void report(const Outcome& o) {
    INFO(o.games << " games, " << o.steps << " steps; " << o.by_points << " ended by points, "
                 << o.by_passes << " by passes, " << o.shared << " shared victories");
    for (const auto& f : o.failures) UNSCOPED_INFO(f);
    CHECK(o.failure_count == 0);
    CHECK(o.by_points > o.games / 2);
}

}  // namespace

TEST_CASE("random games, 2 players: invariants after every step, every game ends") {
    Outcome o;
    play_group(o, 2, games(4000), 1);
    report(o);
}

TEST_CASE("random games, 3 players: invariants after every step, every game ends") {
    Outcome o;
    play_group(o, 3, games(4000), 100001);
    report(o);
}

TEST_CASE("random games, 4 players: invariants after every step, every game ends") {
    Outcome o;
    play_group(o, 4, games(4000), 200001);
    report(o);
}

TEST_CASE(
    "random games with concessions, 3 and 4 players: the game goes on without the seat, and ends") {
    Outcome o;
    StepList list;
    for (int g = 0; g < games(1000); ++g) {
        const int players = 3 + g % 2;
        std::mt19937_64 choose(static_cast<std::uint64_t>(g) + 5);
        State s = std::get<State>(new_game({.players = players,
                                            .start_player = g % players,
                                            .seed = static_cast<std::uint64_t>(g)}));
        std::string failure;
        int n = 0;
        while (decider(s) >= 0 && n < step_bound && failure.empty()) {
            if (choose() % 60 == 0) {
                int seat = static_cast<int>(choose() % static_cast<std::uint64_t>(players));
                bool was_out = s.seat(seat).out;
                auto why = concede(s, seat);
                if (why.has_value() != was_out) failure = "concede answered wrongly";
            } else {
                legal_steps(s, list);
                apply_step(s, list[choose() % list.size()]);
            }
            ++n;
            if (auto e = check_invariants(s); !e.empty()) failure = "check_invariants: " + e;
        }
        if (failure.empty() && decider(s) >= 0) failure = "still running";
        for (int i = 0; i < players && failure.empty(); ++i)
            if ((s.winners >> i & 1u) && s.seat(i).out) failure = "a seat that is out won";
        ++o.games;
        o.steps += n;
        o.by_points += 1;  // not measured here
        if (!failure.empty() && ++o.failure_count <= 5)
            o.failures.push_back("game " + std::to_string(g) + " step " + std::to_string(n) + ": " +
                                 failure);
    }
    report(o);
}

}  // namespace random_play_test
