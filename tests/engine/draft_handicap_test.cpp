// The handicap game (Settings::hero_seat): one seat gets a hero, the other a god, in every
// draft mode, with either seat as the hero's and either as the challenger; Theseus never
// against Nemesis; the settings it refuses. The heroes are not all implemented yet, so the
// draft is played as if every power were (detail::new_game, as draft_banned_test.cpp does).
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/state_hash.hpp"
#include "engine/santorini/turn_flow.hpp"

using namespace santorini;
using P = PowerId;

namespace {

bool hero(PowerId p) { return p != P::None && power_info(p).category == PowerCategory::Hero; }

Settings handicap(DraftMode draft, int hero_seat, int challenger = 0, std::uint64_t seed = 0) {
    Settings s;
    s.players = 2;
    s.draft = draft;
    s.hero_seat = hero_seat;
    s.challenger = challenger;
    s.start_player = -1;
    s.seed = seed;
    return s;
}

std::vector<PowerId> pool_of(const State& s) {
    std::vector<PowerId> out;
    for (int i = 1; i <= power_count; ++i)
        if (s.setup.pool & (std::uint64_t{1} << i)) out.push_back(static_cast<PowerId>(i));
    return out;
}

std::vector<PowerId> listed(const State& s) {
    StepList list;
    legal_steps(s, list);
    std::vector<PowerId> out;
    for (const Step& st : list) out.push_back(st.power());
    return out;
}

// Both seats hold a power of the right kind, not banned against each other.
void check_kinds(const State& s, int hero_seat) {
    INFO(power_info(s.seat(0).power).name << " against " << power_info(s.seat(1).power).name);
    CHECK(hero(s.seat(hero_seat).power));
    CHECK_FALSE(hero(s.seat(1 - hero_seat).power));
    CHECK(s.seat(1 - hero_seat).power != P::None);
    CHECK_FALSE(banned_pair(s.seat(0).power, s.seat(1).power));
    CHECK(check_invariants(s).empty());
}

// Plays the offer and the choice by always taking the `pick`-th listed step (mod the list).
State draft_by(State s, std::uint64_t pick) {
    while (s.phase == Phase::Offer || s.phase == Phase::Choose) {
        StepList list;
        legal_steps(s, list);
        REQUIRE(!list.empty());
        apply_step(s, list[static_cast<int>(pick % static_cast<std::uint64_t>(list.size()))]);
        pick = pick * 6364136223846793005u + 1442695040888963407u;
    }
    return s;
}

}  // namespace

TEST_CASE("handicap: a random deal gives the hero seat a hero and the other seat a god", "[variants][draft]") {
    for (int hero_seat : {0, 1})
        for (int challenger : {0, 1}) {
            std::set<PowerId> heroes, gods;
            for (std::uint64_t seed = 1; seed <= 300; ++seed) {
                INFO("hero seat " << hero_seat << ", challenger " << challenger << ", seed " << seed);
                auto g = detail::new_game(handicap(DraftMode::Random, hero_seat, challenger, seed), true);
                REQUIRE(g.ok());
                CHECK(g->setup.hero_seat == hero_seat);
                CHECK(g->phase == Phase::StartPlayer);
                check_kinds(*g, hero_seat);
                heroes.insert(g->seat(hero_seat).power);
                gods.insert(g->seat(1 - hero_seat).power);
            }
            // Every hero is dealt, and gods of both sets (not only the simple ones).
            CHECK(heroes.size() == 10);
            CHECK(gods.size() > 30);
        }
}

