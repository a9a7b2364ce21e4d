// The engine against an independent reference (reference_rules.hpp, written from the rulebook,
// RULES.md and the rulings, sharing no rules code with the engine). In every position of
// random games, 2, 3 and 4 players, played in styles biased to reach the corners of the rules
// (empty piles, empty decks, three reserves, no gold left, hands over 10, several nobles
// earned, passes, seats out), and of games from hand-made edge positions: the engine's legal
// steps are the reference's, as a set, none twice; and each of them applied by the engine gives
// the State the reference's application gives, every field compared (rows refilled, nobles,
// the turn's end, the final round, the end and the winners). Each group checks that it reached
// every corner. Then perft to depth 3: the engine's counts are the reference's.
//
// About 380,000 positions and 4.2 million steps compared, about 4 s in a release build.
// SANTORINI_RANDOM_GAMES_PERCENT=10 plays a tenth of the games (as random_play_test.cpp does).

#include <algorithm>
#include <bit>
#include <catch2/catch_test_macros.hpp>
#include <cstdlib>
#include <iterator>
#include <random>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "engine/splendor/perft.hpp"
#include "reference_rules.hpp"
#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace reference_test {

using namespace splendor;

static_assert(std::is_trivially_copyable_v<State>);

namespace {

int games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

auto key(const Step& s) {
    return std::tuple(s.kind, s.gems, s.card, s.level, s.noble);
}
bool before(const Step& a, const Step& b) {
    return key(a) < key(b);
}

std::string list_text(const std::vector<Step>& steps) {
    std::string out;
    for (const Step& s : steps) out += "\n    " + to_text(s);
    return out;
}

template <class T, std::size_t N>
std::string counts(const std::array<T, N>& a) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) out += (i ? "," : "") + std::to_string(int(a[i]));
    return out;
}

// The fields in which two states differ, by name and value (engine / reference).
std::string difference(const State& e, const State& r) {
    std::string out;
    auto field = [&](const std::string& name, const std::string& a, const std::string& b) {
        if (a != b) out += "\n    " + name + ": engine " + a + ", reference " + b;
    };
    auto n = [](auto v) { return std::to_string(static_cast<long long>(v)); };
    field("players", n(e.players), n(r.players));
    for (int i = 0; i < max_players; ++i) {
        const Player& a = e.seat(i);
        const Player& b = r.seat(i);
        std::string seat = "seat " + n(i) + " ";
        field(seat + "tokens", counts(a.tokens), counts(b.tokens));
        field(seat + "bonuses", counts(a.bonuses), counts(b.bonuses));
        field(seat + "points", n(a.points), n(b.points));
        field(seat + "cards", n(a.cards), n(b.cards));
        for (int k = 0; k < max_reserved; ++k) {
            auto res = [&](const Reserved& x) { return n(x.card) + (x.blind ? "*" : ""); };
            field(seat + "reserved[" + n(k) + "]", res(a.reserved[static_cast<std::size_t>(k)]),
                  res(b.reserved[static_cast<std::size_t>(k)]));
        }
        field(seat + "reserved_count", n(a.reserved_count), n(b.reserved_count));
        field(seat + "nobles", n(a.nobles), n(b.nobles));
        field(seat + "out", n(a.out), n(b.out));
    }
    field("supply", counts(e.supply), counts(r.supply));
    for (std::size_t l = 0; l < levels; ++l) {
        field("deck" + n(l + 1), counts(e.decks[l]), counts(r.decks[l]));
        field("deck_size" + n(l + 1), n(e.deck_size[l]), n(r.deck_size[l]));
        field("row" + n(l + 1), counts(e.rows[l]), counts(r.rows[l]));
    }
    field("nobles", n(e.nobles), n(r.nobles));
    field("start_player", n(e.start_player), n(r.start_player));
    field("current", n(e.current), n(r.current));
    field("phase", n(static_cast<int>(e.phase)), n(static_cast<int>(r.phase)));
    field("final_round", n(e.final_round), n(r.final_round));
    field("passes", n(e.passes), n(r.passes));
    field("turn", n(e.turn), n(r.turn));
    field("winners", n(e.winners), n(r.winners));
    return out;
}

