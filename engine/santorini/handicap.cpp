#include "engine/santorini/handicap.hpp"

#include <algorithm>
#include <bit>
#include <vector>

#include "engine/santorini/rng.hpp"

namespace santorini::detail {
namespace {

std::uint64_t power_bit(PowerId p) { return std::uint64_t{1} << static_cast<int>(p); }

// The powers of one kind in `pool`, in rulebook order.
std::vector<PowerId> of_kind(std::uint64_t pool, bool heroes) {
    std::vector<PowerId> out;
    for (int i = 1; i <= power_count; ++i) {
        auto p = static_cast<PowerId>(i);
        if ((pool & power_bit(p)) && is_hero(p) == heroes) out.push_back(p);
    }
    return out;
}

// True if `pool` holds a power of the other kind than `p` that is not banned against it.
bool has_partner(std::uint64_t pool, PowerId p) {
    for (PowerId q : of_kind(pool, !is_hero(p)))
        if (!banned_pair(p, q)) return true;
    return false;
}

bool has_pair(std::uint64_t pool) {
    for (PowerId h : of_kind(pool, true))
        if (has_partner(pool, h)) return true;
    return false;
}

PowerId pick(std::uint64_t& rng, const std::vector<PowerId>& from) {
    return from[static_cast<std::size_t>(random_below(rng, static_cast<int>(from.size())))];
}

// `n` powers of `from` at random, as pool bits (a partial Fisher-Yates from the game's state).
std::uint64_t sample(std::uint64_t& rng, std::vector<PowerId> from, int n) {
    std::uint64_t out = 0;
    for (int k = 0; k < n; ++k) {
        int j = k + random_below(rng, static_cast<int>(from.size()) - k);
        std::swap(from[static_cast<std::size_t>(k)], from[static_cast<std::size_t>(j)]);
        out |= power_bit(from[static_cast<std::size_t>(k)]);
    }
    return out;
}

// How many heroes and gods a subset of `size` powers holds (0: the default, up to two each).
std::array<int, 2> subset_counts(std::uint64_t pool, int size) {
    if (size != 0) return {size / 2, size - size / 2};
    return {std::min(2, static_cast<int>(of_kind(pool, true).size())),
            std::min(2, static_cast<int>(of_kind(pool, false).size()))};
}

}  // namespace

bool is_hero(PowerId power) {
    return power != PowerId::None && power_info(power).category == PowerCategory::Hero;
}

bool right_kind(const Setup& setup, int seat, PowerId power) {
    return setup.hero_seat < 0 || is_hero(power) == (seat == setup.hero_seat);
}

std::optional<std::string> validate_handicap(const Settings& st, std::uint64_t pool) {
    if (st.players != 2) return "the handicap game (a hero against a god) is for 2 players";
    if (st.golden_fleece) return "heroes are not used with the Golden Fleece";
    if (st.draft == DraftMode::None) return "the handicap game needs powers";
    if (st.draft == DraftMode::Fixed) {
        for (int seat = 0; seat < 2; ++seat) {
            PowerId p = st.powers[static_cast<std::size_t>(seat)];
            if (is_hero(p) != (seat == st.hero_seat))
                return std::string(power_info(p).name) +
                       (is_hero(p) ? " is a hero: the seat against the hero gets a god"
                                   : " is not a hero: the hero seat gets a hero");
        }
        return std::nullopt;
    }
    if (!has_pair(pool)) return "the handicap game needs a hero and a god in the pool that are not banned against each other";
    if (st.draft == DraftMode::SubsetOffer && st.subset_size != 0) {
        auto [heroes, gods] = subset_counts(pool, st.subset_size);
        if (heroes < 1 || heroes > static_cast<int>(of_kind(pool, true).size()) ||
            gods > static_cast<int>(of_kind(pool, false).size()))
            return "a handicap subset of " + std::to_string(st.subset_size) + " powers holds " +
                   std::to_string(heroes) + " heroes and " + std::to_string(gods) +
                   " gods: the pool has too few, or the subset is too small";
    }
    return std::nullopt;
}

std::array<PowerId, 2> deal_handicap(std::uint64_t& rng, std::uint64_t pool, int hero_seat) {
    // The hero first, among those that have a god left to face; then a god it may face.
    std::vector<PowerId> heroes;
    for (PowerId h : of_kind(pool, true))
        if (has_partner(pool, h)) heroes.push_back(h);
    PowerId hero = pick(rng, heroes);
    std::vector<PowerId> gods;
    for (PowerId g : of_kind(pool, false))
        if (!banned_pair(hero, g)) gods.push_back(g);
    PowerId god = pick(rng, gods);
    return hero_seat == 0 ? std::array{hero, god} : std::array{god, hero};
}

std::uint64_t handicap_subset(std::uint64_t& rng, std::uint64_t pool, int subset_size) {
    auto [heroes, gods] = subset_counts(pool, subset_size);
    // Each kind is drawn apart, so the subset always holds both; a draw whose only pairs are
    // banned (Theseus with Nemesis alone) is drawn again.
    while (true) {
        std::uint64_t subset = sample(rng, of_kind(pool, true), heroes) | sample(rng, of_kind(pool, false), gods);
        if (has_pair(subset)) return subset;
    }
}

void handicap_offer_steps(const Setup& setup, StepList& out) {
    for (int i = 1; i <= power_count; ++i) {
        auto p = static_cast<PowerId>(i);
        if (!(setup.pool & power_bit(p))) continue;
        if (setup.offer_size == 0) {
            if (has_partner(setup.pool, p)) out.push_back(Step::offer(p));
        } else {
            PowerId first = setup.offer[0];
            if (is_hero(p) != is_hero(first) && !banned_pair(first, p)) out.push_back(Step::offer(p));
        }
    }
}

}  // namespace santorini::detail