TEST_CASE("handicap: Theseus is never dealt, offered or chosen against Nemesis", "[variants][draft]") {
    // Theseus with only Nemesis and Apollo to face: always Apollo. Nemesis with Theseus and
    // Achilles: always Achilles.
    for (int hero_seat : {0, 1})
        for (std::uint64_t seed = 1; seed <= 200; ++seed) {
            Settings st = handicap(DraftMode::Random, hero_seat, 0, seed);
            st.pool = {P::Theseus, P::Nemesis, P::Apollo};
            auto g = detail::new_game(st, true);
            REQUIRE(g.ok());
            check_kinds(*g, hero_seat);
            CHECK(g->seat(1 - hero_seat).power == P::Apollo);
            st.pool = {P::Theseus, P::Achilles, P::Nemesis};
            g = detail::new_game(st, true);
            REQUIRE(g.ok());
            CHECK(g->seat(hero_seat).power == P::Achilles);
            CHECK(g->seat(1 - hero_seat).power == P::Nemesis);
        }
    // The offer: Theseus first leaves Nemesis out; Nemesis first leaves Theseus out; a pool
    // where Theseus faces only Nemesis never lists him.
    State s = *detail::new_game(handicap(DraftMode::FullOffer, 0), true);
    State t = s;
    apply_step(t, Step::offer(P::Theseus));
    auto after_theseus = listed(t);
    CHECK(std::count(after_theseus.begin(), after_theseus.end(), P::Nemesis) == 0);
    CHECK(std::count(after_theseus.begin(), after_theseus.end(), P::Apollo) == 1);
    t = s;
    apply_step(t, Step::offer(P::Nemesis));
    auto after_nemesis = listed(t);
    CHECK(std::count(after_nemesis.begin(), after_nemesis.end(), P::Theseus) == 0);
    CHECK(after_nemesis.size() == 9);  // the other nine heroes
    Settings st = handicap(DraftMode::FullOffer, 1);
    st.pool = {P::Theseus, P::Achilles, P::Nemesis};
    auto first = listed(*detail::new_game(st, true));
    CHECK(std::set<PowerId>(first.begin(), first.end()) == std::set<PowerId>{P::Achilles, P::Nemesis});
    // And no deal of a subset ever puts them together.
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        Settings sub = handicap(DraftMode::SubsetOffer, 0, 0, seed);
        sub.pool = {P::Theseus, P::Achilles, P::Nemesis, P::Apollo};
        sub.subset_size = 2;
        auto g = detail::new_game(sub, true);
        REQUIRE(g.ok());
        auto pool = pool_of(*g);
        REQUIRE(pool.size() == 2);
        CHECK_FALSE(banned_pair(pool[0], pool[1]));
        check_kinds(draft_by(*g, seed), 0);
    }
}

TEST_CASE("handicap: the full offer is one hero and one god, and each seat chooses its own kind", "[variants][draft]") {
    const auto eligible = detail::eligible_powers(2, false, true);
    for (int hero_seat : {0, 1})
        for (int challenger : {0, 1}) {
            INFO("hero seat " << hero_seat << ", challenger " << challenger);
            State s = *detail::new_game(handicap(DraftMode::FullOffer, hero_seat, challenger), true);
            CHECK(s.phase == Phase::Offer);
            CHECK(decider(s) == challenger);
            // First offer: every power of the pool (each has a partner of the other kind).
            CHECK(listed(s) == eligible);
            for (PowerId first : {P::Achilles, P::Apollo, P::Nemesis}) {
                State t = s;
                apply_step(t, Step::offer(first));
                // Second offer: the other kind only, nothing banned against the first.
                for (PowerId p : listed(t)) {
                    INFO(power_info(first).name << " then " << power_info(p).name);
                    CHECK(hero(p) != hero(first));
                    CHECK_FALSE(banned_pair(p, first));
                }
                CHECK(listed(t).size() == (hero(first) ? 45u : first == P::Nemesis ? 9u : 10u));
                apply_step(t, Step::offer(hero(first) ? P::Athena : P::Odysseus));
                // The other seat chooses, and may take only the power of its kind.
                REQUIRE(t.phase == Phase::Choose);
                REQUIRE(decider(t) == 1 - challenger);
                const auto choice = listed(t);
                REQUIRE(choice.size() == 1);
                CHECK(hero(choice[0]) == (1 - challenger == hero_seat));
                PowerId wrong = hero(choice[0]) ? (hero(first) ? P::Athena : first) : (hero(first) ? first : P::Odysseus);
                State u = t;
                CHECK(try_step(u, Step::choose(wrong)).has_value());
                CHECK(u == t);
                // The challenger gets the last power, of its own kind.
                apply_step(t, Step::choose(choice[0]));
                CHECK(t.phase == Phase::StartPlayer);
                check_kinds(t, hero_seat);
            }
            // Whatever the challenger offers, the draft ends with the right kinds.
            for (std::uint64_t pick = 0; pick < 60; ++pick) check_kinds(draft_by(s, pick * 7919 + 13), hero_seat);
        }
}

TEST_CASE("handicap: the subset holds half heroes and half gods, the odd one a god", "[variants][draft]") {
    for (int hero_seat : {0, 1})
        for (int size : {0, 2, 3, 4, 5, 8}) {
            for (std::uint64_t seed = 1; seed <= 60; ++seed) {
                INFO("hero seat " << hero_seat << ", subset " << size << ", seed " << seed);
                Settings st = handicap(DraftMode::SubsetOffer, hero_seat, static_cast<int>(seed % 2), seed);
                st.subset_size = size;
                auto g = detail::new_game(st, true);
                REQUIRE(g.ok());
                auto pool = pool_of(*g);
                const int n = size == 0 ? 4 : size;
                CHECK(static_cast<int>(pool.size()) == n);
                CHECK(std::count_if(pool.begin(), pool.end(), hero) == n / 2);
                State done = draft_by(*g, seed);
                check_kinds(done, hero_seat);
                for (int k = 0; k < 2; ++k)
                    CHECK(std::count(pool.begin(), pool.end(), done.seat(k).power) == 1);
            }
        }
    // A pool with a single hero: the default subset holds that hero and two gods.
    Settings st = handicap(DraftMode::SubsetOffer, 0, 0, 3);
    st.pool = {P::Medea, P::Apollo, P::Pan, P::Zeus};
    auto g = detail::new_game(st, true);
    REQUIRE(g.ok());
    auto pool = pool_of(*g);
    CHECK(pool.size() == 3);
    CHECK(std::count(pool.begin(), pool.end(), P::Medea) == 1);
}