// What the positions compared covered: each corner of the rules must be reached.
struct Coverage {
    long positions = 0, steps = 0;
    long empty_pile = 0, no_colour_left = 0, empty_deck = 0, three_reserved = 0, gold_out = 0,
         returning = 0, noble_choice = 0, passing = 0, final_round = 0, seat_out = 0, ended = 0,
         gold_choices = 0, empty_slot = 0;
    long few_colours = 0, start_out_final = 0, shared = 0;
    long games = 0, by_points = 0, by_passes = 0, by_concessions = 0;
    std::vector<std::string> failures;
    long failure_count = 0;

    void fail(const std::string& what) {
        if (++failure_count <= 5) failures.push_back(what);
    }

    void note(const State& s, const StepList& list) {
        ++positions;
        int colours_left = 0;
        for (int c = 0; c < gem_colours; ++c)
            colours_left += s.supply[static_cast<std::size_t>(c)] > 0;
        empty_pile += colours_left < gem_colours;
        no_colour_left += colours_left == 0;
        few_colours += colours_left == 1 || colours_left == 2;
        bool deck_empty = false, slot_empty = false;
        for (std::size_t l = 0; l < levels; ++l) {
            deck_empty = deck_empty || s.deck_size[l] == 0;
            for (auto id : s.rows[l]) slot_empty = slot_empty || id < 0;
        }
        empty_deck += deck_empty;
        empty_slot += slot_empty;
        three_reserved += s.phase == Phase::Action && s.seat(s.current).reserved_count == 3;
        gold_out += s.supply[Gold] == 0;
        returning += s.phase == Phase::Return;
        noble_choice += s.phase == Phase::Noble;
        passing += list.size() == 1 && list[0].kind == StepKind::Pass;
        final_round += s.final_round;
        bool out = false;
        for (int i = 0; i < s.players; ++i) out = out || s.seat(i).out;
        seat_out += out;
        start_out_final += s.final_round && s.seat(s.start_player).out;
        for (std::size_t i = 1; i < list.size(); ++i)
            if (list[i].kind == StepKind::Buy && list[i].gems[Gold] > 0 &&
                std::any_of(list.begin(), list.end(), [&](const Step& o) {
                    return o.kind == StepKind::Buy && o.card == list[i].card &&
                           o.gems[Gold] != list[i].gems[Gold];
                })) {
                ++gold_choices;
                break;
            }
    }
};

// Compares the engine and the reference in `s`: the legal steps as sets, then each step's
// result. `where` names the position in a failure.
void compare(const State& s, const StepList& list, Coverage& cov, const std::string& where) {
    cov.note(s, list);
    std::vector<Step> engine(list.begin(), list.end());
    std::vector<Step> reference = splendor_reference::legal_steps(s);
    std::sort(engine.begin(), engine.end(), before);
    std::sort(reference.begin(), reference.end(), before);
    if (std::adjacent_find(engine.begin(), engine.end()) != engine.end())
        cov.fail(where + ": the engine lists a step twice in " + to_notation(s));
    if (engine != reference) {
        std::vector<Step> only_engine, only_reference;
        std::set_difference(engine.begin(), engine.end(), reference.begin(), reference.end(),
                            std::back_inserter(only_engine), before);
        std::set_difference(reference.begin(), reference.end(), engine.begin(), engine.end(),
                            std::back_inserter(only_reference), before);
        cov.fail(where + ": legal steps differ in " + to_notation(s) + "\n  engine only:" +
                 list_text(only_engine) + "\n  reference only:" + list_text(only_reference));
        return;
    }
    for (const Step& st : list) {
        State e = s;
        apply_step(e, st);
        State r = splendor_reference::apply(s, st);
        ++cov.steps;
        cov.ended += e.phase == Phase::Over;
        cov.shared += std::popcount(e.winners) > 1;
        if (!(e == r)) {
            cov.fail(where + ": '" + to_text(st) + "' gives different states from " +
                     to_notation(s) + difference(e, r));
        }
    }
}

