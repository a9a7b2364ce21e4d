// The core's shortcuts (detail::use_shortcuts: steps known to complete the turn without a
// probe, steps counted without playing them) against playing and probing every step, on the
// positions of random games with random powers: the legal lists, where each step leads (a
// seat without a turn loses), the full turns from every turn start and mid-turn point, and
// perft 2 where it is small, must be identical either way.
//
// About 230 games, a quarter of their decision points compared: a few seconds in a release build. SANTORINI_RANDOM_GAMES_PERCENT=10 plays a
// tenth of them (as the other random tests), for the sanitizer job.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"
#include "engine/santorini/perft.hpp"
#include "engine/santorini/turn_flow.hpp"

using namespace santorini;

namespace {

// `n` games, or the percentage of them SANTORINI_RANDOM_GAMES_PERCENT asks for (at least one).
int shortcut_games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

// Sets the shortcuts for a scope, and turns them back on after it (also when a check throws).
struct Shortcuts {
    explicit Shortcuts(bool on) { detail::use_shortcuts(on); }
    ~Shortcuts() { detail::use_shortcuts(true); }
    Shortcuts(const Shortcuts&) = delete;
    Shortcuts& operator=(const Shortcuts&) = delete;
};

std::vector<Step> truth_list_with(const State& s, bool shortcuts) {
    Shortcuts scope(shortcuts);
    StepList list;
    detail::legal_steps_on_truth(s, list);
    return {list.begin(), list.end()};
}

std::vector<Step> legal_list_with(const State& s, bool shortcuts) {
    Shortcuts scope(shortcuts);
    StepList list;
    legal_steps(s, list);
    return {list.begin(), list.end()};
}

std::uint64_t full_turns_with(const State& s, bool shortcuts) {
    Shortcuts scope(shortcuts);
    return count_full_turns(s);
}

std::uint64_t perft_2_with(const State& s, bool shortcuts) {
    Shortcuts scope(shortcuts);
    return perft_by_steps(s, 2);
}

// Powers whose full turns are too many to count in a test at every point (Hermes' and
// Atalanta's wandering paths, Heracles' sets of spaces, Polyphemus' domes anywhere), or may
// become any of them (Chaos): their games compare the legal lists only.
bool shortcut_counts_explode(const State& s) {
    auto explodes = [](PowerId p) {
        return p == PowerId::Hermes || p == PowerId::Atalanta || p == PowerId::Heracles || p == PowerId::Polyphemus ||
               p == PowerId::Chaos;
    };
    if (explodes(s.fleece_power)) return true;
    for (int i = 0; i < s.seat_count; ++i)
        if (explodes(s.seat(i).power)) return true;
    return false;
}

struct ShortcutTally {
    int games = 0, lists = 0, counts = 0, perfts = 0;
    std::vector<std::string> failures;
};

void record_failure(ShortcutTally& t, const State& s, const std::string& what) {
    if (t.failures.size() < 5) t.failures.push_back(what + " at " + to_notation(s));
}

// Where each of `s`'s steps leads: whether the game is over and who won (a seat left without a
// turn at its start loses, which start_turn's shortcut decides), whose turn and which phase.
std::vector<int> outcomes_with(const State& s, const std::vector<Step>& steps, bool shortcuts) {
    Shortcuts scope(shortcuts);
    std::vector<int> out;
    for (const Step& st : steps) {
        State next = s;
        detail::apply_on_truth(next, st);
        out.push_back(next.over() ? 1000 + next.winners : next.turn.seat * 100 + static_cast<int>(next.phase));
    }
    return out;
}

void compare_shortcuts_at(const State& s, bool count, ShortcutTally& t) {
    const std::vector<Step> truth = truth_list_with(s, true);
    if (truth != truth_list_with(s, false)) record_failure(t, s, "legal_steps_on_truth differs");
    else if (outcomes_with(s, truth, true) != outcomes_with(s, truth, false)) record_failure(t, s, "outcomes differ");
    if (legal_list_with(s, true) != legal_list_with(s, false)) record_failure(t, s, "legal_steps differs");
    ++t.lists;
    if (!count || s.interrupt >= 0) return;
    std::uint64_t fast = full_turns_with(s, true), slow = full_turns_with(s, false);
    if (fast != slow) record_failure(t, s, "count_full_turns " + std::to_string(fast) + " vs " + std::to_string(slow));
    ++t.counts;
    // Perft 2 from turn starts with few turns: the counting shortcuts under the generator's
    // own steps (start_turn's completion search, the next seat's counts).
    if (s.phase == Phase::Begin && s.turn.moves == 0 && slow <= 60) {
        std::uint64_t fast2 = perft_2_with(s, true), slow2 = perft_2_with(s, false);
        if (fast2 != slow2) record_failure(t, s, "perft 2 " + std::to_string(fast2) + " vs " + std::to_string(slow2));
        ++t.perfts;
    }
}

void play_compared(State s, std::mt19937_64& rng, ShortcutTally& t) {
    ++t.games;
    for (int step = 0; step < 300 && !s.over(); ++step) {
        if (in_play(s) && rng() % 4 == 0) compare_shortcuts_at(s, !shortcut_counts_explode(s), t);  // a sample: cost
        StepList list;
        legal_steps(s, list);
        if (list.empty()) break;
        apply_step(s, list[static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()))]);
    }
}

