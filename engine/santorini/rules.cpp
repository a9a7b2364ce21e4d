// The core turn: one generator of candidate steps, the restriction filters, the completion
// rule, and applying a step up to the next decision. Powers plug in through PowerRules.

#include <cassert>

#include "engine/santorini/game.hpp"
#include "engine/santorini/perft.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/turn_flow.hpp"

namespace santorini {
namespace {

// Set in Turn::flags by a probe (see can_complete) when the turn would end: the probe stops
// there instead of starting the next seat's turn.
constexpr std::uint16_t turn_done = 1 << 15;

bool turn_phase(Phase p) { return p == Phase::Begin || p == Phase::AfterMove || p == Phase::AfterBuild || p == Phase::End; }

template <class F>
void for_each_power(const State& s, int seat, F&& f) {
    ActivePowers act = powers_in_effect(s, seat);
    for (int i = 0; i < act.size; ++i) f(act.ids[i], rules_of(act.ids[i]));
}

template <class F>
void for_each_opponent_power(const State& s, int seat, F&& f) {
    for (int o = 0; o < s.seat_count; ++o) {
        if (s.seat(o).out || !opponents(s, seat, o)) continue;
        for_each_power(s, o, [&](PowerId id, const PowerRules& r) { f(o, id, r); });
    }
}

bool move_allowed(const State& s, int seat, const Step& m) {
    if ((s.turn.flags & turn_flag::no_move_up) && s.board.height(m.to) > s.board.height(m.from)) return false;
    bool ok = true;
    for_each_opponent_power(s, seat, [&](int o, PowerId, const PowerRules& r) {
        if (ok && r.opponent_may_move && !r.opponent_may_move(s, o, m)) ok = false;
    });
    return ok;
}

bool build_allowed(const State& s, int seat, const Step& b) {
    bool ok = true;
    for_each_opponent_power(s, seat, [&](int o, PowerId, const PowerRules& r) {
        if (ok && r.opponent_may_build && !r.opponent_may_build(s, o, b)) ok = false;
    });
    return ok;
}

void filter_restricted(const State& s, int seat, StepList& out) {
    out.filter([&](const Step& st) {
        switch (st.kind) {
            case StepKind::Move: return move_allowed(s, seat, st);
            case StepKind::Build:
            case StepKind::Dome: return build_allowed(s, seat, st);
            default: return true;
        }
    });
}

void begin_candidates(const State& s, int seat, StepList& out) {
    int side = s.seat(seat).side;
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side != side || wk.square == no_square) continue;
        if (s.turn.worker >= 0 && w != s.turn.worker) continue;
        add_normal_moves(s, w, out);
        for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
            if (r.extra_moves) r.extra_moves(s, seat, w, out);
        });
    }
    for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
        if (r.begin_steps) r.begin_steps(s, seat, out);
    });
}

void after_move_candidates(const State& s, int seat, StepList& out) {
    std::uint32_t builders = 0;
    bool hooked = false;
    for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
        if (r.more_moves) r.more_moves(s, seat, out);
        if (r.builders) {
            builders |= r.builders(s, seat);
            hooked = true;
        }
    });
    if (!hooked) builders = std::uint32_t{1} << s.turn.worker;
    for (int w = 0; w < s.worker_count; ++w) {
        if (!(builders >> w & 1u) || s.worker(w).square == no_square) continue;
        add_normal_builds(s, w, out);
        for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
            if (r.extra_builds) r.extra_builds(s, seat, w, out);
        });
    }
}

// Candidates before the restriction filter and the completion rule.
void candidates(const State& s, StepList& out) {
    int seat = s.turn.seat;
    switch (s.phase) {
        case Phase::Begin: begin_candidates(s, seat, out); break;
        case Phase::AfterMove: after_move_candidates(s, seat, out); break;
        case Phase::AfterBuild:
            for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
                if (r.more_builds) r.more_builds(s, seat, out);
            });
            break;
        case Phase::End:
            for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
                if (r.end_steps) r.end_steps(s, seat, out);
            });
            break;
        default: detail::setup_steps(s, out); return;
    }
    filter_restricted(s, seat, out);
    // The optional parts of a turn can always be declined.
    if ((s.phase == Phase::AfterBuild || s.phase == Phase::End) && !out.empty()) out.push_back(Step::pass());
}

void declare_winner(State& s, int side) {
    s.winners = 0;
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).side == side) s.winners |= static_cast<std::uint8_t>(1u << i);
    s.phase = Phase::Over;
}