// How a random game chooses its steps. Each legal step gets the weight of its class; a step
// is drawn with probability proportional to its weight (Return and Noble steps: uniform).
struct Style {
    const char* name;
    int take, take_two, reserve_face, reserve_blind, buy_face, buy_reserved, level1_bonus;
};

constexpr Style styles[] = {
    // Every legal step alike.
    {"uniform", 1, 1, 1, 1, 1, 1, 0},
    // Buys when it can: games reach 15 points, the final round and the end.
    {"buyer", 3, 3, 1, 1, 12, 12, 0},
    // Takes and reserves, rarely buys: piles empty, hands over 10, gold gone, passes.
    {"hoarder", 8, 8, 2, 2, 1, 1, 0},
    // Reserves from the decks and buys what it reserved: three reserves, gold gone, decks thin.
    {"reserver", 2, 2, 3, 8, 2, 10, 0},
    // Buys cheap level 1 cards: the level 1 deck runs out, bonuses pile up, nobles come.
    {"collector", 3, 3, 1, 1, 6, 6, 30},
};
constexpr int style_count = static_cast<int>(std::size(styles));

int weight(const Style& y, const State& s, const Step& st) {
    switch (st.kind) {
        case StepKind::Take:
            return total(st.gems) == 2 && *std::max_element(st.gems.begin(), st.gems.end()) == 2
                       ? y.take_two
                       : y.take;
        case StepKind::Reserve:
            return st.card >= 0 ? y.reserve_face : y.reserve_blind;
        case StepKind::Buy: {
            bool face_up = false;
            for (const auto& row : s.rows)
                for (auto id : row) face_up = face_up || id == st.card;
            int w = face_up ? y.buy_face : y.buy_reserved;
            return card(st.card).level == 1 ? w + y.level1_bonus : w;
        }
        default:
            return 1;
    }
}

std::size_t choose(const Style& y, const State& s, const StepList& list, std::mt19937_64& rng) {
    long sum = 0;
    for (const Step& st : list) sum += weight(y, s, st);
    long pick = static_cast<long>(rng() % static_cast<std::uint64_t>(sum));
    for (std::size_t i = 0; i < list.size(); ++i) {
        pick -= weight(y, s, list[i]);
        if (pick < 0) return i;
    }
    return list.size() - 1;
}

constexpr int step_bound = 2000;

// Plays one game from `s` in style `y`, comparing at every position. 3-4 players: a seat may
// concede now and then (`concessions`), so that positions with seats out are compared too.
void play_game(State s, const Style& y, std::uint64_t seed, bool concessions, Coverage& cov,
               const std::string& name) {
    std::mt19937_64 rng(seed);
    StepList list;
    for (int n = 0; n < step_bound && decider(s) >= 0; ++n) {
        if (concessions && s.players > 2 && rng() % 150 == 0) {
            int seat = static_cast<int>(rng() % static_cast<std::uint64_t>(s.players));
            if (!s.seat(seat).out) REQUIRE(concede(s, seat) == std::nullopt);
            if (decider(s) < 0) break;
        }
        legal_steps(s, list);
        compare(s, list, cov, name + " " + y.name + " step " + std::to_string(n));
        if (auto e = check_invariants(s); !e.empty()) cov.fail(name + ": " + e);
        if (cov.failure_count > 0 || list.empty()) return;
        apply_step(s, list[choose(y, s, list, rng)]);
    }
    if (decider(s) >= 0) {
        cov.fail(name + ": still running after " + std::to_string(step_bound) + " steps");
        return;
    }
    ++cov.games;
    int in = 0;
    bool fifteen = false;
    for (int i = 0; i < s.players; ++i) {
        in += !s.seat(i).out;
        fifteen = fifteen || (!s.seat(i).out && s.seat(i).points >= winning_points);
    }
    (in == 1 ? cov.by_concessions : fifteen ? cov.by_points : cov.by_passes) += 1;
}