void play_compared(const Settings& st, std::mt19937_64& rng, ShortcutTally& t) {
    auto created = new_game(st);
    if (!created) {
        t.failures.push_back("new_game refused: " + created.error().message);
        return;
    }
    play_compared(*created, rng, t);
}

Settings shortcut_settings(std::mt19937_64& rng, int players, DraftMode draft) {
    Settings st;
    st.players = players;
    st.draft = draft;
    st.challenger = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
    st.start_player = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
    st.seed = rng();
    return st;
}

void report_tally(const ShortcutTally& t) {
    INFO("games " << t.games << ", lists " << t.lists << ", counts " << t.counts << ", perft 2 " << t.perfts);
    for (const auto& f : t.failures) UNSCOPED_INFO(f);
    CHECK(t.failures.empty());
    CHECK(t.counts > 0);
}

}  // namespace

TEST_CASE("shortcuts: random power pairs count and list as playing every step", "[random][shortcuts]") {
    std::mt19937_64 rng(16);
    auto eligible = eligible_powers(2, false);
    REQUIRE(eligible.size() > 1);
    ShortcutTally t;
    for (int g = 0; g < shortcut_games(150); ++g) {
        PowerId a = eligible[rng() % eligible.size()], b = eligible[rng() % eligible.size()];
        // A quarter of the games against no power, from the benchmarks' start (powers that
        // need other workers there are left to the pairs).
        if (rng() % 4 == 0) {
            auto s = parse_notation("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=" +
                                    std::string(power_info(a).key) + ",-");
            if (s) {
                play_compared(*s, rng, t);
                continue;
            }
        }
        if (a == b || banned_pair(a, b)) continue;
        Settings st = shortcut_settings(rng, 2, DraftMode::Fixed);
        st.powers = {a, b};
        play_compared(st, rng, t);
    }
    for (int g = 0; g < shortcut_games(20); ++g) play_compared(shortcut_settings(rng, 2, DraftMode::None), rng, t);
    report_tally(t);
}

TEST_CASE("shortcuts: the Golden Fleece, 3 and 4 players count and list as playing every step",
          "[random][shortcuts]") {
    std::mt19937_64 rng(17);
    auto fleece = eligible_powers(2, true);
    REQUIRE(!fleece.empty());
    ShortcutTally t;
    for (int g = 0; g < shortcut_games(20); ++g) {
        Settings st = shortcut_settings(rng, 2, DraftMode::Fixed);
        st.golden_fleece = true;
        st.powers = {fleece[rng() % fleece.size()]};
        play_compared(st, rng, t);
    }
    for (int players : {3, 4})
        for (int g = 0; g < shortcut_games(20); ++g) play_compared(shortcut_settings(rng, players, DraftMode::Random), rng, t);
    report_tally(t);
}

// The demands' shortcuts (turn_shortcuts.hpp): a build that ends the turn is counted as one
// turn or none by whether the state before it meets Persephone's or Adonis' demand
// (build_ends_unless_demands), and a turn that moved without meeting it, with nothing left that
// moves a worker, is a dead end (demands_failed_after_move). Each of them against every power
// it may meet, in either seat.
TEST_CASE("shortcuts: Persephone's and Adonis' demands against every power count and list as playing every step",
          "[random][shortcuts]") {
    std::mt19937_64 rng(18);
    std::vector<std::pair<PowerId, PowerId>> pairs;
    for (PowerId demanding : {PowerId::Persephone, PowerId::Adonis})
        for (PowerId other : eligible_powers(2, false))
            if (other != demanding && !banned_pair(demanding, other))
                pairs.push_back(rng() % 2 ? std::pair{demanding, other} : std::pair{other, demanding});
    REQUIRE(pairs.size() > 60);
    std::shuffle(pairs.begin(), pairs.end(), rng);
    pairs.resize(static_cast<std::size_t>(shortcut_games(static_cast<int>(pairs.size()))));
    ShortcutTally t;
    for (const auto& [a, b] : pairs) {
        Settings st = shortcut_settings(rng, 2, DraftMode::Fixed);
        st.powers = {a, b};
        play_compared(st, rng, t);
    }
    report_tally(t);
}

