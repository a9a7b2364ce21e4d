#include "engine/santorini/perft.hpp"

#include <string>
#include <unordered_set>

#include "engine/santorini/game.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/turn_flow.hpp"

namespace santorini {
namespace {

// ---- the game without powers, two players: bitboards only ----
// Not a second rule book: it counts what the core generator lists when no power is in play
// (a move is up at most one level to a free neighbour, then any free neighbour of the new
// square takes the build), and tests check it against the step generator on every position
// they play. It exists because perft is the benchmark.

struct Plain {
    Board board;
    Bitboard side[2];
    int to_move;
};

bool plain_game(const State& s) {
    if (s.seat_count != 2 || s.setup.golden_fleece || s.ram != no_square || s.phase != Phase::Begin || s.turn.worker >= 0)
        return false;
    for (int i = 0; i < 2; ++i)
        if (s.seat(i).power != PowerId::None || s.seat(i).out) return false;
    return true;
}

std::uint64_t plain_count(const Plain& p) {
    Bitboard occ = p.side[0] | p.side[1] | p.board.domes();
    std::uint64_t n = 0;
    Bitboard mine = p.side[p.to_move];
    while (mine) {
        Square from = pop_first(mine);
        int h = p.board.height(from);
        Bitboard targets = neighbors(from) & ~occ & p.board.at_most(h + 1);
        Bitboard after_leaving = occ & ~bit(from);
        while (targets) {
            Square to = pop_first(targets);
            if (h < 3 && p.board.height(to) == 3)
                ++n;  // a win ends the turn
            else
                n += static_cast<std::uint64_t>(count(neighbors(to) & ~(after_leaving | bit(to))));
        }
    }
    return n;
}

std::uint64_t plain_perft(const Plain& p, int depth) {
    if (depth == 1) return plain_count(p);
    Bitboard occ = p.side[0] | p.side[1] | p.board.domes();
    std::uint64_t n = 0;
    Bitboard mine = p.side[p.to_move];
    while (mine) {
        Square from = pop_first(mine);
        int h = p.board.height(from);
        Bitboard targets = neighbors(from) & ~occ & p.board.at_most(h + 1);
        while (targets) {
            Square to = pop_first(targets);
            if (h < 3 && p.board.height(to) == 3) continue;  // the game ends: no further turns
            Bitboard builds = neighbors(to) & ~((occ & ~bit(from)) | bit(to));
            while (builds) {
                Square b = pop_first(builds);
                Plain next = p;
                next.side[p.to_move] = (p.side[p.to_move] & ~bit(from)) | bit(to);
                if (next.board.height(b) == 3)
                    next.board.add_dome(b);
                else
                    next.board.add_block(b);
                next.to_move = 1 - p.to_move;
                n += plain_perft(next, depth - 1);
            }
        }
    }
    return n;
}

// ---- the general case: every step through the one generator ----

template <class F>
void for_each_full_turn(const State& s, F&& f) {
    StepList list;
    detail::legal_steps_on_truth(s, list);  // omniscient with secrets (G21)
    for (const Step& st : list) {
        State next = s;
        detail::apply_on_truth(next, st);
        if (same_turn(s, next))
            for_each_full_turn(next, f);
        else
            f(next);
    }
}

std::uint64_t general_perft(const State& s, int depth) {
    if (depth == 0) return 1;
    if (s.over()) return 0;
    if (depth == 1) return count_full_turns(s);
    std::uint64_t n = 0;
    for_each_full_turn(s, [&](const State& next) { n += general_perft(next, depth - 1); });
    return n;
}

void put(std::string& k, const void* p, std::size_t n) { k.append(static_cast<const char*>(p), n); }

// Field by field: struct padding must never reach a key.
void put_board(std::string& k, const Board& b) {
    for (Square sq = 0; sq < square_count; ++sq) k += static_cast<char>(b.height(sq) | (b.has_dome(sq) ? 8 : 0));
}

// Everything powers keep beyond the board and the seats.
void put_power_state(std::string& k, const State& s) {
    k += static_cast<char>(s.ram);
    k += static_cast<char>(s.interrupt);
    k += static_cast<char>(s.fleece_holders);
    for (int i = 0; i < s.seat_count; ++i) {
        auto u = static_cast<std::size_t>(i);
        k += static_cast<char>(s.holder[u]);
        k += static_cast<char>(s.acting_as[u]);
        Card::fields(s.cards[u], [&](const char*, auto v) { put(k, &v, sizeof v); });
    }
    for (int w = 0; w < s.worker_count; ++w) {  // markers that are not worker identity
        k += static_cast<char>(s.worker(w).female);
        k += static_cast<char>(s.worker(w).in_reserve);
    }
}

// What --distinct compares: no worker identity, no turn bookkeeping.
std::string position_key(const State& s) {
    std::string k;
    put_board(k, s.board);
    for (int side = 0; side < s.side_count; ++side) {
        Bitboard b = s.side_squares(side);
        put(k, &b, sizeof b);
    }
    for (int i = 0; i < s.seat_count; ++i) {
        const Seat& st = s.seat(i);
        k += static_cast<char>(st.power);
        k += static_cast<char>(st.out);
    }
    k += static_cast<char>(s.over() ? -1 : s.turn.seat);
    k += static_cast<char>(s.winners);
    put_power_state(k, s);
    return k;
}

}  // namespace

std::string detail::midturn_key(const State& s) {
    std::string k;
    put_board(k, s.board);
    put(k, s.workers.data(), sizeof(Worker) * s.worker_count);  // four single bytes each
    const Turn& t = s.turn;
    for (int v : {int{t.seat}, int{t.worker}, int{t.start}, int{t.last_build}, int{t.moves}, int{t.builds}, int{t.extra}})
        k += static_cast<char>(v);
    put(k, &t.flags, sizeof t.flags);
    put(k, &t.movable, sizeof t.movable);
    put(k, &t.moved_workers, sizeof t.moved_workers);
    k += static_cast<char>(t.if_possible_waived);
    for (int i = 0; i < s.seat_count; ++i) put(k, &s.seats[static_cast<std::size_t>(i)], sizeof(Seat));
    k += static_cast<char>(s.phase);
    put_power_state(k, s);
    return k;
}


std::uint64_t perft(const State& state, int depth) {
    if (depth == 0) return 1;
    if (plain_game(state)) {
        if (state.over()) return 0;
        Plain p{state.board, {state.side_squares(0), state.side_squares(1)}, state.turn.seat};
        return plain_perft(p, depth);
    }
    return general_perft(state, depth);
}

std::uint64_t perft_by_steps(const State& state, int depth) { return general_perft(state, depth); }

std::uint64_t perft_distinct(const State& state) {
    // A depth-first search that meets each intermediate point of the turn once. That finds
    // every reachable end position even where counting paths would explode (Hermes), because
    // a point first met by a longer path is still explored from there.
    std::unordered_set<std::string> seen, ends;
    auto walk = [&](auto&& self, const State& s) -> void {
        StepList list;
        detail::legal_steps_on_truth(s, list);  // omniscient with secrets (G21)
        for (const Step& st : list) {
            State next = s;
            detail::apply_on_truth(next, st);
            if (!same_turn(state, next)) {
                ends.insert(position_key(next));
            } else if (seen.insert(detail::midturn_key(next)).second) {
                self(self, next);
            }
        }
    };
    if (!state.over()) walk(walk, state);
    return ends.size();
}

}  // namespace santorini
