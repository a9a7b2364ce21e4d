// The kit: the core rules that powers build on (power_rules.hpp), and how a seat loses or a
// side wins. Split from rules.cpp, which keeps the turn itself.

#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers_in_play.hpp"

namespace santorini {

using detail::for_each_power;
using detail::for_each_power_in_play;
namespace hook = detail::hook;

void declare_winner(State& s, int side) {
    s.winners = 0;
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).side == side) s.winners |= static_cast<std::uint8_t>(1u << i);
    s.phase = Phase::Over;
    s.interrupt = -1;
}

void lose(State& s, int seat) {
    int side = s.seat(seat).side;
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).side == side) s.seat(i).out = true;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side) {
            s.worker(w).square = no_square;
            s.worker(w).in_reserve = false;  // the workers kept on the card leave with it (Gaea)
        }
    for (int i = 0; i < s.seat_count; ++i)
        if (s.seat(i).side == side) s.card(i).tokens = 0;  // "...Tokens, and God Power"
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

ActivePowers powers_in_effect(const State& s, int seat) {
    ActivePowers a;
    if (s.seat(seat).out) return a;
    auto add = [&](PowerId id, int card) {
        a.ids[a.size] = id;
        a.cards[a.size++] = static_cast<std::int8_t>(card);
    };
    if (s.setup.golden_fleece) {
        // Nobody owns the card; its state (a Chaos deck, Morpheus' builds) sits on seat 0.
        if (s.fleece_holders >> seat & 1u) add(s.fleece_power, 0);
        if ((s.fleece_holders >> seat & 1u) && s.acting_as[0] != PowerId::None) add(s.acting_as[0], 0);
        return a;
    }
    for (int j = 0; j < s.seat_count; ++j) {
        auto u = static_cast<std::size_t>(j);
        if (s.holder[u] != seat || s.seat(j).power == PowerId::None || (j != seat && s.seat(j).out)) continue;
        add(s.seat(j).power, j);
        if (s.acting_as[u] != PowerId::None) add(s.acting_as[u], j);
    }
    return a;
}

int card_seat(const State& s, int seat, PowerId id) {
    ActivePowers a = powers_in_effect(s, seat);
    for (int i = 0; i < a.size; ++i)
        if (a.ids[i] == id) return a.cards[i];
    return -1;
}

bool secrets_in_play(const State& s) { return (detail::hooks_in_play(s) & detail::hook::hide) != 0; }

Bitboard dome_like(const State& s, int mover) {
    Bitboard b = s.board.domes();
    if (s.ram != no_square) b |= bit(s.ram);
    for_each_power_in_play(s, hook::dome_like_for, [&](int o, const PowerRules& r) {
        if (r.dome_like_for) b |= r.dome_like_for(s, o, mover);
    });
    return b;
}

bool opponent_worker_on(const State& s, int seat, Square sq) {
    int w = s.worker_at(sq);
    return w >= 0 && s.worker(w).side != s.seat(seat).side;
}

Bitboard neighbors_for(const State& s, Square sq) {
    Bitboard n = neighbors(sq);
    for_each_power(s, s.turn.seat, hook::neighbors_of, [&](const PowerRules& r) {
        if (r.neighbors_of) n = r.neighbors_of(s, s.turn.seat, sq);
    });
    return n;
}

void add_normal_moves(const State& s, int worker, StepList& out) {
    Square from = s.worker(worker).square;
    Bitboard targets = neighbors_for(s, from) & ~occupied(s) & s.board.at_most(s.board.height(from) + 1);
    while (targets) out.push_back(Step::move(worker, from, pop_first(targets)));
}

void add_normal_builds(const State& s, int worker, StepList& out, bool before_move) {
    Square from = s.worker(worker).square;
    Bitboard targets = neighbors_for(s, from) & ~occupied(s);
    while (targets) {
        Square to = pop_first(targets);
        out.push_back(Step::build(worker, from, to, s.board.height(to) == 3, before_move));
    }
}

}  // namespace santorini