// `seat` has lost: its side is out, with its workers. The last side standing wins.
void lose(State& s, int seat) {
    int side = s.seat(seat).side;
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).side == side) s.seat(i).out = true;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side) s.worker(w).square = no_square;
    int remaining_side = -1, remaining = 0;
    std::uint8_t seen = 0;
    for (int i = 0; i < s.seat_count; ++i) {
        const Seat& st = s.seat(i);
        if (st.out || (seen >> st.side & 1u)) continue;
        seen |= static_cast<std::uint8_t>(1u << st.side);
        remaining_side = st.side;
        ++remaining;
    }
    if (remaining <= 1) declare_winner(s, remaining_side);
}

void mark_visited(State& s) {
    int key = configuration_key(s);
    s.turn.visited[static_cast<std::size_t>(key / 64)] |= std::uint64_t{1} << (key % 64);
}

void finish_turn(State& s, bool probe) {
    int seat = s.turn.seat;
    if (probe) {
        s.turn.flags |= turn_done;
        return;
    }
    for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
        if (r.own_turn_end) r.own_turn_end(s, seat);
    });
    detail::start_turn(s, detail::next_seat_in(s, seat));
}

// Moves on through the parts of the turn that offer nothing to decide.
void advance(State& s, bool probe) {
    StepList next;
    while (!s.over() && !(s.turn.flags & turn_done)) {
        if (s.phase != Phase::AfterBuild && s.phase != Phase::End) return;
        next.clear();
        candidates(s, next);
        if (!next.empty()) return;
        if (s.phase == Phase::AfterBuild)
            s.phase = Phase::End;
        else
            finish_turn(s, probe);
        if (!probe && s.phase == Phase::Begin) return;
    }
}

void do_move(State& s, int seat, const Step& st) {
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
    ++t.moves;
    int to_height = s.board.height(st.to);
    if (to_height > from_height) t.flags |= turn_flag::moved_up;
    if (to_height != from_height) t.flags |= turn_flag::level_changed;
    mark_visited(s);
    s.phase = Phase::AfterMove;

    bool win = to_height == 3 && from_height < 3;
    for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
        if (!win && r.wins_by_move) win = r.wins_by_move(s, seat, st, from_height);
    });
    if (win)
        for_each_opponent_power(s, seat, [&](int o, PowerId, const PowerRules& r) {
            if (win && r.opponent_may_win && !r.opponent_may_win(s, o, st)) win = false;
        });
    if (win) declare_winner(s, s.seat(seat).side);
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

void apply_turn_step(State& s, const Step& st, bool probe) {
    int seat = s.turn.seat;
    switch (st.kind) {
        case StepKind::Move: do_move(s, seat, st); break;
        case StepKind::Build:
        case StepKind::Dome: do_build(s, st); break;
        case StepKind::Force:
            s.worker(st.aux).square = st.to;
            break;
        case StepKind::Remove: s.board.remove_block(st.to); break;
        case StepKind::Pass:
            if (s.phase == Phase::AfterBuild)
                s.phase = Phase::End;
            else
                finish_turn(s, probe);
            break;
        default: assert(false && "setup step in a turn"); break;
    }
    if (s.over()) return;
    for_each_power(s, seat, [&](PowerId, const PowerRules& r) {
        if (r.after_step) r.after_step(s, seat, st);
    });
    advance(s, probe);
}

// True if the current turn can be brought to its end from here (or the game is over).
bool can_complete(const State& s) {
    if (s.over() || (s.turn.flags & turn_done)) return true;
    StepList list;
    candidates(s, list);
    for (const Step& c : list) {
        State next = s;
        apply_turn_step(next, c, true);
        if (can_complete(next)) return true;
    }
    return false;
}

// Full turns from a mid-turn probe state: dead ends add nothing, the turn's end adds one.
std::uint64_t count_from(const State& s) {
    if (s.over() || (s.turn.flags & turn_done)) return 1;
    StepList list;
    candidates(s, list);
    std::uint64_t n = 0;
    for (const Step& c : list) {
        State next = s;
        apply_turn_step(next, c, true);
        n += count_from(next);
    }
    return n;
}

}  // namespace

int decider(const State& state) { return state.over() ? -1 : state.turn.seat; }

void legal_steps(const State& state, StepList& out) {
    out.clear();
    if (state.over()) return;
    candidates(state, out);
    if (!turn_phase(state.phase)) return;
    out.filter([&](const Step& c) {
        State next = state;
        apply_turn_step(next, c, true);
        return can_complete(next);
    });
}