TEST_CASE("handicap: fixed powers must be of the right kinds", "[variants][draft]") {
    Settings st = handicap(DraftMode::Fixed, 1);
    st.powers = {P::Apollo, P::Jason};
    CHECK_FALSE(detail::validate(st, true).has_value());
    auto g = detail::new_game(st, true);
    REQUIRE(g.ok());
    check_kinds(*g, 1);
    st.powers = {P::Jason, P::Apollo};
    REQUIRE(detail::validate(st, true).has_value());
    CHECK(*detail::validate(st, true) == "Jason is a hero: the seat against the hero gets a god");
    st.powers = {P::Apollo, P::Artemis};
    CHECK(*detail::validate(st, true) == "Artemis is not a hero: the hero seat gets a hero");
    st.powers = {P::Achilles, P::Jason};
    CHECK(detail::validate(st, true).has_value());
    st.powers = {P::Nemesis, P::Theseus};
    CHECK(*detail::validate(st, true) == "Theseus is banned against Nemesis");
}

TEST_CASE("handicap: the settings it refuses", "[variants][draft]") {
    auto error = [](const Settings& st) { return detail::validate(st, true).value_or(""); };
    Settings st = handicap(DraftMode::Random, 0);
    CHECK(error(st).empty());
    st.hero_seat = 2;
    CHECK(error(st) == "the hero seat must be 0, 1 or -1 (no handicap)");
    st.hero_seat = -2;
    CHECK(error(st) == "the hero seat must be 0, 1 or -1 (no handicap)");
    st = handicap(DraftMode::Random, 0);
    st.players = 3;
    CHECK(error(st) == "the handicap game (a hero against a god) is for 2 players");
    st = handicap(DraftMode::Random, 1);
    st.golden_fleece = true;
    CHECK(!error(st).empty());
    st = handicap(DraftMode::None, 1);
    CHECK(error(st) == "the handicap game needs powers");
    const std::string no_pair = "the handicap game needs a hero and a god in the pool that are not banned against each other";
    for (DraftMode mode : {DraftMode::Random, DraftMode::FullOffer, DraftMode::SubsetOffer}) {
        st = handicap(mode, 0);
        st.pool = {P::Apollo, P::Artemis, P::Atlas};  // no hero
        CHECK(error(st) == no_pair);
        st.pool = {P::Achilles, P::Jason};  // no god
        CHECK(error(st) == no_pair);
        st.pool = {P::Theseus, P::Nemesis};  // only a banned pair
        CHECK(error(st) == no_pair);
        st.pool = {P::Theseus, P::Nemesis, P::Pan};
        CHECK(error(st).empty());
        CHECK(detail::new_game(st, true).ok());
    }
    st = handicap(DraftMode::SubsetOffer, 0);
    st.pool = {P::Achilles, P::Apollo, P::Pan};
    st.subset_size = 3;  // one hero, two gods
    CHECK(error(st).empty());
    st.subset_size = 4;  // two heroes: the pool has one
    CHECK(error(st) == "a handicap subset of 4 powers holds 2 heroes and 2 gods: the pool has too few, or the subset is too small");
    st.pool = {};
    st.subset_size = 1;  // no room for a hero
    CHECK(!error(st).empty());
}

TEST_CASE("handicap: the public API deals the implemented heroes (all ten)", "[variants][draft]") {
    const Settings st = handicap(DraftMode::Random, 0, 0, 5);
    CHECK_FALSE(validate(st).has_value());
    auto g = new_game(st);
    REQUIRE(g.ok());
    check_kinds(*g, 0);
    // Every power is implemented, so the public pool is the one the draft tests pretend.
    CHECK(eligible_powers(2, false) == detail::eligible_powers(2, false, true));
}

TEST_CASE("handicap: the hero seat is hashed only when set, so older hashes stand", "[variants][draft]") {
    Settings st;
    st.players = 2;
    st.draft = DraftMode::Fixed;
    st.powers = {P::Apollo, P::Artemis};
    st.start_player = 0;
    st.seed = 7;
    State s = *new_game(st);
    // The hash of this game without the handicap (Setup::hero_seat = -1 adds nothing to it, so
    // it is the hash the code gave before the variant existed).
    CHECK(state_hash(s) == "7772401b34240b98");
    State h = s;
    h.setup.hero_seat = 0;
    State k = s;
    k.setup.hero_seat = 1;
    CHECK(state_hash(h) != state_hash(s));
    CHECK(state_hash(h) != state_hash(k));
}
