// Random games through the whole engine: setup and draft as steps, every implemented power,
// 2, 3 and 4 players, the Golden Fleece. After every step the state must be consistent; every
// game must end, replay bit for bit from its settings and steps, and write a notation at each
// turn start that reads back to the same notation and the same legal steps.
//
// Failures are collected as text and reported once per group, so one bug does not produce
// thousands of assertion lines (and the loop stays fast).
//
// 10,800 games in all: about 15 s in a release build, about 12 minutes in a Debug build with
// AddressSanitizer (the engine's legal_steps dominates, and debug apply_step checks legality
// again). SANTORINI_RANDOM_GAMES_PERCENT=10 plays a tenth of every group (about a minute under
// the sanitizers), for a job that must stay short; unset, every group plays in full.
//
// The 2-player pair sweep also reports (a warning) the seats of a matchup that never took a
// step of their own power while that power does in other matchups, and the powers that never
// take one (passive ones: restrictions, vetoes, standing wins). SANTORINI_RANDOM_PAIR_GAMES=N
// plays N games per pair instead of the default 2, for a longer sweep.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"

using namespace santorini;

namespace {

constexpr int step_bound = 400;  // a game still running after this many steps is recorded

// `n` games, or the percentage of them SANTORINI_RANDOM_GAMES_PERCENT asks for (at least one).
int games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

struct Outcome {
    int games = 0;
    int finished = 0;
    int over_bound = 0;
    long steps = 0;
    std::vector<std::string> failures;  // the first few, with the game's settings and step
    int failure_count = 0;
};

std::string describe(const Settings& st) {
    std::string out = "players=" + std::to_string(st.players) + " draft=" + std::to_string(static_cast<int>(st.draft)) +
                      " seed=" + std::to_string(st.seed) + " challenger=" + std::to_string(st.challenger) +
                      " start=" + std::to_string(st.start_player) + (st.golden_fleece ? " fleece" : "") + " powers=";
    for (auto p : st.powers) out += std::string(power_info(p).key) + ",";
    return out;
}

void fail(Outcome& o, const Settings& st, int step_index, const std::string& what) {
    if (++o.failure_count <= 5) o.failures.push_back(describe(st) + " step " + std::to_string(step_index) + ": " + what);
}

std::vector<std::string> step_texts(const State& s) {
    StepList list;
    legal_steps(s, list);
    std::vector<std::string> out;
    for (const Step& st : list) out.push_back(to_text(st));
    std::sort(out.begin(), out.end());
    return out;
}

// Checks made after every step, beyond check_invariants: heights, pieces on distinct spaces,
// no worker on a dome or the Ram, the list empty exactly when the game is over.
std::string check_state(const State& s, const StepList& next) {
    std::string e = check_invariants(s);
    if (!e.empty()) return "check_invariants: " + e;
    Bitboard pieces = 0;
    for (Square sq = 0; sq < square_count; ++sq)
        if (s.board.height(sq) < 0 || s.board.height(sq) > 3) return "height out of range at " + square_name(sq);
    for (int w = 0; w < s.worker_count; ++w) {
        Square sq = s.worker(w).square;
        if (sq == no_square) continue;
        if (pieces & bit(sq)) return "two workers on " + square_name(sq);
        if (s.board.has_dome(sq)) return "a worker on a dome at " + square_name(sq);
        pieces |= bit(sq);
    }
    if (s.ram != no_square && ((pieces | s.board.domes()) & bit(s.ram))) return "the Ram shares its space";
    if (next.empty() != s.over()) return s.over() ? "steps listed after the game ended" : "no legal step but the game goes on";
    if ((decider(s) < 0) != s.over()) return "decider disagrees with the game being over";
    return "";
}

// Checks a turn start: the notation reads back to the same notation, the same workers at the
// same indices (docs/engine.md G22; a worker off the board keeps no mark) and (`with_steps`)
// the same legal steps.
std::string check_notation(const State& s, const StepList& steps, bool with_steps) {
    std::string text = to_notation(s);
    auto back = parse_notation(text);
    if (!back.ok()) return "notation '" + text + "' does not parse: " + back.error().message;
    if (to_notation(*back) != text) return "notation '" + text + "' reads back as '" + to_notation(*back) + "'";
    if (back->worker_count != s.worker_count) return "notation '" + text + "' reads back with another worker count";
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker &a = s.worker(w), &b = back->worker(w);
        bool same = a.square == b.square && a.side == b.side && a.in_reserve == b.in_reserve &&
                    (a.square == no_square || a.female == b.female);
        if (!same) return "notation '" + text + "' reads back with worker " + std::to_string(w) + " elsewhere";
    }
    if (!with_steps) return "";
    std::vector<std::string> here;
    for (const Step& st : steps) here.push_back(to_text(st));
    std::sort(here.begin(), here.end());
    if (step_texts(*back) != here) return "notation '" + text + "' reads back with other legal steps";
    return "";
}

