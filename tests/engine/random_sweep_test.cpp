// Sweeps over matchups of powers, with the random games' checks (random_play.hpp): every pair of
// the 2-player powers, and a sample of 3- and 4-player tables at which every power sits at least
// once per player count. Each sweep also asks whether every seat's power took a step of its own
// (power_step): a power that offers steps but never takes one in some matchup silently does
// nothing there, which is a bug, unless the rules rule it out there (`no_own_step`, below, with
// its reason: a power whose hooks offer no step, or a matchup in `ruled_out`). A matchup in which
// a power took none gets extra games, seeded by its powers alone, until it takes one (at most
// `extra_games`): in them that seat takes an offered step of its power every other time it can,
// else a dome every other time it can (a dome sets Dionysus' added turn and Gaea's placement
// going). A power still without one fails the test, named with its matchup and that seed. A
// power explained that took a step fails it too (the explanation is wrong): in the sweep's games,
// or, for a matchup in `ruled_out`, in extra games played the same way to confirm it.
//
// Budgets: the pair sweep plays 2 games per ordered pair (about 5,800 games) and the table
// sample deals every eligible power to a 3- and a 4-player table in each of 20 rounds (about 480
// tables), 2 games per table; then come the extra games, about 200 and 50 (the most one matchup
// needed: 50, Theseus against Persephone, who makes his workers climb), and 40 for each matchup
// in `ruled_out`. Together about 8 s of CPU in a release build, the table sample 2.5 s of it.
// SANTORINI_RANDOM_GAMES_PERCENT scales the games, the rounds and the games confirming
// `ruled_out` (the sanitizer tree plays a tenth: 1 game per pair, 2 rounds of tables, then about
// 360 extra games), not the bound on the other extra games, which are played only until the
// power's step is seen. For longer sweeps, SANTORINI_RANDOM_PAIR_GAMES=N plays N games per pair
// and SANTORINI_RANDOM_TABLE_ROUNDS=N deals N rounds of tables.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/power_rules.hpp"
#include "random_play.hpp"

using namespace santorini;
using namespace random_play;