void report(const Coverage& c) {
    INFO(c.games << " games (" << c.by_points << " ended by points, " << c.by_passes
                 << " by passes, " << c.by_concessions << " by concessions), " << c.positions
                 << " positions, " << c.steps << " steps compared. Positions with: an empty pile "
                 << c.empty_pile << ", 1 or 2 colours left " << c.few_colours << ", no colour left "
                 << c.no_colour_left << ", an empty deck " << c.empty_deck << ", an empty row slot "
                 << c.empty_slot << ", 3 reserved " << c.three_reserved << ", no gold "
                 << c.gold_out << ", returns " << c.returning << ", a noble choice "
                 << c.noble_choice << ", only a pass " << c.passing << ", the final round "
                 << c.final_round << " (the start seat out " << c.start_out_final
                 << "), a seat out " << c.seat_out << ", a choice of gold " << c.gold_choices
                 << ". Steps that end the game " << c.ended << " (shared victories " << c.shared
                 << ")");
    for (const auto& f : c.failures) UNSCOPED_INFO(f);
    CHECK(c.failure_count == 0);
    // Every group reaches each corner (at a tenth of the games too).
    for (long reached : {c.empty_pile, c.few_colours, c.no_colour_left, c.empty_deck, c.empty_slot,
                         c.three_reserved, c.gold_out, c.returning, c.noble_choice, c.final_round,
                         c.gold_choices, c.ended})
        CHECK(reached > 0);
}

void play_group(Coverage& cov, int players, int count, std::uint64_t first_seed) {
    for (int g = 0; g < count; ++g) {
        const std::uint64_t seed = first_seed + static_cast<std::uint64_t>(g);
        State s =
            new_state(players, static_cast<int>(seed % static_cast<std::uint64_t>(players)), seed);
        play_game(s, styles[g % style_count], seed * 31 + 7, true, cov,
                  std::to_string(players) + " players seed " + std::to_string(seed));
        if (cov.failure_count > 0) return;
    }
}

}  // namespace

TEST_CASE("reference: its own counts are the hand counts of perft_test.cpp") {
    State s = new_state(2, 0, 0);
    CHECK(splendor_reference::legal_steps(s).size() == 30);
    CHECK(splendor_reference::perft(s, 2) == 865);
    State gold = position(std::string(table) +
                          " A: tokens=2,3,1,2,0,2 bought=9,10,17 reserved=47*,12 B: "
                          "tokens=1,0,2,1,3,1 bought=33,25 reserved=60");
    auto steps = splendor_reference::legal_steps(gold);
    CHECK(steps.size() == 45);
    CHECK(std::count_if(steps.begin(), steps.end(),
                        [](const Step& st) { return st.kind == StepKind::Buy; }) == 20);
}

TEST_CASE("reference: random 2-player games, legal steps and every result equal the engine's") {
    Coverage cov;
    play_group(cov, 2, games(1200), 1);
    report(cov);
}

TEST_CASE("reference: random 3-player games, legal steps and every result equal the engine's") {
    Coverage cov;
    play_group(cov, 3, games(800), 5001);
    report(cov);
    CHECK(cov.seat_out > 0);
    CHECK(cov.start_out_final > 0);
}

TEST_CASE("reference: random 4-player games, legal steps and every result equal the engine's") {
    Coverage cov;
    play_group(cov, 4, games(800), 9001);
    report(cov);
    CHECK(cov.seat_out > 0);
    CHECK(cov.start_out_final > 0);
}