// Called before each step is applied, with the state it is taken in.
using StepObserver = std::function<void(const State&, const Step&)>;

// Plays one random game from `st`; records what went wrong in `o`. Every step is drawn from
// the legal list (apply_step asserts that again in debug builds); in every tenth game each
// step also goes through its text (parse_step) and try_step, which checks it against a
// freshly generated list, and each turn start's notation must read back with the same steps.
void play_game(const Settings& st, std::mt19937_64& rng, Outcome& o, const StepObserver& observe = {}) {
    bool through_text = o.games % 10 == 0;
    ++o.games;
    auto created = new_game(st);
    if (!created.ok()) {
        fail(o, st, -1, "new_game refused: " + created.error().message);
        return;
    }
    State s = *created;
    std::vector<Step> played;
    int last_turn = -1;
    StepList list;
    legal_steps(s, list);
    if (auto e = check_state(s, list); !e.empty()) fail(o, st, 0, e);
    while (!s.over() && static_cast<int>(played.size()) < step_bound) {
        const Step step = list[static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()))];
        int index = static_cast<int>(played.size());
        if (observe) observe(s, step);
        if (through_text) {
            auto parsed = parse_step(s, to_text(step));
            if (!parsed || !(*parsed == step)) {
                fail(o, st, index, "step text '" + to_text(step) + "' does not read back as the same step");
                return;
            }
            if (auto e = try_step(s, step)) {
                fail(o, st, index, "a listed step was refused: " + *e);
                return;
            }
        } else {
            apply_step(s, step);
        }
        played.push_back(step);
        legal_steps(s, list);
        if (auto e = check_state(s, list); !e.empty()) {
            fail(o, st, index, e + " after '" + to_text(step) + "'");
            return;
        }
        // A turn start is a turn's first state (a new turn number), not any Begin state with no
        // worker selected yet: Odysseus' forces come before his worker is chosen.
        if (!s.over() && s.phase == Phase::Begin && s.turn.number != last_turn) {
            last_turn = s.turn.number;
            if (auto e = check_notation(s, list, through_text); !e.empty()) fail(o, st, index, e);
        }
    }
    o.steps += static_cast<long>(played.size());
    if (s.over())
        ++o.finished;
    else
        ++o.over_bound;
    // Replay: the same settings and steps give the same state, bit for bit.
    State r = *new_game(st);
    for (const Step& step : played) apply_step(r, step);
    if (!(r == s)) fail(o, st, static_cast<int>(played.size()), "the replay ends in a different state");
}

void report(const Outcome& o, const char* group) {
    INFO(group << ": " << o.games << " games, " << o.finished << " finished, " << o.over_bound << " over "
               << step_bound << " steps, " << o.steps << " steps, " << o.failure_count << " failures");
    for (const auto& f : o.failures) UNSCOPED_INFO(f);
    CHECK(o.failure_count == 0);
    CHECK(o.finished + o.over_bound == o.games);
    // With the win condition every game ends: a game left over the bound is a finding.
    CHECK(o.over_bound == 0);
}

// True if `step`, taken by the decider in a turn of `s`, is one a game without powers never
// offers: a kind only powers make (force, remove, capture, place, token, aim, select), or a
// move or build outside the plain turn (a further move, a move that displaces a worker or
// climbs two levels or jumps, a build before moving or after the first, a dome below level 3).
// A restriction or a veto (Athena, Hera, Limus) is no step of its owner, so passive powers
// never use one; Pan's win by moving down is a plain move here.
bool power_step(const State& s, const Step& st) {
    if (!in_play(s)) return false;  // setup steps (Tartarus' Abyss, Aeolus' Wind) are always made
    auto plain_build = [&] {
        return s.interrupt < 0 && s.phase == Phase::AfterMove && st.aux != 1 && st.worker == s.turn.worker &&
               (neighbors(st.from) & bit(st.to)) != 0;
    };
    switch (st.kind) {
        case StepKind::Move:
            return s.interrupt >= 0 || s.phase != Phase::Begin || s.turn.moves != 0 || st.aux != no_square ||
                   !(neighbors(st.from) & bit(st.to)) || s.board.height(st.to) - s.board.height(st.from) > 1;
        case StepKind::Build: return !plain_build();
        case StepKind::Dome: return !plain_build() || s.board.height(st.to) != 3;
        case StepKind::Pass:
        case StepKind::EndTurn: return false;
        default: return true;
    }
}

// Games per pair for the 2-player sweep: SANTORINI_RANDOM_PAIR_GAMES asks for more (a longer
// sweep, so that fewer matchups end before a power's chance comes), else `n`.
int pair_games(int n) {
    const char* asked = std::getenv("SANTORINI_RANDOM_PAIR_GAMES");
    int a = asked ? std::atoi(asked) : 0;
    return a > 0 ? a : games(n);
}