namespace {

// ---- why a power may take no step of its own in a matchup ----

struct Hook {
    const char* name;
    bool present;
};

// The hooks through which a power's table offers its owner steps in play.
std::vector<Hook> step_hooks(const PowerRules& r) {
    return {{"begin_steps", r.begin_steps != nullptr},
            {"extra_moves", r.extra_moves != nullptr},
            {"after_move_steps", r.after_move_steps != nullptr},
            {"builders", r.builders != nullptr},
            {"replaces_normal_build", r.replaces_normal_build},
            {"extra_builds", r.extra_builds != nullptr},
            {"more_builds", r.more_builds != nullptr},
            {"end_steps", r.end_steps != nullptr},
            {"interrupt_steps", r.interrupt_steps != nullptr},
            {"neighbors_of", r.neighbors_of != nullptr}};
}

// The other hooks: what a power does without a step of its own (for the reasons below).
std::vector<Hook> other_hooks(const PowerRules& r) {
    return {{"after_step", r.after_step != nullptr},
            {"wins_by_move", r.wins_by_move != nullptr},
            {"own_turn_end", r.own_turn_end != nullptr},
            {"placement_steps", r.placement_steps != nullptr},
            {"setup_steps", r.setup_steps != nullptr},
            {"takes_extra_turn", r.takes_extra_turn != nullptr},
            {"hide", r.hide != nullptr},
            {"on_turn_start", r.on_turn_start != nullptr},
            {"on_turn_end", r.on_turn_end != nullptr},
            {"after_any_step", r.after_any_step != nullptr},
            {"wins_now", r.wins_now != nullptr},
            {"may_move", r.may_move != nullptr},
            {"may_build", r.may_build != nullptr},
            {"win_veto", r.win_veto != nullptr},
            {"may_end_turn", r.may_end_turn != nullptr},
            {"dome_like_for", r.dome_like_for != nullptr},
            {"cancels", r.cancels != nullptr},
            {"before_turn_start", r.before_turn_start != nullptr},
            {"denies_standing_win", r.denies_standing_win != nullptr},
            {"card_setup", r.card_setup != nullptr},
            {"card_turn_end", r.card_turn_end != nullptr},
            {"if_possible", r.if_possible != nullptr},
            {"after_any_move", r.after_any_move != nullptr},
            {"completes_move", r.completes_move != nullptr}};
}

std::string key(PowerId p) {
    return std::string(power_info(p).key);
}

// Powers whose steps come from another card, which their own hook table does not show.
struct Borrowed {
    PowerId power;
    const char* why;
};
constexpr Borrowed borrowed[] = {
    {PowerId::Circe,
     "takes her opponent's card while its workers are apart and plays its steps (C14)"},
    {PowerId::Chaos, "acts as the Simple god he drew and plays its steps"},
};

// How `p` plays another card's steps, or null if it plays only its own.
const char* borrows(PowerId p) {
    for (const Borrowed& b : borrowed)
        if (b.power == p) return b.why;
    return nullptr;
}

// True if the power's own hook table offers steps in play.
bool offers_steps(PowerId p) {
    auto hooks = step_hooks(rules_of(p));
    return std::any_of(hooks.begin(), hooks.end(), [](const Hook& h) { return h.present; });
}

// A power's own steps that a particular opponent rules out. Hecate's workers are off the board
// in her opponents' views, and an opponent chooses on its view (H10): powers whose every step of
// their own acts on an opponent worker have none against her. (Apollo's and Minotaur's moves
// onto her hidden workers become their swap and push on the truth, H8: power_step sees those.)
struct RuledOut {
    PowerId power;
    PowerId opponent;
    const char* why;
};
constexpr RuledOut ruled_out[] = {
    {PowerId::Adonis, PowerId::Hecate,
     "his charm selects an opponent worker he sees; hers are hidden (H10)"},
    {PowerId::Medusa, PowerId::Hecate,
     "she petrifies opponent workers she sees; hers are hidden (H10)"},
    {PowerId::Nemesis, PowerId::Hecate,
     "her swaps are with opponent workers she sees; hers are hidden (H10)"},
    {PowerId::Odysseus, PowerId::Hecate,
     "he forces opponent workers he sees; hers are hidden (H10)"},
    {PowerId::Siren, PowerId::Hecate,
     "her Song forces opponent workers she sees; hers are hidden (H10)"},
    {PowerId::Theseus, PowerId::Hecate,
     "he captures opponent workers he sees; hers are hidden (H10)"},
    {PowerId::Circe, PowerId::Gaea,
     "the workers on Gaea's card are Gaea's: holding it, Circe has none to place (E5)"},
    {PowerId::Circe, PowerId::Selene,
     "Selene's dome is her female worker's: holding it, Circe has none (C28)"},
};

// The entry of `ruled_out` for this matchup, or null.
const char* ruled_out_by_opponent(PowerId power, PowerId opponent) {
    for (const RuledOut& r : ruled_out)
        if (r.power == power && r.opponent == opponent) return r.why;
    return nullptr;
}

// Why `power` takes no step of its own against `opponent` (None: at any table), or "" if it may.
std::string no_own_step(PowerId power, PowerId opponent) {
    if (power == PowerId::Circe && opponent != PowerId::None) {
        std::string circe = std::string("Circe ") + borrows(power);
        if (power_info(opponent).category == PowerCategory::Hero)
            return circe + ", never a hero's (C17)";
        if (!offers_steps(opponent) && !borrows(opponent))
            return circe + ", and " + key(opponent) + "'s offers none";
    }
    if (!offers_steps(power) && !borrows(power)) {
        std::string has;
        for (const Hook& h : other_hooks(rules_of(power)))
            if (h.present) has += std::string(has.empty() ? "" : ", ") + h.name;
        return "no hook offers a step of its own in play (it has: " + has + ")";
    }
    if (const char* why = ruled_out_by_opponent(power, opponent)) return why;
    return "";
}

// ---- sightings ----

// Seats (bits) whose power took a step of its own in one game, gathered by its observer.
struct Sighting {
    int used = 0;
    StepObserver observer() {
        return [this](const State& s, const Step& step) {
            int seat = decider(s);
            if (seat >= 0 && !(used >> seat & 1) && power_step(s, step)) used |= 1 << seat;
        };
    }
    // The choice of the extra games: every other time, a seat of `wanted` that has not yet taken
    // a step of its power takes one of those offered, or else a dome (what sets Dionysus' added
    // turn and Gaea's placement going); otherwise any step, uniformly at random.
    StepChooser chooser(int wanted) {
        return [this, wanted](const State& s, const StepList& list, std::mt19937_64& rng) {
            auto any = [&] {
                return static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()));
            };
            int seat = decider(s);
            if (seat < 0 || !(wanted >> seat & 1) || (used >> seat & 1) || rng() % 2) return any();
            std::vector<int> pick;
            for (int i = 0; i < list.size(); ++i)
                if (power_step(s, list[i])) pick.push_back(i);
            if (pick.empty())
                for (int i = 0; i < list.size(); ++i)
                    if (list[i].kind == StepKind::Dome) pick.push_back(i);
            return pick.empty() ? any() : pick[rng() % pick.size()];
        };
    }
};