// The demands' dead end with hooks on every seat's turn in play (demands_failed_after_move):
// powers whose every-turn hooks act after moves only (PowerRules::any_step_hooks_act_after_moves_only:
// Clio, Harpies, Aphrodite, Tartarus, Gaea after domes), may_end_turn (Medusa, Nemesis,
// Aphrodite), Siren's song, Dionysus' towers, Nemesis' swaps (no Move after moving), and those
// that still turn it off (Charybdis' whirlpools, Artemis' and Terpsichore's moves), bound
// by Persephone or Adonis, in both seats, from the benchmarks' start and from drafted setups;
// then 3 players where they are allowed. The start of the turn of a bound seat takes the
// complete turn found by the demands' search as its own (rules.cpp, start_turn): perft 2 compares it.
TEST_CASE("shortcuts: the demands against powers with hooks on every turn count and list as playing every step",
          "[random][shortcuts]") {
    std::mt19937_64 rng(19);
    const PowerId others[] = {PowerId::Clio,   PowerId::Harpies, PowerId::Aphrodite, PowerId::Tartarus,
                              PowerId::Siren,  PowerId::Medusa,  PowerId::Nemesis,   PowerId::Gaea,
                              PowerId::Charybdis, PowerId::Dionysus, PowerId::Artemis, PowerId::Terpsichore};
    auto two = eligible_powers(2, false);
    ShortcutTally t;
    int games = shortcut_games(6);
    for (PowerId demanding : {PowerId::Persephone, PowerId::Adonis})
        for (PowerId other : others) {
            if (std::find(two.begin(), two.end(), other) == two.end() || banned_pair(demanding, other)) continue;
            for (const auto& [a, b] : {std::pair{other, demanding}, std::pair{demanding, other}}) {
                auto s = parse_notation("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=" +
                                        std::string(power_info(a).key) + "," + std::string(power_info(b).key));
                if (s) play_compared(*s, rng, t);
                for (int g = 0; g < games; ++g) {
                    Settings st = shortcut_settings(rng, 2, DraftMode::Fixed);
                    st.powers = {a, b};
                    play_compared(st, rng, t);
                }
            }
        }
    auto three = eligible_powers(3, false);
    auto in_three = [&](PowerId p) { return std::find(three.begin(), three.end(), p) != three.end(); };
    // Every trio of Persephone and two of the others with 3 players; the percentage takes an
    // even spread of them (the sanitizer job: these 3-player games were most of its time).
    std::vector<std::pair<PowerId, PowerId>> trios;
    if (in_three(PowerId::Persephone))
        for (PowerId x : others)
            for (PowerId y : others)
                if (x < y && in_three(x) && in_three(y)) trios.emplace_back(x, y);
    const std::size_t played = static_cast<std::size_t>(shortcut_games(static_cast<int>(trios.size())));
    for (std::size_t i = 0; i < played; ++i) {
        const auto [x, y] = trios[i * trios.size() / played];
        Settings st = shortcut_settings(rng, 3, DraftMode::Fixed);
        st.powers = {x, PowerId::Persephone, y};
        auto created = new_game(st);
        if (created) play_compared(*created, rng, t);  // some trios are banned: not this test's concern
    }
    report_tally(t);
}

