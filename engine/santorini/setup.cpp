// Setup: settings validation, the power draft (offer, choose, start player), worker placement
// in the order the powers demand, and the Golden Fleece Ram. All of it is played as steps
// through the same generator as the turns, so a whole game replays from its seed.

#include <algorithm>
#include <bit>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/handicap.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/rng.hpp"
#include "engine/santorini/turn_flow.hpp"

namespace santorini {
namespace {

std::uint64_t power_bit(PowerId p) { return std::uint64_t{1} << static_cast<int>(p); }

int offer_target(const State& s) { return s.setup.golden_fleece ? 1 : s.seat_count; }

bool compatible_with(PowerId p, const PowerId* chosen, int n) {
    for (int i = 0; i < n; ++i)
        if (chosen[i] == p || banned_pair(chosen[i], p)) return false;
    return true;
}

// True if `need` more powers can be taken from `pool` without a banned pair among themselves
// or with `chosen`. Pools are at most 55 and needs at most 4, so plain search is instant.
bool completable(std::uint64_t pool, PowerId* chosen, int n, int need) {
    if (need == 0) return true;
    for (int i = 1; i <= power_count; ++i) {
        auto p = static_cast<PowerId>(i);
        if (!(pool & power_bit(p)) || !compatible_with(p, chosen, n)) continue;
        chosen[n] = p;
        // Only pools above p: each set is tried once.
        if (completable(pool & ~((power_bit(p) << 1) - 1), chosen, n + 1, need - 1)) return true;
    }
    return false;
}

std::uint64_t pool_mask(const std::vector<PowerId>& pool) {
    std::uint64_t m = 0;
    for (auto p : pool) m |= power_bit(p);
    return m;
}

// Draws `n` compatible powers at random from `pool`; the pool must allow it.
std::vector<PowerId> draw_powers(std::uint64_t& rng, std::uint64_t pool, int n) {
    std::vector<PowerId> chosen;
    PowerId buf[max_seats + 1];
    while (static_cast<int>(chosen.size()) < n) {
        std::vector<PowerId> options;
        for (int i = 1; i <= power_count; ++i) {
            auto p = static_cast<PowerId>(i);
            if (!(pool & power_bit(p)) || !compatible_with(p, chosen.data(), static_cast<int>(chosen.size()))) continue;
            std::copy(chosen.begin(), chosen.end(), buf);
            buf[chosen.size()] = p;
            if (completable(pool, buf, static_cast<int>(chosen.size()) + 1, n - static_cast<int>(chosen.size()) - 1))
                options.push_back(p);
        }
        chosen.push_back(options[static_cast<std::size_t>(random_below(rng, static_cast<int>(options.size())))]);
    }
    return chosen;
}

void begin_placement(State& s);

// After the draft: the start player is known or must be named.
void after_draft(State& s) {
    if (s.setup.start_player >= 0) {
        begin_placement(s);
    } else {
        s.phase = Phase::StartPlayer;
        s.turn.seat = s.setup.challenger;
    }
}

// Workers are created once the powers are known (Graeae and Moerae bring three).
void create_workers(State& s) {
    s.worker_count = 0;
    for (int side = 0; side < s.side_count; ++side)
        for (int i = 0; i < detail::regular_workers(s, side); ++i)
            s.workers[s.worker_count++] = Worker{no_square, static_cast<std::uint8_t>(side), false, false};
    // Workers kept on a card until the power places them (Gaea, Jason) come after the rest,
    // so the first workers of each side keep their indices.
    for (int side = 0; side < s.side_count; ++side)
        for (int i = 0; i < detail::card_workers(s, side); ++i)
            s.workers[s.worker_count++] = Worker{no_square, static_cast<std::uint8_t>(side), false, true};
}

void begin_placement(State& s) {
    create_workers(s);
    detail::set_up_cards(s);  // before placement: players see Chaos' face-up god before placing
    // Start player first, then clockwise; with 4 players each team's first player places
    // the team's workers. Bia and Tartarus place first, Hecate last (stable otherwise).
    std::int8_t order[max_seats];
    int n = s.seat_count == 4 ? 2 : s.seat_count;
    for (int i = 0; i < n; ++i) order[i] = static_cast<std::int8_t>((s.setup.start_player + i) % s.seat_count);
    auto rank_of_card = [&](int seat) {
        PowerId p = s.setup.golden_fleece ? PowerId::None : s.seat(seat).power;
        if (p == PowerId::None) return 1;
        auto o = power_info(p).placement;
        return o == PlacementOrder::First ? 0 : o == PlacementOrder::Last ? 2 : 1;
    };
    // 4 players: the team's workers are "your workers" for both teammates, so the team places
    // by either member's Setup text (docs/rulings.md A5).
    auto rank = [&](std::int8_t seat) {
        int r = rank_of_card(seat);
        return s.seat_count == 4 && r == 1 ? rank_of_card((seat + 2) % 4) : r;
    };
    std::stable_sort(order, order + n, [&](auto a, auto b) { return rank(a) < rank(b); });
    s.setup.placement_order = {-1, -1, -1, -1};
    for (int i = 0; i < n; ++i) s.setup.placement_order[static_cast<std::size_t>(i)] = order[i];
    s.setup.placer = 0;
    s.phase = Phase::Place;
    s.turn.seat = order[0];
}

int next_unplaced_worker(const State& s, int side) {
    for (int w = 0; w < s.worker_count; ++w) {
        const Worker& wk = s.worker(w);
        if (wk.side == side && wk.square == no_square && !wk.in_reserve) return w;
    }
    return -1;
}

int first_turn_seat(const State& s) {
    int start = s.setup.start_player;
    if (s.setup.golden_fleece) return (start + 1) % s.seat_count;
    if (s.seat_count == 4) return (start + 2) % 4;
    return start;
}

// The power whose setup steps `seat` takes: its own; with the Golden Fleece, the fleece power
// for the player who placed the Ram (the start player) and none for the other (ruling W7: the
// fleece gods with a direction, Aeolus and Siren, are oriented by the Ram's placer).
PowerId setup_power(const State& s, int seat) {
    if (!s.setup.golden_fleece) return s.seat(seat).power;
    return seat == s.setup.start_player ? s.fleece_power : PowerId::None;
}

// The seat's setup steps from its power (Fate, Abyss, Wind, Song); empty when done.
void power_setup_steps(const State& s, int seat, StepList& out) {
    if (setup_power(s, seat) == PowerId::None) return;
    if (const PowerRules& r = rules_of(setup_power(s, seat)); r.setup_steps) r.setup_steps(s, seat, out);
}

// After placement: the Ram, then each power's setup steps in turn order from the start
// player, then the first turn.
void after_placement(State& s) {
    if (s.setup.golden_fleece && s.ram == no_square) {
        s.phase = Phase::Token;
        s.turn.seat = s.setup.start_player;
        return;
    }
    StepList pending;
    for (; s.setup.token_cursor < s.seat_count; ++s.setup.token_cursor) {
        int seat = (s.setup.start_player + s.setup.token_cursor) % s.seat_count;
        pending.clear();
        power_setup_steps(s, seat, pending);
        if (!pending.empty()) {
            s.phase = Phase::Token;
            s.turn.seat = static_cast<std::int8_t>(seat);
            return;
        }
    }
    s.turn.number = 0;
    detail::start_turn(s, first_turn_seat(s));
}

}  // namespace

std::vector<PowerId> eligible_powers(int players, bool golden_fleece) {
    return detail::eligible_powers(players, golden_fleece, false);
}

std::vector<PowerId> detail::eligible_powers(int players, bool golden_fleece, bool as_if_all_implemented) {
    std::vector<PowerId> out;
    for (const auto& info : all_powers()) {
        if ((!info.implemented && !as_if_all_implemented) || !allowed_with_players(info.id, players)) continue;
        if (golden_fleece && !info.golden_fleece) continue;
        if (info.category == PowerCategory::Hero && (golden_fleece || players != 2)) continue;
        out.push_back(info.id);
    }
    return out;
}

std::optional<std::string> validate(const Settings& st) { return detail::validate(st, false); }

std::optional<std::string> detail::validate(const Settings& st, bool as_if_all_implemented) {
    if (st.players < 2 || st.players > 4) return "players must be 2, 3 or 4";
    if (st.challenger < 0 || st.challenger >= st.players) return "challenger must be a seat of the game";
    if (st.start_player < -1 || st.start_player >= st.players) return "start player must be a seat of the game";
    if (st.golden_fleece && st.players != 2) return "the Golden Fleece variant is for 2 players";
    if (st.hero_seat < -1 || st.hero_seat > 1) return "the hero seat must be 0, 1 or -1 (no handicap)";
    if (st.draft == DraftMode::None) {
        if (st.hero_seat >= 0) return detail::validate_handicap(st, 0);
        if (st.players != 2) return "3 and 4 players must play with powers";
        if (st.golden_fleece) return "the Golden Fleece variant needs a power";
        if (!st.pool.empty() || !st.powers.empty()) return "a game without powers takes no pool and no powers";
        return std::nullopt;
    }
    auto eligible = detail::eligible_powers(st.players, st.golden_fleece, as_if_all_implemented);
    auto check = [&](PowerId p) -> std::optional<std::string> {
        if (p == PowerId::None || static_cast<int>(p) > power_count) return "unknown power";
        const auto& info = power_info(p);
        if (!info.implemented && !as_if_all_implemented) return std::string(info.name) + " is not playable yet";
        if (!allowed_with_players(p, st.players))
            return std::string(info.name) + " cannot be played with " + std::to_string(st.players) + " players";
        if (st.golden_fleece && !info.golden_fleece) return std::string(info.name) + " is not a Golden Fleece power";
        if (info.category == PowerCategory::Hero && st.golden_fleece) return "heroes are not used with the Golden Fleece";
        return std::nullopt;
    };
    int need = st.golden_fleece ? 1 : st.players;
    if (st.draft == DraftMode::Fixed) {
        if (static_cast<int>(st.powers.size()) != need)
            return "fixed powers: give exactly " + std::to_string(need) + (need == 1 ? " power" : " powers");
        for (std::size_t i = 0; i < st.powers.size(); ++i) {
            if (auto e = check(st.powers[i])) return e;
            for (std::size_t j = 0; j < i; ++j) {
                if (st.powers[i] == st.powers[j]) return "a power can be dealt only once";
                if (banned_pair(st.powers[i], st.powers[j]))
                    return std::string(power_info(st.powers[i]).name) + " is banned against " +
                           std::string(power_info(st.powers[j]).name);
            }
        }
        if (st.hero_seat >= 0) return detail::validate_handicap(st, 0);
        return std::nullopt;
    }
    if (!st.powers.empty()) return "powers are given only with the fixed draft";
    for (auto p : st.pool)
        if (auto e = check(p)) return e;
    std::uint64_t pool = st.pool.empty() ? pool_mask(eligible) : pool_mask(st.pool);
    // The handicap game's own checks (a hero-god pair, the subset's kinds) say more than the
    // general ones below, which they imply.
    if (st.hero_seat >= 0) return detail::validate_handicap(st, pool);
    PowerId buf[max_seats + 1];
    if (!completable(pool, buf, 0, need)) return "the pool cannot deal " + std::to_string(need) + " powers without a banned pair";
    if (st.draft == DraftMode::SubsetOffer && st.subset_size != 0 &&
        (st.subset_size < need || st.subset_size > std::popcount(pool)))
        return "the subset must hold between " + std::to_string(need) + " powers and the whole pool";
    return std::nullopt;
}

Result<State> new_game(const Settings& st) { return detail::new_game(st, false); }

Result<State> detail::new_game(const Settings& st, bool as_if_all_implemented) {
    if (auto e = detail::validate(st, as_if_all_implemented)) return Error{*e};
    State s;
    s.seat_count = static_cast<std::uint8_t>(st.players);
    s.side_count = static_cast<std::uint8_t>(st.players == 4 ? 2 : st.players);
    for (int i = 0; i < st.players; ++i) s.seat(i).side = static_cast<std::uint8_t>(st.players == 4 ? i % 2 : i);
    s.rng = st.seed;
    s.setup.mode = st.draft;
    s.setup.golden_fleece = st.golden_fleece;
    s.setup.confirm_turns = st.confirm_turns;
    s.setup.challenger = static_cast<std::int8_t>(st.challenger);
    s.setup.start_player = static_cast<std::int8_t>(st.start_player);
    s.setup.hero_seat = static_cast<std::int8_t>(st.hero_seat);
    int need = st.golden_fleece ? 1 : st.players;
    std::uint64_t pool = st.pool.empty()
                             ? pool_mask(detail::eligible_powers(st.players, st.golden_fleece, as_if_all_implemented))
                             : pool_mask(st.pool);

    auto deal = [&](const std::vector<PowerId>& powers) {
        if (st.golden_fleece)
            s.fleece_power = powers[0];
        else
            for (int i = 0; i < st.players; ++i) s.seat(i).power = powers[static_cast<std::size_t>(i)];
    };
    switch (st.draft) {
        case DraftMode::None:
            if (s.setup.start_player < 0) {
                s.phase = Phase::StartPlayer;
                s.turn.seat = s.setup.challenger;
            } else {
                begin_placement(s);
            }
            return s;
        case DraftMode::Fixed:
            deal(st.powers);
            after_draft(s);
            return s;
        case DraftMode::Random: {
            if (st.hero_seat >= 0) {
                auto dealt = detail::deal_handicap(s.rng, pool, st.hero_seat);
                deal({dealt[0], dealt[1]});
                after_draft(s);
                return s;
            }
            auto drawn = draw_powers(s.rng, pool, need);
            // Shuffle which seat gets which (Fisher-Yates from the game's own random state).
            for (int i = need - 1; i > 0; --i) std::swap(drawn[static_cast<std::size_t>(i)], drawn[static_cast<std::size_t>(random_below(s.rng, i + 1))]);
            deal(drawn);
            after_draft(s);
            return s;
        }
        case DraftMode::SubsetOffer: {
            if (st.hero_seat >= 0) {
                s.setup.pool = detail::handicap_subset(s.rng, pool, st.subset_size);
                s.phase = Phase::Offer;
                s.turn.seat = s.setup.challenger;
                return s;
            }
            int size = st.subset_size != 0 ? st.subset_size : std::min(2 * need, std::popcount(pool));
            // A random subset from which a legal offer can still be made.
            std::uint64_t subset = 0;
            do {
                subset = 0;
                std::vector<PowerId> all;
                for (int i = 1; i <= power_count; ++i)
                    if (pool & power_bit(static_cast<PowerId>(i))) all.push_back(static_cast<PowerId>(i));
                for (int k = 0; k < size; ++k) {
                    int j = k + random_below(s.rng, static_cast<int>(all.size()) - k);
                    std::swap(all[static_cast<std::size_t>(k)], all[static_cast<std::size_t>(j)]);
                    subset |= power_bit(all[static_cast<std::size_t>(k)]);
                }
                PowerId buf[max_seats + 1];
                if (completable(subset, buf, 0, need)) break;
            } while (true);
            pool = subset;
            [[fallthrough]];
        }
        case DraftMode::FullOffer:
            s.setup.pool = pool;
            s.phase = Phase::Offer;
            s.turn.seat = s.setup.challenger;
            return s;
    }
    return Error{"unknown draft mode"};
}

namespace detail {
namespace {

// The offered powers nobody has taken yet that `seat` may choose (the handicap game: only the
// power of its own kind).
void choosable(const State& s, int seat, StepList& out) {
    for (int i = 0; i < s.setup.offer_size; ++i) {
        PowerId p = s.setup.offer[static_cast<std::size_t>(i)];
        bool taken = false;
        for (int k = 0; k < s.seat_count; ++k) taken = taken || s.seat(k).power == p;
        if (!taken && right_kind(s.setup, seat, p)) out.push_back(Step::choose(p));
    }
}

}  // namespace

void setup_steps(const State& s, StepList& out) {
    switch (s.phase) {
        case Phase::Offer: {
            if (s.setup.hero_seat >= 0) return handicap_offer_steps(s.setup, out);
            int n = s.setup.offer_size;
            PowerId chosen[max_seats + 1];
            std::copy(s.setup.offer.begin(), s.setup.offer.begin() + n, chosen);
            for (int i = 1; i <= power_count; ++i) {
                auto p = static_cast<PowerId>(i);
                if (!(s.setup.pool & power_bit(p)) || !compatible_with(p, chosen, n)) continue;
                chosen[n] = p;
                if (completable(s.setup.pool, chosen, n + 1, offer_target(s) - n - 1)) out.push_back(Step::offer(p));
            }
            return;
        }
        case Phase::Choose:
            choosable(s, s.turn.seat, out);
            return;
        case Phase::StartPlayer:
            for (int i = 0; i < s.seat_count; ++i) out.push_back(Step::start_player(i));
            return;
        case Phase::Place: {
            int seat = s.turn.seat;
            int w = next_unplaced_worker(s, s.seat(seat).side);
            // The placer's card decides, or with 4 players its teammate's: the team's workers
            // are placed by the rules of either member's Setup text (Selene's female worker).
            // With the fleece, its power's placement binds both players (Selene: each places a
            // male and a female worker, so whoever holds her power has a female worker).
            if (s.setup.golden_fleece) {
                if (const PowerRules& r = rules_of(s.fleece_power); r.placement_steps) {
                    r.placement_steps(s, seat, w, out);
                    return;
                }
            } else {
                for (int k = 0; k < s.seat_count; k += s.seat_count == 4 ? 2 : s.seat_count) {
                    int member = (seat + k) % s.seat_count;
                    if (s.seat(member).power == PowerId::None) continue;
                    if (const PowerRules& r = rules_of(s.seat(member).power); r.placement_steps) {
                        r.placement_steps(s, member, w, out);
                        return;
                    }
                }
            }
            Bitboard free = all_squares & ~occupied(s);
            while (free) out.push_back(Step::place(w, pop_first(free)));
            return;
        }
        case Phase::Token: {
            if (s.setup.golden_fleece && s.ram == no_square) {
                Bitboard free = all_squares & ~occupied(s);
                while (free) out.push_back(Step{StepKind::Token, -1, no_square, pop_first(free), 0});
                return;
            }
            power_setup_steps(s, s.turn.seat, out);
            return;
        }
        default: return;
    }
}

void apply_setup_step(State& s, const Step& st) {
    switch (st.kind) {
        case StepKind::Offer:
            s.setup.offer[s.setup.offer_size++] = st.power();
            if (s.setup.offer_size < offer_target(s)) return;
            if (s.setup.golden_fleece) {
                s.fleece_power = s.setup.offer[0];
                after_draft(s);
            } else {
                s.phase = Phase::Choose;
                s.turn.seat = static_cast<std::int8_t>((s.setup.challenger + 1) % s.seat_count);
            }
            return;
        case StepKind::Choose: {
            s.seat(s.turn.seat).power = st.power();
            int next = (s.turn.seat + 1) % s.seat_count;
            if (next != s.setup.challenger) {
                s.turn.seat = static_cast<std::int8_t>(next);
                return;
            }
            // The Challenger receives the last power (in the handicap game, of its own kind).
            StepList rest;
            choosable(s, next, rest);
            s.seat(next).power = rest[0].power();
            after_draft(s);
            return;
        }
        case StepKind::StartPlayer:
            s.setup.start_player = st.aux;
            begin_placement(s);
            return;
        case StepKind::Place: {
            s.worker(st.worker).square = st.to;
            s.worker(st.worker).female = st.aux == 1;
            if (next_unplaced_worker(s, s.seat(s.turn.seat).side) >= 0) return;
            int n = s.seat_count == 4 ? 2 : s.seat_count;
            if (++s.setup.placer < n) {
                s.turn.seat = s.setup.placement_order[s.setup.placer];
                return;
            }
            after_placement(s);
            return;
        }
        case StepKind::Token:
        case StepKind::Aim:
            if (s.setup.golden_fleece && s.ram == no_square) {
                s.ram = st.to;
            } else if (const PowerRules& r = rules_of(setup_power(s, s.turn.seat)); r.after_step) {
                r.after_step(s, s.turn.seat, st);
            }
            after_placement(s);
            return;
        default: return;
    }
}

// The power of `side` decides only with fewer than 4 players and without the Golden Fleece
// (4 players: two workers per team; the fleece: two each, nobody owns a card).
int regular_workers(const State& s, int side) {
    if (s.setup.golden_fleece || s.seat_count >= 4) return 2;
    PowerId p = s.seat(side).power;
    return p == PowerId::None ? 2 : power_info(p).workers;
}

int card_workers(const State& s, int side) {
    if (s.setup.golden_fleece || s.seat_count >= 4) return 0;
    PowerId p = s.seat(side).power;
    return p == PowerId::None ? 0 : power_info(p).reserve;
}

}  // namespace detail
}  // namespace santorini