// Games per pair for the 2-player sweep: SANTORINI_RANDOM_PAIR_GAMES asks for more (a longer
// sweep), else `n` scaled by SANTORINI_RANDOM_GAMES_PERCENT.
int pair_games(int n) {
    const char* asked = std::getenv("SANTORINI_RANDOM_PAIR_GAMES");
    int a = asked ? std::atoi(asked) : 0;
    return a > 0 ? a : games(n);
}

// Rounds of tables for the 3- and 4-player sample: SANTORINI_RANDOM_TABLE_ROUNDS, else `n`.
int table_rounds(int n) {
    const char* asked = std::getenv("SANTORINI_RANDOM_TABLE_ROUNDS");
    int a = asked ? std::atoi(asked) : 0;
    return a > 0 ? a : n;
}

// The bound on the extra games of a matchup in which a power took no step of its own. Not scaled:
// they stop as soon as it takes one, and a power that takes a step only rarely in a matchup
// (Dionysus at a 4-player table with Persephone and Hades: about 1 game in 30) must not fail by
// chance.
int extra_games() {
    return 300;
}

// The extra games that confirm a matchup of `ruled_out` (scaled like the sweep's games).
int confirm_games() {
    return games(40);
}

// The seed of a matchup's extra games, from its powers alone, so that they do not depend on
// what the sweep played before them.
std::uint64_t extra_seed(const std::vector<PowerId>& powers) {
    std::uint64_t seed = 0x5eed;
    for (auto p : powers) seed = seed * 64 + static_cast<std::uint64_t>(p);
    return seed;
}

// Tables of `players` for the sample, `rounds` times every power eligible there: each round
// shuffles the eligible powers and seats each at the first table of the round that has room and
// no power it is banned against (the catalog bans a pair at any table, teammates too); a table
// still short at the round's end is filled with the round's other powers that fit.
std::vector<std::vector<PowerId>> deal_tables(int players, int rounds, std::mt19937_64& rng) {
    auto eligible = eligible_powers(players, false);
    auto fits = [&](const std::vector<PowerId>& table, PowerId p) {
        return static_cast<int>(table.size()) < players &&
               std::find(table.begin(), table.end(), p) == table.end() &&
               std::none_of(table.begin(), table.end(),
                            [&](PowerId q) { return banned_pair(p, q); });
    };
    std::vector<std::vector<PowerId>> tables;
    for (int r = 0; r < rounds; ++r) {
        std::vector<PowerId> order =
            eligible;  // Fisher-Yates by the test's own generator, the same everywhere
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng() % i]);
        std::vector<std::vector<PowerId>> round;
        for (auto p : order) {
            auto table =
                std::find_if(round.begin(), round.end(), [&](const auto& t) { return fits(t, p); });
            if (table == round.end())
                round.push_back({p});
            else
                table->push_back(p);
        }
        for (auto& table : round) {
            for (auto p : order)
                if (fits(table, p)) table.push_back(p);
            tables.push_back(table);
        }
    }
    return tables;
}