Settings base(std::mt19937_64& rng, int players, DraftMode draft) {
    Settings st;
    st.players = players;
    st.draft = draft;
    st.challenger = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
    // Half the games name the start player up front; the others let the challenger name it.
    st.start_player = rng() % 2 ? static_cast<int>(rng() % static_cast<std::uint64_t>(players)) : -1;
    st.seed = rng();
    return st;
}

}  // namespace

TEST_CASE("random games without powers stay consistent, end and replay", "[random][base]") {
    std::mt19937_64 rng(1);
    Outcome o;
    for (int g = 0; g < games(2000); ++g) play_game(base(rng, 2, DraftMode::None), rng, o);
    report(o, "2p without powers");
}

TEST_CASE("random games with every pair of powers stay consistent, end and replay", "[random][powers]") {
    std::mt19937_64 rng(2);
    auto eligible = eligible_powers(2, false);
    std::vector<std::pair<PowerId, PowerId>> pairs;
    for (auto a : eligible)
        for (auto b : eligible)
            if (a != b && !banned_pair(a, b)) pairs.emplace_back(a, b);
    REQUIRE(!pairs.empty());
    int per_pair = pair_games(std::max(2, 3600 / static_cast<int>(pairs.size())));
    Outcome o;
    // Which seats of each pair took a step of their own power (power_step), and which powers
    // ever did: a power that uses steps elsewhere but never in some matchup is reported (a
    // warning, not a failure: a few random games may end before its chance, and a matchup may
    // rule it out, as Hecate's hidden workers do Adonis' and Odysseus').
    std::map<std::pair<PowerId, PowerId>, int> used_in_pair;  // bit 0: a's steps, bit 1: b's
    std::map<PowerId, bool> used_anywhere;
    for (auto [a, b] : pairs) {
        int& used = used_in_pair[{a, b}];
        for (int g = 0; g < per_pair; ++g) {
            Settings st = base(rng, 2, DraftMode::Fixed);
            st.powers = {a, b};
            play_game(st, rng, o, [&](const State& s, const Step& step) {
                int seat = decider(s);
                if (seat >= 0 && seat < 2 && power_step(s, step)) used |= 1 << seat;
            });
        }
        if (used & 1) used_anywhere[a] = true;
        if (used & 2) used_anywhere[b] = true;
    }
    report(o, "2p fixed pairs");
    int unused = 0;
    std::string listed;
    for (auto [pair, used] : used_in_pair)
        for (int seat = 0; seat < 2; ++seat) {
            PowerId p = seat == 0 ? pair.first : pair.second;
            if ((used >> seat & 1) || !used_anywhere[p]) continue;
            if (++unused <= 40)
                listed += "\n  " + std::string(power_info(p).key) + " (seat " + std::to_string(seat) + ", against " +
                          std::string(power_info(seat == 0 ? pair.second : pair.first).key) + ")";
        }
    std::string passive;
    for (auto p : eligible)
        if (!used_anywhere[p]) passive += " " + std::string(power_info(p).key);
    WARN("2p sweep, " << per_pair << " games per pair (SANTORINI_RANDOM_PAIR_GAMES for more): "
                      << unused << " seats of a pair never took a step of their own power, though it does elsewhere"
                      << (unused > 40 ? " (the first 40)" : "") << ":" << listed
                      << "\n  powers with no step of their own in any game (passive, or never reached):" << passive);
}

TEST_CASE("random games with the Golden Fleece and each eligible power", "[random][fleece]") {
    std::mt19937_64 rng(3);
    auto eligible = eligible_powers(2, true);
    REQUIRE(!eligible.empty());
    int per_power = games(std::max(20, 900 / static_cast<int>(eligible.size())));
    Outcome o;
    for (auto p : eligible)
        for (int g = 0; g < per_power; ++g) {
            Settings st = base(rng, 2, DraftMode::Fixed);
            st.golden_fleece = true;
            st.powers = {p};
            play_game(st, rng, o);
        }
    for (int g = 0; g < games(100); ++g) {  // the fleece power chosen by the challenger
        Settings st = base(rng, 2, DraftMode::FullOffer);
        st.golden_fleece = true;
        play_game(st, rng, o);
    }
    report(o, "Golden Fleece");
}

TEST_CASE("random 3 and 4 player games with random powers", "[random][players]") {
    std::mt19937_64 rng(4);
    Outcome o;
    for (int players : {3, 4})
        for (int g = 0; g < games(1200); ++g) play_game(base(rng, players, DraftMode::Random), rng, o);
    report(o, "3p/4p random draft");
}

TEST_CASE("random games with the offer drafts played through steps", "[random][draft]") {
    std::mt19937_64 rng(5);
    Outcome o;
    for (int players : {2, 3, 4})
        for (DraftMode mode : {DraftMode::FullOffer, DraftMode::SubsetOffer})
            for (int g = 0; g < games(300); ++g) play_game(base(rng, players, mode), rng, o);
    report(o, "offer drafts");
}
