// The end of a turn and of the game: who plays next, when the final round is over, scoring,
// concessions and finishing places.

#include <bit>

#include "engine/splendor/game.hpp"
#include "engine/splendor/turn_flow.hpp"

namespace splendor {

int detail::seats_in(const State& s) {
    int n = 0;
    for (int i = 0; i < s.players; ++i) n += s.seat(i).out ? 0 : 1;
    return n;
}

void detail::hand_on(State& s) {
    // The round ends before the start player's next turn; walking past the start player's
    // seat counts even when that seat is out, so the round keeps its length in seats.
    bool round_over = false;
    int next = s.current;
    do {
        next = (next + 1) % s.players;
        if (next == s.start_player) round_over = true;
    } while (s.seat(next).out);
    s.phase = Phase::Action;
    if (round_over && s.final_round) {
        score_game(s);
        return;
    }
    s.current = static_cast<std::int8_t>(next);
}

void detail::score_game(State& s) {
    int best_points = -1, fewest_cards = 0;
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seat(i);
        if (p.out) continue;
        if (p.points > best_points || (p.points == best_points && p.cards < fewest_cards)) {
            best_points = p.points;
            fewest_cards = p.cards;
        }
    }
    s.winners = 0;
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seat(i);
        if (!p.out && p.points == best_points && p.cards == fewest_cards)
            s.winners = static_cast<std::uint8_t>(s.winners | (1u << i));
    }
    s.phase = Phase::Over;
}

std::optional<std::string> concede(State& s, int seat) {
    if (s.phase == Phase::Over) return "the game is over";
    if (seat < 0 || seat >= s.players) return "no such seat";
    if (s.seat(seat).out) return "that seat is already out";
    if (s.players == 2) {
        s.winners = static_cast<std::uint8_t>(1u << (1 - seat));
        s.phase = Phase::Over;
        return std::nullopt;
    }
    s.seat(seat).out = true;  // its tokens and cards stay with it, out of play (ruling S4)
    // A pass of the seat now out may be part of the run: count afresh (ruling S2).
    s.passes = 0;
    if (detail::seats_in(s) == 1) {
        for (int i = 0; i < s.players; ++i)
            if (!s.seat(i).out) s.winners = static_cast<std::uint8_t>(1u << i);
        s.phase = Phase::Over;
        return std::nullopt;
    }
    if (seat == s.current) detail::hand_on(s);  // its turn ends where it stands
    return std::nullopt;
}

std::array<int, max_players> places(const State& s) {
    std::array<int, max_players> place{};
    if (s.phase != Phase::Over) return place;
    const int winners = std::popcount(s.winners);
    const int in = detail::seats_in(s);
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seat(i);
        auto& mine = place[static_cast<std::size_t>(i)];
        if (s.winners >> i & 1u) {
            mine = 1;
        } else if (p.out) {
            mine = in + 1;
        } else {
            // After the winners, one place for each seat still in that stands strictly better.
            int better = 0;
            for (int j = 0; j < s.players; ++j) {
                const Player& q = s.seat(j);
                if (q.out || (s.winners >> j & 1u)) continue;
                if (q.points > p.points || (q.points == p.points && q.cards < p.cards)) ++better;
            }
            mine = 1 + winners + better;
        }
    }
    return place;
}

}  // namespace splendor