std::string table_text(const std::vector<PowerId>& table) {
    std::string out;
    for (auto p : table) out += (out.empty() ? "" : ",") + key(p);
    return out;
}

}  // namespace

TEST_CASE("random games with every pair of powers stay consistent, end and replay",
          "[random][powers]") {
    std::mt19937_64 rng(2);
    auto eligible = eligible_powers(2, false);
    std::vector<std::pair<PowerId, PowerId>> pairs;
    for (auto a : eligible)
        for (auto b : eligible)
            if (a != b && !banned_pair(a, b)) pairs.emplace_back(a, b);
    REQUIRE(!pairs.empty());
    int per_pair = pair_games(std::max(2, 3600 / static_cast<int>(pairs.size())));
    Outcome o;
    // (power, opponent): the power took a step of its own against that opponent, in either seat.
    std::map<std::pair<PowerId, PowerId>, bool> used;
    for (auto [a, b] : pairs) {
        Sighting seen;
        for (int g = 0; g < per_pair; ++g) {
            Settings st = base(rng, 2, DraftMode::Fixed);
            st.powers = {a, b};
            play_game(st, rng, o, seen.observer());
        }
        used[{a, b}] |= (seen.used & 1) != 0;
        used[{b, a}] |= (seen.used & 2) != 0;
    }
    std::vector<std::string> unseen, wrongly_explained;
    int extra_played = 0, most_needed = 0;
    std::string slowest;
    // Extra games for (p, q), p in either seat in turn, until p takes a step of its own: true if
    // it did.
    auto play_extra = [&](PowerId p, PowerId q, std::uint64_t seed, int bound) {
        std::mt19937_64 extra_rng(seed);
        Sighting seen;
        for (int g = 0; g < bound; ++g) {
            ++extra_played;
            int seat = g % 2;
            Settings st = base(extra_rng, 2, DraftMode::Fixed);
            st.powers = seat == 0 ? std::vector{p, q} : std::vector{q, p};
            seen.used = 0;
            play_game(st, extra_rng, o, seen.observer(), seen.chooser(1 << seat));
            if (seen.used >> seat & 1) return g + 1;
        }
        return 0;
    };
    for (auto& [matchup, took] : used) {
        auto [p, q] = matchup;
        std::string why = no_own_step(p, q);
        std::uint64_t seed = extra_seed({p, q});
        std::string named = key(p) + " against " + key(q);
        // A matchup the table rules out is also played as the extra games are, which take the
        // power's step whenever one is offered: it must stay without one.
        if (!why.empty() &&
            (took || (ruled_out_by_opponent(p, q) && play_extra(p, q, seed, confirm_games()))))
            wrongly_explained.push_back(named + " (" + why + "; extra games seeded " +
                                        std::to_string(seed) + ")");
        if (!why.empty() || took) continue;
        int needed = play_extra(p, q, seed, extra_games());
        if (needed > most_needed) {
            most_needed = needed;
            slowest = named;
        }
        if (needed == 0)
            unseen.push_back(named + " (extra games seeded " + std::to_string(seed) + ")");
    }
    report(o, "2p fixed pairs");
    std::sort(unseen.begin(), unseen.end());
    INFO("2p sweep: " << per_pair << " games per ordered pair, then " << extra_played
                      << " extra games, for the matchups in which a power took no step of its own"
                      << " (at most " << most_needed << ", " << slowest << "; the bound is "
                      << extra_games() << ") and " << confirm_games()
                      << " for each matchup ruled out by its opponent");
    for (const auto& u : unseen) UNSCOPED_INFO("never took a step of its own: " << u);
    CHECK(unseen.empty());
    for (const auto& w : wrongly_explained)
        UNSCOPED_INFO("took a step of its own, though explained: " << w);
    CHECK(wrongly_explained.empty());
}

