#pragma once
// Internal: the handicap game's draft (docs/engine.md 4, "The handicap game"). One seat
// (`Setup::hero_seat`) gets a hero and the other a god; the rulebook recommends it for a
// stronger player against a weaker one. Dealt, offered and chosen by kind; never a banned pair
// (Theseus against Nemesis). Only setup.cpp uses it.

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/state.hpp"
#include "engine/santorini/step.hpp"

namespace santorini::detail {

/// True for the hero cards (Achilles .. Theseus); every other power is a god.
bool is_hero(PowerId power);

/// True if `power` is of the kind `seat` gets in the handicap game of `setup`.
bool right_kind(const Setup& setup, int seat, PowerId power);

/// The handicap settings' own problems (`settings.hero_seat` >= 0), with `pool` the powers the
/// draft may use (the given pool, or every eligible power): 2 players, no Golden Fleece, powers,
/// fixed powers of the right kinds, a hero and a god in the pool that are not banned against
/// each other, and a subset size that can hold both kinds. The first problem, in words.
std::optional<std::string> validate_handicap(const Settings& settings, std::uint64_t pool);

/// Deals at random: {power of seat 0, power of seat 1}, the hero seat's a hero, the other's a
/// god not banned against it. The pool must allow it (`validate_handicap`).
std::array<PowerId, 2> deal_handicap(std::uint64_t& rng, std::uint64_t pool, int hero_seat);

/// The random subset of `pool` the challenger offers from (ruling V3): `subset_size / 2`
/// heroes and the rest gods (0: up to two of each), redrawn until it holds a hero and a god
/// that are not banned against each other.
std::uint64_t handicap_subset(std::uint64_t& rng, std::uint64_t pool, int subset_size);

/// The challenger's offer steps: one hero and one god, in either order; only a power that is
/// not banned against the one already offered and, first, one that has a partner of the other
/// kind left in the pool.
void handicap_offer_steps(const Setup& setup, StepList& out);

}  // namespace santorini::detail
