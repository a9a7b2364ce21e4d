#pragma once
// Internal to the core (rules.cpp, candidates.cpp, completion.cpp, kit.cpp): walking the powers
// in effect, in a fixed order.
//
// Who uses which power changes rarely (a card changes hands, a seat goes out, the Golden
// Fleece changes holders at a turn start), but the core asks at every hook point of every
// step. So the answer is kept per thread for the last inputs that decide it (PowersInPlay),
// with a mask of the hooks each seat's powers fill in: a hook point nobody's power fills costs
// one comparison of those inputs and one test of a bit.

#include <cstdint>
#include <cstring>

#include "engine/santorini/power_rules.hpp"

namespace santorini::detail {

/// One bit per hook of PowerRules (the `hook::` names follow the members).
namespace hook {
inline constexpr std::uint64_t begin_steps = 1ull << 0;
inline constexpr std::uint64_t extra_moves = 1ull << 1;
inline constexpr std::uint64_t after_move_steps = 1ull << 2;
inline constexpr std::uint64_t builders = 1ull << 3;
inline constexpr std::uint64_t replaces_normal_build = 1ull << 4;
inline constexpr std::uint64_t extra_builds = 1ull << 5;
inline constexpr std::uint64_t more_builds = 1ull << 6;
inline constexpr std::uint64_t end_steps = 1ull << 7;
inline constexpr std::uint64_t after_step = 1ull << 8;
inline constexpr std::uint64_t wins_by_move = 1ull << 9;
inline constexpr std::uint64_t own_turn_end = 1ull << 10;
inline constexpr std::uint64_t placement_steps = 1ull << 11;
inline constexpr std::uint64_t neighbors_of = 1ull << 12;
inline constexpr std::uint64_t setup_steps = 1ull << 13;
inline constexpr std::uint64_t takes_extra_turn = 1ull << 14;
inline constexpr std::uint64_t hide = 1ull << 15;
inline constexpr std::uint64_t on_turn_start = 1ull << 16;
inline constexpr std::uint64_t on_turn_end = 1ull << 17;
inline constexpr std::uint64_t after_any_step = 1ull << 18;
inline constexpr std::uint64_t wins_now = 1ull << 19;
inline constexpr std::uint64_t may_move = 1ull << 20;
inline constexpr std::uint64_t may_build = 1ull << 21;
inline constexpr std::uint64_t win_veto = 1ull << 22;
inline constexpr std::uint64_t may_end_turn = 1ull << 23;
inline constexpr std::uint64_t dome_like_for = 1ull << 24;
inline constexpr std::uint64_t interrupt_steps = 1ull << 25;
inline constexpr std::uint64_t cancels = 1ull << 26;
inline constexpr std::uint64_t before_turn_start = 1ull << 27;
inline constexpr std::uint64_t denies_standing_win = 1ull << 28;
inline constexpr std::uint64_t card_setup = 1ull << 29;
inline constexpr std::uint64_t card_turn_end = 1ull << 30;
inline constexpr std::uint64_t if_possible = 1ull << 31;
inline constexpr std::uint64_t after_any_move = 1ull << 32;
inline constexpr std::uint64_t hero_use = 1ull << 33;
inline constexpr std::uint64_t completes_move = 1ull << 34;
/// An if_possible demand that a build may change (if_possible without if_possible_ignores_builds).
inline constexpr std::uint64_t if_possible_by_builds = 1ull << 35;
/// Own steps or hooks after the owner's move that may move or place a worker: steps after
/// moving, extra or further builds, end-of-turn steps, or an after_step that acts after builds,
/// of a power without PowerRules::moves_no_worker_after_moving.
inline constexpr std::uint64_t moves_after_moving = 1ull << 36;
/// Hooks on every seat's turn (completes_move, after_any_move, after_any_step) of a power
/// without PowerRules::any_step_hooks_act_after_moves_only: after a build they may move or
/// place a worker, start an out-of-turn decision or make a seat lose.
inline constexpr std::uint64_t moves_after_any_step = 1ull << 37;
/// An if_possible demand that something else than a move up may meet (if_possible without
/// PowerRules::if_possible_only_by_moving_up).
inline constexpr std::uint64_t if_possible_not_by_moving_up = 1ull << 38;
/// Own steps or hooks after the owner's move (as moves_after_moving, whatever they move): with
/// none, only the core's one build follows a move.
inline constexpr std::uint64_t acts_after_moving = 1ull << 39;
/// Own steps or hooks after the owner's move that may be Move steps: as moves_after_moving,
/// without those of a power with PowerRules::makes_no_move_after_moving.
inline constexpr std::uint64_t move_steps_after_moving = 1ull << 40;
inline constexpr std::uint64_t moves_over = 1ull << 41;
/// move_steps_after_moving of a power without PowerRules::moves_over: it cannot tell when its
/// moves are over.
inline constexpr std::uint64_t moves_never_over = 1ull << 42;
/// end_steps of a power without PowerRules::end_steps_one_way.
inline constexpr std::uint64_t end_steps_branching = 1ull << 43;
/// may_end_turn of a power without PowerRules::end_steps_one_way (which judges only the end of
/// its own one-way end-of-turn steps) nor PowerRules::may_end_turn_ignores_builds.
inline constexpr std::uint64_t may_end_turn_branching = 1ull << 44;
/// end_steps of a power with PowerRules::end_steps_one_way.
inline constexpr std::uint64_t end_steps_one_way = 1ull << 45;
/// may_end_turn of a power with PowerRules::may_end_turn_ignores_builds.
inline constexpr std::uint64_t may_end_turn_by_moves = 1ull << 46;
/// The owner's hooks that act on its own turn after its build (further builds, end-of-turn
/// steps, after_step, wins by moving, neighbours, and those of rest_sees_builds), of a power
/// without PowerRules::rest_of_turn_ignores_builds.
inline constexpr std::uint64_t own_rest_sees_builds = 1ull << 47;
/// Hooks that judge or act on any seat's turn after its build (may_end_turn, if_possible,
/// restrictions, hooks on every seat's turn, standing wins, out-of-turn decisions), of a power
/// without PowerRules::rest_of_turn_ignores_builds nor rest_of_others_turns_ignores_builds
/// (the owner's own turns are own_rest_sees_builds').
inline constexpr std::uint64_t rest_sees_builds = 1ull << 48;
inline constexpr std::uint64_t builds_over_after = 1ull << 49;
/// more_builds of a power without PowerRules::builds_over_after: it cannot tell when its
/// builds are over.
inline constexpr std::uint64_t builds_never_over = 1ull << 50;
}  // namespace hook

/// The hooks a power's table fills in (hook:: bits).
std::uint64_t hooks_of(const PowerRules& rules);

/// The powers each seat uses now (powers_in_effect), with their hook tables and hook masks.
struct PowersInPlay {
    /// What decides it, packed into three words so that the check is three comparisons: the
    /// seats' cards and who is out (with the sides), who holds each card (Circe), what a card
    /// acts as (Chaos), the Golden Fleece, its power and its holders, and the seat count.
    struct Inputs {
        std::uint64_t words[3] = {0, 0, 0};
        friend bool operator==(const Inputs&, const Inputs&) = default;
    };
    /// The powers one seat uses, in the order powers_in_effect gives them.
    struct SeatPowers {
        const PowerRules* rules[2 * max_seats] = {};
        int size = 0;
        std::uint64_t hooks = 0;  ///< the union of hooks_of over `rules`
        std::uint32_t after_step_kinds = 0;  ///< the union of after_step_kinds over those with an after_step
    };
    Inputs inputs;
    std::array<SeatPowers, max_seats> seats{};
    std::uint64_t hooks = 0;  ///< the union over the seats that are in
    /// The union of interrupt_after_kinds over the powers in play with interrupt_steps.
    std::uint32_t interrupt_after_kinds = 0;
    /// The union of wins_now_after_kinds over the powers in play with wins_now.
    std::uint32_t wins_now_after_kinds = 0;
};

/// The inputs of PowersInPlay read from a state.
inline PowersInPlay::Inputs powers_inputs(const State& s) {
    static_assert(sizeof s.seats == 12 && sizeof s.holder == 4 && sizeof s.acting_as == 4);
    // Whole-word loads (bytes written one by one and read back as words stall the CPU).
    std::uint64_t seats_low = 0;
    std::uint32_t seats_high = 0, holder = 0, acting_as = 0;
    std::memcpy(&seats_low, &s.seats, 8);
    std::memcpy(&seats_high, reinterpret_cast<const unsigned char*>(&s.seats) + 8, 4);
    std::memcpy(&holder, &s.holder, 4);
    std::memcpy(&acting_as, &s.acting_as, 4);
    PowersInPlay::Inputs in;
    in.words[0] = seats_low;
    in.words[1] = seats_high | std::uint64_t{holder} << 32;
    in.words[2] = acting_as | std::uint64_t{static_cast<std::uint8_t>(s.fleece_power)} << 32 |
                  std::uint64_t{s.fleece_holders} << 40 | std::uint64_t{s.setup.golden_fleece ? 1u : 0u} << 48 |
                  std::uint64_t{s.seat_count} << 56;
    return in;
}

/// The powers in play for the last inputs asked on this thread (one entry: a search or a perft
/// stays within one game, where they change only at some turn starts), and the lookup when
/// the inputs differ.
extern constinit thread_local PowersInPlay last_powers_in_play;
const PowersInPlay& powers_in_play_changed(const State& s);

/// The powers in play in `s`. The reference stays valid until the next call on this thread:
/// copy what must outlive a hook that may look at another state.
inline const PowersInPlay& powers_in_play(const State& s) {
    if (powers_inputs(s) == last_powers_in_play.inputs) return last_powers_in_play;
    return powers_in_play_changed(s);
}

/// The hooks (hook:: bits) that some power in play fills in.
inline std::uint64_t hooks_in_play(const State& s) { return powers_in_play(s).hooks; }

/// The hooks (hook:: bits) that the powers `seat` uses fill in.
inline std::uint64_t hooks_of_seat(const State& s, int seat) {
    return powers_in_play(s).seats[static_cast<std::size_t>(seat)].hooks;
}

// The powers `seat` uses this turn (powers_in_effect), in order; only when one of them fills
// in one of `hooks` (pass ~0 for all).
template <class F>
void for_each_power(const State& s, int seat, std::uint64_t hooks, F&& f) {
    const auto& mine = powers_in_play(s).seats[static_cast<std::size_t>(seat)];
    if (!(mine.hooks & hooks)) return;
    // A copy: a hook may change the state (or ask about another one) while we walk.
    PowersInPlay::SeatPowers act = mine;
    for (int i = 0; i < act.size; ++i) f(*act.rules[i]);
}

// Every power in play, with the seat using it; only the seats whose powers fill in one of
// `hooks`. Each seat's powers are looked up when its turn in the walk comes, as a hook of an
// earlier seat may have changed who holds what. Skipping the walk when no power in play fills
// in `hooks` is exact: then no hook runs, so nothing changes.
template <class F>
void for_each_power_in_play(const State& s, std::uint64_t hooks, F&& f) {
    if (!(powers_in_play(s).hooks & hooks)) return;
    for (int o = 0; o < s.seat_count; ++o)
        if (!s.seat(o).out) for_each_power(s, o, hooks, [&](const PowerRules& r) { f(o, r); });
}

// Every card in the game with the seat whose card it is, whoever holds it: each seat's own
// card while the seat is in; with the Golden Fleece the one card beside the board (seat 0).
template <class F>
void for_each_card(const State& s, F&& f) {
    if (s.setup.golden_fleece) {
        if (s.fleece_power != PowerId::None) f(0, rules_of(s.fleece_power));
        return;
    }
    for (int j = 0; j < s.seat_count; ++j)
        if (!s.seat(j).out && s.seat(j).power != PowerId::None) f(j, rules_of(s.seat(j).power));
}

}  // namespace santorini::detail