TEST_CASE("random 3 and 4 player tables seat every power, stay consistent, end and replay",
          "[random][tables]") {
    std::mt19937_64 rng(6);
    int rounds = table_rounds(games(20));
    int per_table = games(2);
    Outcome o;
    std::vector<std::string> unseen, wrongly_explained;
    int tables_played = 0, extra_played = 0, most_needed = 0;
    std::string slowest;
    for (int players : {3, 4}) {
        auto tables = deal_tables(players, rounds, rng);
        std::string unseated;
        for (auto p : eligible_powers(players, false))
            if (std::none_of(tables.begin(), tables.end(), [&](const auto& t) {
                    return std::find(t.begin(), t.end(), p) != t.end();
                }))
                unseated += " " + key(p);
        INFO(players << " players, powers at no table:" << unseated);
        CHECK(unseated.empty());
        for (const auto& table : tables) {
            REQUIRE(static_cast<int>(table.size()) == players);
            ++tables_played;
            // Why each seat's power may take no step of its own here: against every opponent
            // (4 players: the other team, seats of the other parity) or at any table.
            std::vector<std::string> why(table.size());
            for (int seat = 0; seat < players; ++seat) {
                std::string common;
                for (int other = 0; other < players; ++other) {
                    bool opponent = players == 4 ? (other - seat) % 2 != 0 : other != seat;
                    if (!opponent) continue;
                    std::string w = no_own_step(table[seat], table[other]);
                    if (w.empty()) {
                        common.clear();
                        break;
                    }
                    common = w;
                }
                why[seat] = common;
            }
            Sighting seen;
            for (int g = 0; g < per_table; ++g) {
                Settings st = base(rng, players, DraftMode::Fixed);
                st.powers = table;
                play_game(st, rng, o, seen.observer());
            }
            // The powers that took none, though nothing explains it, get extra games at the same
            // table, its seats rotated by one each game.
            std::vector<PowerId> waiting;
            for (int seat = 0; seat < players; ++seat) {
                bool took = (seen.used >> seat & 1) != 0;
                if (!why[seat].empty() && took)
                    wrongly_explained.push_back(key(table[seat]) + " at " + table_text(table) +
                                                " (" + why[seat] + ")");
                if (why[seat].empty() && !took) waiting.push_back(table[seat]);
            }
            if (waiting.empty()) continue;
            std::uint64_t seed = extra_seed(table);
            std::mt19937_64 extra_rng(seed);
            for (int g = 0; g < extra_games() && !waiting.empty(); ++g, ++extra_played) {
                Settings st = base(extra_rng, players, DraftMode::Fixed);
                st.powers = table;
                std::rotate(st.powers.begin(), st.powers.begin() + g % players, st.powers.end());
                int wanted = 0;
                for (int seat = 0; seat < players; ++seat)
                    if (std::find(waiting.begin(), waiting.end(), st.powers[seat]) != waiting.end())
                        wanted |= 1 << seat;
                Sighting extra;
                play_game(st, extra_rng, o, extra.observer(), extra.chooser(wanted));
                for (int seat = 0; seat < players; ++seat)
                    if (extra.used >> seat & 1) std::erase(waiting, st.powers[seat]);
                if (waiting.empty() && g + 1 > most_needed) {
                    most_needed = g + 1;
                    slowest = table_text(table);
                }
            }
            for (auto p : waiting)
                unseen.push_back(key(p) + " at " + table_text(table) + " (extra games seeded " +
                                 std::to_string(seed) + ")");
        }
    }
    report(o, "3p/4p tables");
    std::sort(unseen.begin(), unseen.end());
    INFO("3p/4p sample: "
         << tables_played << " tables (" << rounds << " rounds per player count), " << per_table
         << " games each, then " << extra_played
         << " extra games for the tables at which a power took no step of its own (at most "
         << most_needed << ", at " << slowest << "; the bound is " << extra_games() << ")");
    for (const auto& u : unseen) UNSCOPED_INFO("never took a step of its own: " << u);
    CHECK(unseen.empty());
    for (const auto& w : wrongly_explained)
        UNSCOPED_INFO("took a step of its own, though explained: " << w);
    CHECK(wrongly_explained.empty());
}