namespace {
// Starts at the edges: the level 1 deck gone, two nobles earned by A at once and one by B; the
// level 3 deck gone, every seat with three reserves and the gold in the hands (4 players); a
// bank without gems where only passes remain; the same with A owed a noble it could not take
// when it earned two at once (it visits at the end of A's pass); gold to pay with, a full hand
// and reserves.
const char* const edges[] = {
    "nobles=0,2,4 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 deck1=- A: tokens=1,1,1,0,0,0 "
    "bought=1-6,9-14,17-22 "
    "reserved=31,39 B: tokens=0,0,0,1,1,0 bought=25-30,32-38 reserved=7,15,23",
    "nobles=0,1,3,7,9 row3=70,74,78,82 deck3=- row1=0,8,16,24 row2=40,46,52,58 "
    "A: tokens=1,1,0,0,0,2 reserved=71*,72,73 bought=75 B: tokens=0,1,1,0,0,2 "
    "reserved=76*,77,79 bought=80 C: tokens=0,0,1,1,0,1 reserved=81,83,84 bought=85 "
    "D: reserved=86,87,88 bought=89",
    "nobles=0,3,7 row1=3,8,10,13 row2=40,41,44,46 row3=70,72,74,76 "
    "A: tokens=4,4,2,0,0,0 reserved=71*,75*,79* bought=23 "
    "B: tokens=0,0,2,4,4,0 reserved=77*,80*,81*",
    "nobles=0,3 row1=3,6,10,13 row2=40,41,44,46 row3=70,72,74,76 A: tokens=4,4,2,0,0,0 "
    "reserved=71*,73*,78* bought=0,2,4,5,9,11,12,14,17,18,19 nobles=5 "
    "B: tokens=0,0,2,4,4,0 reserved=77*,80*,81*",
    "nobles=0,3,7 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 A: tokens=2,3,1,2,0,2 "
    "bought=9,10,17 reserved=47*,12 B: tokens=1,0,2,1,3,1 bought=33,25 reserved=60",
};
}  // namespace

TEST_CASE("reference: random games from edge positions equal the engine's") {
    Coverage cov;
    int per_edge = games(150);
    for (std::size_t e = 0; e < std::size(edges); ++e) {
        State s = position(edges[e]);
        for (int g = 0; g < per_edge && cov.failure_count == 0; ++g)
            play_game(s, styles[g % style_count], 1000 * e + static_cast<std::uint64_t>(g), true,
                      cov, "edge " + std::to_string(e) + " game " + std::to_string(g));
    }
    report(cov);
    CHECK(cov.passing > 0);
    CHECK(cov.by_passes > 0);
}

TEST_CASE("reference: perft to depth 3 equals the engine's perft and perft_divide") {
    for (std::uint64_t seed : {0, 1, 2, 3, 4}) {
        State s = new_state(2, static_cast<int>(seed % 2), seed);
        INFO("2 players seed " << seed);
        std::uint64_t expected = splendor_reference::perft(s, 3);
        CHECK(perft(s, 3) == expected);
        if (seed == 0) {  // docs/splendor_engine.md
            CHECK(expected == 24190);
            if (games(100) == 100) CHECK(splendor_reference::perft(s, 4) == 659505);
        }
        // By first step, so that a difference names the step it hides under.
        for (const auto& [st, n] : perft_divide(s, 2)) {
            INFO(to_text(st));
            CHECK(n == splendor_reference::perft(splendor_reference::apply(s, st), 1));
        }
    }
    for (int players : {3, 4}) {
        State s = new_state(players, 0, 7);
        INFO(players << " players seed 7");
        CHECK(perft(s, 3) == splendor_reference::perft(s, 3));
    }
    for (const char* text : edges) {
        State s = position(text);
        INFO(text);
        CHECK(perft(s, 3) == splendor_reference::perft(s, 3));
    }
}

TEST_CASE("reference: perft to depth 3 from positions of random games equals the engine's") {
    // New games all count alike at depth 3 (24,190 for every seed, 2 players): positions from
    // the middle and the end of games differ in every way (gold, reserves, returns, nobles).
    StepList list;
    int checked = 0;
    for (int players = 2; players <= 4; ++players)
        for (std::uint64_t seed = 1; seed <= 4; ++seed) {
            State s = new_state(players, 0, 100 * seed + static_cast<std::uint64_t>(players));
            std::mt19937_64 rng(seed);
            const Style& y = styles[(seed + static_cast<std::uint64_t>(players)) % style_count];
            for (int n = 0; decider(s) >= 0 && n < 400; ++n) {
                if (n % 10 == 9) {
                    INFO(to_notation(s));
                    CHECK(perft(s, 3) == splendor_reference::perft(s, 3));
                    ++checked;
                }
                legal_steps(s, list);
                apply_step(s, list[choose(y, s, list, rng)]);
            }
        }
    CHECK(checked > 100);
}

}  // namespace reference_test