std::uint64_t count_full_turns(const State& state) {
    if (state.over() || !turn_phase(state.phase)) return 0;
    return count_from(state);
}

void apply_step(State& state, const Step& step) {
#ifndef NDEBUG
    StepList legal;
    legal_steps(state, legal);
    assert(legal.contains(step));
#endif
    if (turn_phase(state.phase))
        apply_turn_step(state, step, false);
    else
        detail::apply_setup_step(state, step);
}

std::optional<std::string> try_step(State& state, const Step& step) {
    if (state.over()) return "the game is over";
    StepList legal;
    legal_steps(state, legal);
    if (!legal.contains(step)) return "that step is not legal now: " + to_text(step);
    if (turn_phase(state.phase))
        apply_turn_step(state, step, false);
    else
        detail::apply_setup_step(state, step);
    return std::nullopt;
}

namespace detail {

int next_seat_in(const State& s, int seat) {
    for (int i = 1; i <= s.seat_count; ++i) {
        int n = (seat + i) % s.seat_count;
        if (!s.seat(n).out) return n;
    }
    return seat;
}

void start_turn(State& s, int seat) {
    while (!s.over()) {
        std::uint16_t number = static_cast<std::uint16_t>(s.turn.number + 1);
        s.turn = Turn{};
        s.turn.number = number;
        s.turn.seat = static_cast<std::int8_t>(seat);
        s.phase = Phase::Begin;
        s.fleece_holders = 0;
        if (s.ram != no_square)
            for (int i = 0; i < s.seat_count; ++i)
                if (!s.seat(i).out && (s.side_squares(s.seat(i).side) & neighbors(s.ram)))
                    s.fleece_holders |= static_cast<std::uint8_t>(1u << i);
        mark_visited(s);
        if (can_complete(s)) return;
        lose(s, seat);
        seat = next_seat_in(s, seat);
    }
}

}  // namespace detail

// ---- the kit ----

ActivePowers powers_in_effect(const State& s, int seat) {
    ActivePowers a;
    const Seat& st = s.seat(seat);
    if (st.out) return a;
    if (s.setup.golden_fleece) {
        if (s.fleece_holders >> seat & 1u) a.ids[a.size++] = s.fleece_power;
    } else if (st.power != PowerId::None) {
        a.ids[a.size++] = st.power;
    }
    return a;
}

Bitboard dome_like(const State& s) {
    Bitboard b = s.board.domes();
    if (s.ram != no_square) b |= bit(s.ram);
    return b;
}

bool opponent_worker_on(const State& s, int seat, Square sq) {
    int w = s.worker_at(sq);
    return w >= 0 && s.worker(w).side != s.seat(seat).side;
}

void add_normal_moves(const State& s, int worker, StepList& out) {
    Square from = s.worker(worker).square;
    Bitboard targets = neighbors(from) & ~occupied(s) & s.board.at_most(s.board.height(from) + 1);
    while (targets) out.push_back(Step::move(worker, from, pop_first(targets)));
}

void add_normal_builds(const State& s, int worker, StepList& out, bool before_move) {
    Square from = s.worker(worker).square;
    Bitboard targets = neighbors(from) & ~occupied(s);
    while (targets) {
        Square to = pop_first(targets);
        out.push_back(Step::build(worker, from, to, s.board.height(to) == 3, before_move));
    }
}

namespace {
int key_of(Square a, Square b) { return (a == no_square ? 25 : a) * 26 + (b == no_square ? 25 : b); }
// The mover's first two workers, by index.
void mover_pair(const State& s, int& first, int& second) {
    first = second = -1;
    int side = s.seat(s.turn.seat).side;
    for (int w = 0; w < s.worker_count; ++w) {
        if (s.worker(w).side != side) continue;
        if (first < 0)
            first = w;
        else if (second < 0)
            second = w;
    }
}
Square square_or_none(const State& s, int w) { return w < 0 ? no_square : s.worker(w).square; }
}  // namespace

int configuration_key(const State& s) {
    int a, b;
    mover_pair(s, a, b);
    return key_of(square_or_none(s, a), square_or_none(s, b));
}

int configuration_key_after(const State& s, const Step& step) {
    int a, b;
    mover_pair(s, a, b);
    Square sa = square_or_none(s, a), sb = square_or_none(s, b);
    if (step.worker == a) sa = step.to;
    if (step.worker == b) sb = step.to;
    return key_of(sa, sb);
}

}  // namespace santorini
