#include "random_play.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>

#include "engine/santorini/notation.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/turn_flow.hpp"

using namespace santorini;

namespace random_play {

int games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

std::string describe(const Settings& st) {
    std::string out = "players=" + std::to_string(st.players) +
                      " draft=" + std::to_string(static_cast<int>(st.draft)) +
                      " seed=" + std::to_string(st.seed) +
                      " challenger=" + std::to_string(st.challenger) +
                      " start=" + std::to_string(st.start_player) +
                      (st.golden_fleece ? " fleece" : "") + " powers=";
    for (auto p : st.powers) out += std::string(power_info(p).key) + ",";
    return out;
}

namespace {

void fail(Outcome& o, const Settings& st, int step_index, const std::string& what) {
    if (++o.failure_count <= 5)
        o.failures.push_back(describe(st) + " step " + std::to_string(step_index) + ": " + what);
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
        if (s.board.height(sq) < 0 || s.board.height(sq) > 3)
            return "height out of range at " + square_name(sq);
    for (int w = 0; w < s.worker_count; ++w) {
        Square sq = s.worker(w).square;
        if (sq == no_square) continue;
        if (pieces & bit(sq)) return "two workers on " + square_name(sq);
        if (s.board.has_dome(sq)) return "a worker on a dome at " + square_name(sq);
        pieces |= bit(sq);
    }
    if (s.ram != no_square && ((pieces | s.board.domes()) & bit(s.ram)))
        return "the Ram shares its space";
    if (next.empty() != s.over())
        return s.over() ? "steps listed after the game ended"
                        : "no legal step but the game goes on";
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
    if (to_notation(*back) != text)
        return "notation '" + text + "' reads back as '" + to_notation(*back) + "'";
    if (back->worker_count != s.worker_count)
        return "notation '" + text + "' reads back with another worker count";
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker &a = s.worker(w), &b = back->worker(w);
        bool same = a.square == b.square && a.side == b.side && a.in_reserve == b.in_reserve &&
                    (a.square == no_square || a.female == b.female);
        if (!same)
            return "notation '" + text + "' reads back with worker " + std::to_string(w) +
                   " elsewhere";
    }
    if (!with_steps) return "";
    std::vector<std::string> here;
    for (const Step& st : steps) here.push_back(to_text(st));
    std::sort(here.begin(), here.end());
    if (step_texts(*back) != here)
        return "notation '" + text + "' reads back with other legal steps";
    return "";
}

// The power_step test on the step itself (see power_step).
bool power_step_as_listed(const State& s, const Step& st) {
    // Every step of an added turn (Dionysus') is one his power gives, a Pass declining it too.
    if (s.interrupt < 0 && (s.turn.flags & turn_flag::extra_turn)) return true;
    auto plain_build = [&] {
        return s.interrupt < 0 && s.phase == Phase::AfterMove && st.aux != 1 &&
               st.worker == s.turn.worker && (neighbors(st.from) & bit(st.to)) != 0;
    };
    switch (st.kind) {
        case StepKind::Move:
            return s.interrupt >= 0 || s.phase != Phase::Begin || s.turn.moves != 0 ||
                   st.aux != no_square || !(neighbors(st.from) & bit(st.to)) ||
                   s.board.height(st.to) - s.board.height(st.from) > 1;
        case StepKind::Build:
            return !plain_build();
        case StepKind::Dome:
            return !plain_build() || s.board.height(st.to) != 3;
        case StepKind::Pass:
        case StepKind::EndTurn:
            return false;
        default:
            return true;
    }
}

}  // namespace

// Every step is drawn from the legal list (apply_step asserts that again in debug builds); in
// every tenth game each step also goes through its text (parse_step) and try_step, which checks
// it against a freshly generated list, and each turn start's notation must read back with the
// same steps.
void play_game(const Settings& st, std::mt19937_64& rng, Outcome& o, const StepObserver& observe,
               const StepChooser& choose) {
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
        const Step step =
            list[choose ? choose(s, list, rng)
                        : static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()))];
        int index = static_cast<int>(played.size());
        if (observe) observe(s, step);
        if (through_text) {
            auto parsed = parse_step(s, to_text(step));
            if (!parsed || !(*parsed == step)) {
                fail(o, st, index,
                     "step text '" + to_text(step) + "' does not read back as the same step");
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
    if (!(r == s))
        fail(o, st, static_cast<int>(played.size()), "the replay ends in a different state");
}

void report(const Outcome& o, const char* group) {
    INFO(group << ": " << o.games << " games, " << o.finished << " finished, " << o.over_bound
               << " over " << step_bound << " steps, " << o.steps << " steps, " << o.failure_count
               << " failures");
    for (const auto& f : o.failures) UNSCOPED_INFO(f);
    CHECK(o.failure_count == 0);
    CHECK(o.finished + o.over_bound == o.games);
    // With the win condition every game ends: a game left over the bound is a finding.
    CHECK(o.over_bound == 0);
}

// A step of the decider's power is a kind only powers make (force, remove, capture, place,
// token, aim, select), a move or build outside the plain turn (a further move, a move that
// displaces a worker or climbs two levels or jumps, a build before moving or after the first, a
// dome below level 3, a build by a worker that did not move), or any step of an added turn. A
// restriction or a veto (Athena, Hera, Limus) is no step of its owner, so passive powers never
// take one; Pan's win by moving down is a plain move here. Setup steps (Tartarus' Abyss,
// Aeolus' Wind) are always made, so they do not count.
bool power_step(const State& s, const Step& step) {
    if (!in_play(s)) return false;
    if (secrets_in_play(s))
        if (auto truth = detail::true_step(s, step)) return power_step_as_listed(s, *truth);
    return power_step_as_listed(s, step);
}

Settings base(std::mt19937_64& rng, int players, DraftMode draft) {
    Settings st;
    st.players = players;
    st.draft = draft;
    st.challenger = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
    // Half the games name the start player up front; the others let the challenger name it.
    st.start_player =
        rng() % 2 ? static_cast<int>(rng() % static_cast<std::uint64_t>(players)) : -1;
    st.seed = rng();
    return st;
}

}  // namespace random_play
