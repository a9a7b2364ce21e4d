// The completion rule (a step is legal only if the turn can still be brought to its end after
// it) and the counting of full turns, both by playing steps in probe mode (turn_core.hpp).

#include <string>
#include <unordered_set>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/loop_guard.hpp"
#include "engine/santorini/perft.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/turn_core.hpp"
#include "engine/santorini/turn_flow.hpp"
#include "engine/santorini/turn_shortcuts.hpp"
#include "engine/santorini/view.hpp"

namespace santorini {
namespace {

using detail::apply_turn_step;
using detail::candidates;
using detail::certainly_completes;
using detail::demands_failed_after_move;
using detail::ended_meeting_demands;
using detail::repeated;
using detail::rest_after_build_shared;
using detail::turn_done;
using detail::turn_hooks;
using detail::turn_phase;
using detail::TurnHooks;
using detail::turns_certain;

// The completion search: can the current turn be brought to its end from here (or to the end
// of the game, meeting the "if possible" demands)? A depth-first search over the raw
// candidates in probe mode.
//
// Dead ends: a search that has met many points of the turn remembers those from which it
// found no end (by detail::midturn_key: the state without the loop guard) and does not search
// them again when another path leads there. Without this, a turn of many moves with no end in
// sight (Hermes whose every build Limus forbids, or who must move up for Persephone) is
// searched path by path, which never ends. The loop guard stops exactly the moves back to a
// state on the current path (guard_loops), so this is a depth-first search of the graph of the
// turn's states: within one search a point that found no end has none but through the points
// still on the path, which the search goes on to explore. After a search that found an end
// those may lead to one, so the points it remembered are forgotten; after one that found none,
// nothing it met leads to an end, and they stay remembered for the next candidate.
class CompletionSearch {
public:
    CompletionSearch() = default;
    /// A search for a turn that is played: a declined turn (turn_flag::declined) is no end.
    /// Whether the "if possible" demands can be met asks this (a decline meets nothing).
    struct PlayedOnly {};
    explicit CompletionSearch(PlayedOnly) : declined_ends_(false) {}

    bool can_complete(const State& s) {
        std::size_t first = noted_.size();
        bool done = search(s);
        if (done) {
            for (std::size_t i = first; i < noted_.size(); ++i) dead_ends_.erase(noted_[i]);
            noted_.resize(first);
        }
        return done;
    }

private:
    bool search(const State& s) {
        if (s.over()) return ended_meeting_demands(s);
        if (s.turn.flags & turn_done)
            return declined_ends_ || !(s.turn.flags & turn_flag::declined);
        if (s.turn.flags & repeated) return false;
        const TurnHooks hooks = turn_hooks(s);
        if (demands_failed_after_move(s, hooks)) return false;
        std::string key;
        if (++points_ > remember_after) {
            key = detail::midturn_key(s);
            if (dead_ends_.contains(key)) return false;
        }
        StepList list;
        candidates(s, list);
        // Last first: generators list moves before builds and passes, and a build or a pass is
        // the short way to a turn's end (Hermes would otherwise walk every same-level path first).
        for (int i = list.size() - 1; i >= 0; --i) {
            if (certainly_completes(s, list[i], hooks, declined_ends_)) return true;
            if (turns_certain(s, list[i], hooks) == 0) continue;  // no turn ends after it
            State next = s;
            apply_turn_step(next, list[i], true);
            if (search(next)) return true;
        }
        if (!key.empty()) {
            dead_ends_.insert(key);
            noted_.push_back(std::move(key));
        }
        return false;
    }

    // Most searches end within a few points; only long ones pay for keys.
    static constexpr int remember_after = 64;
    int points_ = 0;
    bool declined_ends_ = true;
    std::unordered_set<std::string> dead_ends_;
    std::vector<std::string> noted_;  // what dead_ends_ holds, in the order found
};

// Full turns from a mid-turn probe state: dead ends add nothing, the turn's end adds one.
std::uint64_t count_from(const State& s) {
    if (s.over()) return ended_meeting_demands(s) ? 1 : 0;
    if (s.turn.flags & turn_done) return 1;
    if (s.turn.flags & repeated) return 0;
    const TurnHooks hooks = turn_hooks(s);
    if (demands_failed_after_move(s, hooks)) return 0;
    StepList list;
    candidates(s, list);
    std::uint64_t n = 0;
    // The full turns after a build whose rest of the turn is shared (rest_after_build_shared),
    // once one of them has been played, and the worker that built it.
    std::int64_t after_shared_build = -1;
    int shared_builder = -1;
    for (const Step& c : list) {
        if (int certain = turns_certain(s, c, hooks); certain >= 0) {
            n += static_cast<std::uint64_t>(certain);
            continue;
        }
        const bool shared = rest_after_build_shared(s, c, hooks);
        if (shared && after_shared_build >= 0 && c.worker == shared_builder) {
            n += static_cast<std::uint64_t>(after_shared_build);
            continue;
        }
        State next = s;
        apply_turn_step(next, c, true);
        const std::uint64_t after = count_from(next);
        if (shared) {
            after_shared_build = static_cast<std::int64_t>(after);
            shared_builder = c.worker;
        }
        n += after;
    }
    return n;
}

}  // namespace

namespace detail {

bool can_complete(const State& s) { return CompletionSearch{}.can_complete(s); }

// True if some turn that is played (not declined) can meet every "if possible" demand; if not,
// the demands are waived for the turn.
bool demands_can_be_met(const State& s) {
    return CompletionSearch{CompletionSearch::PlayedOnly{}}.can_complete(s);
}

}  // namespace detail

void legal_steps(const State& state, StepList& out) {
    out.clear();
    if (state.over()) return;
    // With secrets in play a seat decides on what it can see: its steps are made on its view,
    // and a step the hidden truth forbids is cancelled when applied (PowerRules::cancels).
    if (secrets_in_play(state)) {
        State seen = view_for(state, decider(state));
        candidates(seen, out);
        CompletionSearch search;
        const TurnHooks hooks = turn_hooks(seen);
        if (turn_phase(seen.phase) && seen.interrupt < 0)
            out.filter([&](const Step& c) {
                if (certainly_completes(seen, c, hooks)) return true;
                State next = seen;
                apply_turn_step(next, c, true);
                return search.can_complete(next);
            });
        return;
    }
    detail::legal_steps_on_truth(state, out);
}

void detail::legal_steps_on_truth(const State& state, StepList& out) {
    out.clear();
    if (state.over()) return;
    candidates(state, out);
    // An out-of-turn decision is the interrupting seat's own: the mover's completion rule
    // does not bind it (apply_checked settles a mover left without a turn).
    if (!turn_phase(state.phase) || state.interrupt >= 0) return;
    CompletionSearch search;  // one memory of dead ends for all candidates
    const TurnHooks hooks = turn_hooks(state);
    out.filter([&](const Step& c) {
        if (certainly_completes(state, c, hooks)) return true;
        if (turns_certain(state, c, hooks) == 0) return false;  // no turn ends after it
        State next = state;
        apply_turn_step(next, c, true);
        return search.can_complete(next);
    });
}

void detail::use_shortcuts(bool on) { detail::shortcuts = on; }

std::uint64_t count_full_turns(const State& state) {
    if (state.over() || !turn_phase(state.phase)) return 0;
    return count_from(state);
}

bool turn_can_complete(const State& state) { return detail::can_complete(state); }

}  // namespace santorini
