// The core turn: applying a step up to the next decision, the turn's end and the next turn's
// start, and the public entry points that play steps. The candidates are in candidates.cpp,
// the completion rule in completion.cpp (turn_core.hpp). Powers plug in through PowerRules.

#include <cassert>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/loop_guard.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers_in_play.hpp"
#include "engine/santorini/turn_core.hpp"
#include "engine/santorini/turn_flow.hpp"
#include "engine/santorini/turn_shortcuts.hpp"
#include "engine/santorini/view.hpp"

namespace santorini {
namespace hook = detail::hook;
namespace {

using detail::apply_turn_step;
using detail::can_complete;
using detail::candidates;
using detail::demands_can_be_met;
using detail::for_each_card;
using detail::guard_loops;
using detail::if_possible_in_play;
using detail::mark_visited;
using detail::record_of;
using detail::TurnRecord;
using detail::for_each_power;
using detail::for_each_power_in_play;
using detail::turn_done;
using detail::turn_may_end;
using detail::turn_phase;

void finish_turn(State& s, bool probe) {
    int seat = s.turn.seat;
    if (probe) {
        s.turn.flags |= turn_done;
        return;
    }
    for_each_power(s, seat, hook::own_turn_end, [&](const PowerRules& r) {
        if (r.own_turn_end) r.own_turn_end(s, seat);
    });
    for_each_power_in_play(s, hook::on_turn_end, [&](int o, const PowerRules& r) {
        if (r.on_turn_end) r.on_turn_end(s, o, seat);
    });
    // The god a card acts as (Chaos' face-up god, the one of this turn) before the card's own
    // hook, which may change that god.
    for_each_card(s, [&](int card, const PowerRules& r) {
        const PowerRules& god = rules_of(s.acting_as[static_cast<std::size_t>(card)]);
        if (god.card_turn_end) god.card_turn_end(s, card);
        if (r.card_turn_end) r.card_turn_end(s, card);
    });
    if (s.over()) return;
    int extra = -1;
    for_each_power_in_play(s, hook::takes_extra_turn, [&](int o, const PowerRules& r) {
        if (extra < 0 && r.takes_extra_turn && r.takes_extra_turn(s, o, seat)) extra = o;
    });
    if (extra >= 0)
        detail::start_turn(s, extra, turn_flag::extra_turn);
    else
        detail::start_turn(s, detail::next_seat_in(s, seat));
}

// The turn is complete. With confirm_turns it waits in Phase::Confirm for its player's EndTurn
// (so that the last steps can still be taken back); a probe never waits, so the completion rule
// and perft see the same turns either way. Only the ends a player brings about wait: a
// cancelled step, a concession or a blind turn end at once (nothing of them can be taken back).
void complete_turn(State& s, bool probe) {
    if (!probe && s.setup.confirm_turns) {
        s.phase = Phase::Confirm;
        return;
    }
    finish_turn(s, probe);
}

// Moves on through the parts of the turn that offer nothing to decide. A turn that may not
// end and offers nothing is a dead end: it stays as it is, and the completion rule sees that.
void advance(State& s, bool probe) {
    StepList next;
    while (!s.over() && !(s.turn.flags & turn_done) && s.interrupt < 0) {
        if (s.phase != Phase::AfterBuild && s.phase != Phase::End) return;
        next.clear();
        candidates(s, next);
        if (!next.empty()) return;
        if (!turn_may_end(s)) return;
        if (s.phase == Phase::AfterBuild)
            s.phase = Phase::End;
        else
            complete_turn(s, probe);
    }
}

bool standing_win_denied(const State& s, int winner) {
    bool denied = false;
    for_each_power_in_play(s, hook::denies_standing_win, [&](int o, const PowerRules& r) {
        if (!denied && r.denies_standing_win && r.denies_standing_win(s, o, winner)) denied = true;
    });
    return denied;
}

void check_standing_wins(State& s) {
    for_each_power_in_play(s, hook::wins_now, [&](int o, const PowerRules& r) {
        if (!s.over() && r.wins_now && r.wins_now(s, o) && !standing_win_denied(s, o)) declare_winner(s, s.seat(o).side);
    });
}

void do_move(State& s, int mover, const Step& st) {
    Turn& t = s.turn;
    int from_height = s.board.height(st.from);
    if (st.aux != no_square) {
        int other = s.worker_at(st.to);
        assert(other >= 0);
        s.worker(other).square = st.aux;
    }
    s.worker(st.worker).square = st.to;
    if (t.worker != st.worker) {
        if (t.worker < 0) t.start = st.from;
        t.worker = st.worker;
    }
    if (t.moves < 2) ++t.moves;  // 0, 1, or "two or more": all any power asks, and it keeps
                                 // equal turn states equal however long the path (perft --distinct)
    t.moved_workers = static_cast<std::uint16_t>(t.moved_workers | (1u << st.worker));
    int to_height = s.board.height(st.to);
    if (to_height > from_height) t.flags |= turn_flag::moved_up;
    if (to_height != from_height) t.flags |= turn_flag::level_changed;
    s.phase = Phase::AfterMove;

    bool win = to_height == 3 && from_height < 3;
    for_each_power(s, mover, hook::wins_by_move, [&](const PowerRules& r) {
        if (!win && r.wins_by_move) win = r.wins_by_move(s, mover, st, from_height);
    });
    if (!win) return;
    int winner_side = s.seat(mover).side;
    for_each_power_in_play(s, hook::win_veto, [&](int o, const PowerRules& r) {
        if (!win || !r.win_veto) return;
        switch (r.win_veto(s, o, mover, st)) {
            case WinVeto::Allow: break;
            case WinVeto::Deny: win = false; break;
            case WinVeto::OwnerWins: winner_side = s.seat(o).side; break;
        }
    });
    if (win) declare_winner(s, winner_side);
}

void do_build(State& s, const Step& st) {
    Turn& t = s.turn;
    if (st.kind == StepKind::Dome) {
        s.board.add_dome(st.to);
        t.flags |= turn_flag::dome_built;
    } else {
        s.board.add_block(st.to);
    }
    if (st.aux == 1) {  // a build before moving: this worker is now the one that must move
        t.worker = st.worker;
        t.start = st.from;
        t.flags |= turn_flag::built_before_move;
        return;
    }
    if (t.worker < 0) {  // built without moving (Hermes moving zero times)
        t.worker = st.worker;
        t.start = st.from;
    }
    ++t.builds;
    t.last_build = st.to;
    s.phase = Phase::AfterBuild;
}

// A hero's use is spent by its own steps, before each is applied: a step that ends the game runs
// none of the owner's later hooks, and the use still happened (PowerRules::hero_use).
void spend_hero_uses(State& s, int mover, const Step& st) {
    const ActivePowers act = powers_in_effect(s, mover);
    for (int i = 0; i < act.size; ++i) {
        const PowerRules& r = rules_of(act.ids[i]);
        if (r.hero_use && r.hero_use(s, mover, st)) powers::spend_hero(s, act.cards[i]);
    }
}

bool cancelled(const State& s, int mover, const Step& st) {
    bool c = false;
    for_each_power_in_play(s, hook::cancels, [&](int o, const PowerRules& r) {
        if (!c && r.cancels && r.cancels(s, o, mover, st)) c = true;
    });
    return c;
}

// The step on the truth that `seen`, listed on the decider's view (secrets in play, 3.2),
// stands for: itself, or the true candidate of the same kind, worker, from and to (the power is
// used on the player's behalf: Apollo's move onto a hidden worker is his swap; docs/engine.md
// G4.2); none if the truth has no such step (it is cancelled).
std::optional<Step> true_counterpart(const State& s, const Step& seen) {
    StepList truth;
    candidates(s, truth);
    if (truth.contains(seen)) return seen;
    for (const Step& c : truth)
        if (c.kind == seen.kind && c.worker == seen.worker && c.from == seen.from && c.to == seen.to) return c;
    return std::nullopt;
}

// With secrets in play a seat decides on its view. When that view offers it nothing while the
// truth still waits for it (a mandatory step only the truth has: Medusa's capture of a hidden
// worker), the rest of the turn is lost as after a cancelled step.
void end_blind_turns(State& s) {
    for (int guard = 0; guard < 16; ++guard) {
        if (s.over() || !turn_phase(s.phase) || s.interrupt >= 0) return;
        StepList seen;
        legal_steps(s, seen);
        if (!seen.empty()) return;
        finish_turn(s, false);
    }
}

// `omniscient`: the step comes from the true list (perft with secrets, G21), not from a view.
void apply_checked(State& state, const Step& step, bool omniscient = false) {
    if (!turn_phase(state.phase)) {
        detail::apply_setup_step(state, step);
        return;
    }
    bool out_of_turn = state.interrupt >= 0;
    const bool secrets = secrets_in_play(state);
    Step actual = step;
    if (secrets && !omniscient) {
        std::optional<Step> t = true_counterpart(state, step);
        if (t) {
            actual = *t;
        } else if (out_of_turn) {
            actual = Step::pass();  // an out-of-turn step the truth forbids is declined
        } else {
            finish_turn(state, false);  // cancelled: the rest of the turn is lost (3.7)
            end_blind_turns(state);
            return;
        }
    }
    apply_turn_step(state, actual, false);
    // An out-of-turn decision can leave the mover without a way to finish the turn: a power
    // text that says "must" then makes the mover lose (RULES.md: "cannot"/"must" binds).
    if (out_of_turn && !state.over() && turn_phase(state.phase) && state.interrupt < 0 && !can_complete(state)) {
        int seat = state.turn.seat;
        lose(state, seat);
        if (!state.over()) detail::start_turn(state, detail::next_seat_in(state, seat));
    }
    if (secrets && !omniscient) end_blind_turns(state);
}

// After a concession on another seat's turn: the turn goes on without the conceded workers
// and power (docs/rulings.md 15). Parts that needed them and now offer nothing are passed
// through (Medusa's capture "if possible"); an "if possible" demand no complete turn can meet
// any more is waived, as at the turn's start; a turn with no way left to its end (Dionysus
// was moving the conceded worker) ends where it stands: no power text made the mover fail,
// and losing is judged at a turn's start (RULES.md), so the mover does not lose.
void go_on_without(State& s) {
    check_standing_wins(s);  // a standing win a removed power denied happens now
    advance(s, false);
    if (s.over() || s.interrupt >= 0) return;
    if (if_possible_in_play(s) && !s.turn.if_possible_waived && !demands_can_be_met(s))
        s.turn.if_possible_waived = true;
    if (!can_complete(s)) finish_turn(s, false);
}

}  // namespace

void detail::apply_turn_step(State& s, const Step& st, bool probe) {
    if (s.interrupt >= 0) {  // an out-of-turn decision: the power applies its own step
        int who = s.interrupt;
        s.interrupt = -1;
        if (st.kind != StepKind::Pass)
            for_each_power(s, who, hook::after_step, [&](const PowerRules& r) {
                if (r.after_step && (r.after_step_kinds & step_kind_bit(st.kind))) r.after_step(s, who, st);
            });
        check_standing_wins(s);
        advance(s, probe);
        // A decision that leaves the mover no way to finish ends the turn in the mover's loss
        // in real play (apply_checked); a probe ends the turn there too, so the completion
        // rule and perft at depth 1 count that turn as real play does (G21).
        if (probe && !s.over() && !(s.turn.flags & turn_done) && s.interrupt < 0 && !can_complete(s))
            s.turn.flags |= turn_done;
        return;
    }
    int mover = s.turn.seat;
    const TurnRecord before = record_of(s.turn);
    if (!probe && st.kind != StepKind::EndTurn && cancelled(s, mover, st)) {
        finish_turn(s, probe);
        return;
    }
    if (detail::hooks_of_seat(s, mover) & hook::hero_use) spend_hero_uses(s, mover, st);
    switch (st.kind) {
        case StepKind::Move: do_move(s, mover, st); break;
        case StepKind::Build:
        case StepKind::Dome: do_build(s, st); break;
        case StepKind::Force: s.worker(st.aux).square = st.to; break;
        case StepKind::Remove: s.board.remove_block(st.to); break;
        case StepKind::Capture: s.worker(st.aux).square = no_square; break;
        case StepKind::Place:
            s.worker(st.worker).square = st.to;
            s.worker(st.worker).in_reserve = false;
            break;
        case StepKind::Pass:
            // Declining what is left: the turn goes to its end-of-turn part, where powers
            // that say the turn may not end yet (and End-phase steps) still have their say.
            if (s.phase != Phase::End)
                s.phase = Phase::End;
            else
                complete_turn(s, probe);
            break;
        case StepKind::EndTurn: finish_turn(s, probe); break;
        case StepKind::Token:
        case StepKind::Aim:
        case StepKind::Select: break;  // the power's after_step applies it
        default: assert(false && "setup step in a turn"); break;
    }
    // A turn that ended (or waits to end, as it would have ended) hears no more of its steps.
    if (s.over() || (s.turn.flags & turn_done) || s.turn.number != before.number || s.phase == Phase::Confirm) return;
    for_each_power(s, mover, hook::after_step, [&](const PowerRules& r) {
        if (r.after_step && (r.after_step_kinds & step_kind_bit(st.kind))) r.after_step(s, mover, st);
    });
    // The move itself first (Charybdis' pull), then the movements after it (Harpies' slide),
    // then what judges the result (Tartarus' Abyss, Gaea), so that no effect depends on which
    // seat sits first (G13, T18).
    for_each_power_in_play(s, hook::completes_move, [&](int o, const PowerRules& r) {
        if (r.completes_move) r.completes_move(s, o, mover, st);
    });
    // A pull that won ended the game: nothing slides after a win (W5).
    if (!s.over())
        for_each_power_in_play(s, hook::after_any_move, [&](int o, const PowerRules& r) {
            if (r.after_any_move) r.after_any_move(s, o, mover, st);
        });
    for_each_power_in_play(s, hook::after_any_step, [&](int o, const PowerRules& r) {
        if (r.after_any_step) r.after_any_step(s, o, mover, st);
    });
    check_standing_wins(s);
    if (s.over()) return;
    if (s.seat(mover).out) {  // a power made the mover lose during its own turn (the Abyss)
        if (probe)
            s.turn.flags |= turn_done;
        else
            detail::start_turn(s, detail::next_seat_in(s, mover));
        return;
    }
    guard_loops(s, before, st);
    advance(s, probe);
}

int decider(const State& state) {
    if (state.over()) return -1;
    return state.interrupt >= 0 ? state.interrupt : state.turn.seat;
}


void detail::apply_on_truth(State& state, const Step& step) { apply_checked(state, step, true); }

std::optional<Step> detail::true_step(const State& state, const Step& seen) { return true_counterpart(state, seen); }

void apply_step(State& state, const Step& step) {
#ifndef NDEBUG
    StepList legal;
    legal_steps(state, legal);
    assert(legal.contains(step));
#endif
    apply_checked(state, step);
}

std::optional<std::string> try_step(State& state, const Step& step) {
    if (state.over()) return "the game is over";
    StepList legal;
    legal_steps(state, legal);
    if (!legal.contains(step)) return "that step is not legal now: " + to_text(step);
    apply_checked(state, step);
    return std::nullopt;
}


bool in_play(const State& state) { return turn_phase(state.phase); }

std::optional<std::string> concede(State& state, int seat) {
    if (!in_play(state)) return "the game is not being played";
    if (seat < 0 || seat >= state.seat_count || state.seat(seat).out) return "that seat is not in the game";
    int side = state.seat(seat).side;
    bool its_turn = state.seat(state.turn.seat).side == side;
    bool its_decision = state.interrupt >= 0 && state.seat(state.interrupt).side == side;
    lose(state, seat);
    if (state.over()) return std::nullopt;
    if (its_turn) {
        detail::start_turn(state, detail::next_seat_in(state, seat));
        return std::nullopt;
    }
    if (its_decision) state.interrupt = -1;  // the decision it owed is declined, as by a pass
    go_on_without(state);
    return std::nullopt;
}

namespace detail {

void set_up_cards(State& s) {
    for_each_card(s, [&](int card, const PowerRules& r) {
        if (r.card_setup) r.card_setup(s, card);
    });
}

int next_seat_in(const State& s, int seat) {
    for (int i = 1; i <= s.seat_count; ++i) {
        int n = (seat + i) % s.seat_count;
        if (!s.seat(n).out) return n;
    }
    return seat;
}

namespace {

}  // namespace

void start_turn(State& s, int seat, std::uint16_t flags) {
    while (!s.over()) {
        std::uint16_t number = static_cast<std::uint16_t>(s.turn.number + 1);
        s.turn = Turn{};
        s.turn.number = number;
        s.turn.seat = static_cast<std::int8_t>(seat);
        s.turn.flags = flags;
        s.phase = Phase::Begin;
        s.interrupt = -1;
        int side = s.seat(seat).side;
        for (int w = 0; w < s.worker_count; ++w)
            if (s.worker(w).side == side && s.worker(w).square != no_square) s.turn.movable |= std::uint32_t{1} << w;
        s.fleece_holders = 0;
        if (s.ram != no_square)
            for (int i = 0; i < s.seat_count; ++i)
                if (!s.seat(i).out && (s.side_squares(s.seat(i).side) & neighbors(s.ram)))
                    s.fleece_holders |= static_cast<std::uint8_t>(1u << i);
        // With the fleece only its power gives extra turns (Dionysus): the seat that earned one
        // holds the power through it, as through the turn that earned it.
        if (s.ram != no_square && (flags & turn_flag::extra_turn)) s.fleece_holders |= static_cast<std::uint8_t>(1u << seat);
        // Who holds which card first (Circe), so every turn-start hook sees the new holders.
        for_each_power_in_play(s, hook::before_turn_start, [&](int o, const PowerRules& r) {
            if (r.before_turn_start) r.before_turn_start(s, o, seat);
        });
        for_each_power_in_play(s, hook::on_turn_start, [&](int o, const PowerRules& r) {
            if (r.on_turn_start) r.on_turn_start(s, o, seat);
        });
        mark_visited(s);
        // A standing win denied during the last turn (Dionysus' extra turn) happens now.
        check_standing_wins(s);
        // "If possible" (Persephone): decided once every turn-start hook has had its say
        // (Hypnus' freeze counts, whatever the seat order); a demand no complete turn can meet
        // is waived for the turn, so it never makes the mover lose. Turns that use a hero
        // power do not count: no opponent power can make a hero be used (RULES.md "Heroes").
        bool has_turn = false;
        if (!s.over() && if_possible_in_play(s)) {
            if (!demands_can_be_met(powers::without_hero_uses(s)))
                s.turn.if_possible_waived = true;
            else  // that search found a complete turn: no second search for one (shortcut)
                has_turn = detail::shortcuts && !secrets_in_play(s);
            // With heroes the search ran with every hero spent. A hero's card is read only by
            // its own generators, and every use is optional (docs/rulings.md, "Heroes: Jason to
            // Theseus"): unspent, it only adds steps, and the Pass that declines them wherever
            // the turn may end, so the turn found is one here too.
        }
        // With secrets in play a seat has a turn if it has one on its view: a turn blocked
        // only by what it cannot see (Hecate's workers) is cancelled when tried, not lost (G4.3).
        if (s.over() || has_turn || can_complete(secrets_in_play(s) ? view_for(s, seat) : s)) return;
        lose(s, seat);
        seat = next_seat_in(s, seat);
        flags = 0;
    }
}

}  // namespace detail

}  // namespace santorini