// The shared rest of a turn after its build (turn_shortcuts.hpp, rest_after_build_shared):
// count_from plays one build after moving and counts the others of the same worker as that one,
// where every power in play says the rest of the turn does not depend on which build it was
// (PowerRules::rest_of_turn_ignores_builds; Charybdis on the others' turns only); a last build
// (PowerRules::builds_over_after: Demeter, Hestia, Hephaestus, Terpsichore) ends the building
// as one without further builds; a Pass that ends the turn counts one (pass_ends_turn). Those
// powers (Gaea's decision and Chronus' towers only after domes, which are not shared) against
// each other and against powers whose rest of the turn reads the board (Ares' and Poseidon's
// end-of-turn steps, Clio's coins, Zeus' build under himself, Morpheus' stored builds, Atlas'
// domes, Dionysus' towers), in both seats, from the benchmarks' start and from drafted setups.
TEST_CASE("shortcuts: the rest of a turn shared by its builds counts and lists as playing every step",
          "[random][shortcuts]") {
    std::mt19937_64 rng(20);
    const PowerId sharing[] = {PowerId::Adonis,    PowerId::Nemesis,  PowerId::Persephone, PowerId::Limus,
                               PowerId::Tartarus,  PowerId::Harpies,  PowerId::Medusa,     PowerId::Theseus,
                               PowerId::Aphrodite, PowerId::Siren,    PowerId::Charybdis,  PowerId::Demeter,
                               PowerId::Hestia,    PowerId::Hephaestus, PowerId::Terpsichore, PowerId::Gaea,
                               PowerId::Chronus,   PowerId::Aeolus};
    const PowerId reading[] = {PowerId::Ares, PowerId::Poseidon, PowerId::Clio,  PowerId::Zeus,
                               PowerId::Morpheus, PowerId::Atlas, PowerId::Dionysus};
    auto two = eligible_powers(2, false);
    auto eligible = [&](PowerId p) { return std::find(two.begin(), two.end(), p) != two.end(); };
    std::vector<std::pair<PowerId, PowerId>> pairs;
    for (PowerId x : sharing) {
        for (PowerId y : sharing)
            if (x != y) pairs.emplace_back(x, y);
        for (PowerId y : reading) {
            pairs.emplace_back(x, y);
            pairs.emplace_back(y, x);
        }
    }
    std::shuffle(pairs.begin(), pairs.end(), rng);
    pairs.resize(static_cast<std::size_t>(shortcut_games(static_cast<int>(pairs.size()))));
    ShortcutTally t;
    for (const auto& [a, b] : pairs) {
        if (!eligible(a) || !eligible(b) || banned_pair(a, b)) continue;
        auto s = parse_notation("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=" +
                                std::string(power_info(a).key) + "," + std::string(power_info(b).key));
        if (s && rng() % 2) {
            play_compared(*s, rng, t);
            continue;
        }
        Settings st = shortcut_settings(rng, 2, DraftMode::Fixed);
        st.powers = {a, b};
        play_compared(st, rng, t);
    }
    report_tally(t);
}

// Chronus' towers near the fifth (positions of the random games that found a build completing
// it counted as no turn beside Aphrodite): a standing win comes only after a dome
// (PowerRules::wins_now_after_kinds), so a dome is never shared with the other builds nor
// judged before it, and the blocks are. Chronus against the powers whose shortcuts it meets,
// in both seats, each side to move.
TEST_CASE("shortcuts: a build that completes Chronus' fifth tower counts as playing every step", "[shortcuts]") {
    const char* boards[] = {"02210/3D0231/03D211/0313D0/03D000 A:D1,A3 B:D3,A2",
                            "02210/3D0231/03D211/0303D0/03D000 A:C2,A3 B:D3,A2",
                            "02210/3D0231/03211/0203D0/03D000 A:C2,B4 B:D3,B2"};
    const PowerId others[] = {PowerId::Aphrodite, PowerId::Nemesis,    PowerId::Medusa,  PowerId::Persephone,
                              PowerId::Adonis,    PowerId::Theseus,    PowerId::Demeter, PowerId::Hephaestus,
                              PowerId::Gaea,      PowerId::Terpsichore};
    ShortcutTally t;
    for (const char* board : boards)
        for (PowerId other : others)
            for (bool chronus_first : {true, false})
                for (const char* mover : {" A", " B"}) {
                    PowerId a = chronus_first ? PowerId::Chronus : other, b = chronus_first ? other : PowerId::Chronus;
                    if (banned_pair(a, b)) continue;
                    auto s = parse_notation(std::string(board) + mover + " powers=" + std::string(power_info(a).key) +
                                            "," + std::string(power_info(b).key));
                    if (!s || s->over()) continue;
                    ++t.games;
                    compare_shortcuts_at(*s, true, t);
                    std::uint64_t fast2 = perft_2_with(*s, true), slow2 = perft_2_with(*s, false);
                    if (fast2 != slow2) record_failure(t, *s, "perft 2 " + std::to_string(fast2) + " vs " + std::to_string(slow2));
                }
    report_tally(t);
    CHECK(t.games > 40);
}
