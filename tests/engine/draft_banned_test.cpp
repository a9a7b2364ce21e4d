// The draft never deals a banned pair, and the Golden Fleece offers only powers with its icon:
// enumerated over all 45 gods (and the heroes) as if every power were implemented
// (detail::new_game/validate with every power allowed), in every draft mode and player count.
#include <catch2/catch_test_macros.hpp>

#include <set>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/turn_flow.hpp"

using namespace santorini;

namespace {

Settings settings(int players, DraftMode draft, bool fleece = false, std::uint64_t seed = 0) {
    Settings s;
    s.players = players;
    s.draft = draft;
    s.golden_fleece = fleece;
    s.start_player = 0;
    s.seed = seed;
    return s;
}

// The powers a finished (or half-finished) draft dealt: each seat's, or the fleece.
std::vector<PowerId> dealt(const State& s) {
    if (s.setup.golden_fleece) return {s.fleece_power};
    std::vector<PowerId> out;
    for (int i = 0; i < s.seat_count; ++i) out.push_back(s.seat(i).power);
    return out;
}

// Checks a set of dealt powers: all there, distinct, no banned pair, playable with `players`,
// and with the fleece bearing its icon.
void check_deal(const std::vector<PowerId>& powers, int players, bool fleece) {
    for (std::size_t i = 0; i < powers.size(); ++i) {
        INFO(power_info(powers[i]).name);
        REQUIRE(powers[i] != PowerId::None);
        CHECK(allowed_with_players(powers[i], players));
        if (fleece) CHECK(power_info(powers[i]).golden_fleece);
        if (players != 2 || fleece) CHECK(power_info(powers[i]).category != PowerCategory::Hero);
        for (std::size_t j = 0; j < i; ++j) {
            INFO("with " << power_info(powers[j]).name);
            CHECK(powers[i] != powers[j]);
            CHECK_FALSE(banned_pair(powers[i], powers[j]));
        }
    }
}

// Plays the offer and the choices by always taking the `pick`-th listed step (mod the list).
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

std::vector<PowerId> gods() {
    std::vector<PowerId> out;
    for (int i = 1; i <= 45; ++i) out.push_back(static_cast<PowerId>(i));
    return out;
}

}  // namespace

TEST_CASE("draft: the rulebook's banned pairs, Nemesis' nine and the simple gods' three", "[draft][banned]") {
    using P = PowerId;
    const std::set<P> nemesis{P::Aphrodite, P::Bia, P::Clio, P::Gaea, P::Graeae,
                              P::Medusa, P::Moerae, P::Terpsichore, P::Theseus};
    for (const auto& info : all_powers()) {
        INFO(info.name);
        CHECK(banned_pair(P::Nemesis, info.id) == (nemesis.count(info.id) == 1));
    }
    CHECK(banned_pair(P::Hermes, P::Harpies));
    CHECK(banned_pair(P::Atlas, P::Gaea));
    CHECK(banned_pair(P::Pan, P::Hades));
    CHECK(banned_pair(P::Selene, P::Gaea));
    CHECK_FALSE(banned_pair(P::Hermes, P::Hades));
    CHECK_FALSE(banned_pair(P::Atlas, P::Graeae));
    int pairs = 0;
    for (auto a : gods())
        for (auto b : gods()) pairs += a < b && banned_pair(a, b);
    CHECK(pairs == 24);  // 25 in the list, Nemesis-Theseus being a hero's
}

TEST_CASE("draft: fixed powers are refused exactly when banned, repeated or for other player counts", "[draft][banned]") {
    for (auto a : gods())
        for (auto b : gods()) {
            INFO(power_info(a).name << " and " << power_info(b).name);
            Settings st = settings(2, DraftMode::Fixed);
            st.powers = {a, b};
            bool ok = a != b && !banned_pair(a, b) && allowed_with_players(a, 2) && allowed_with_players(b, 2);
            CHECK(detail::validate(st, true).has_value() == !ok);
            CHECK(detail::new_game(st, true).ok() == ok);
        }
    // Three players: a banned pair anywhere in the three is refused.
    for (auto a : gods())
        for (auto b : gods()) {
            if (a == b || !allowed_with_players(a, 3) || !allowed_with_players(b, 3)) continue;
            Settings st = settings(3, DraftMode::Fixed);
            PowerId third = PowerId::Apollo;  // banned against nothing
            for (PowerId p : {PowerId::Apollo, PowerId::Artemis, PowerId::Demeter})
                if (p != a && p != b) third = p;
            st.powers = {third, a, b};
            INFO(power_info(a).name << " and " << power_info(b).name);
            CHECK(detail::validate(st, true).has_value() == banned_pair(a, b));
        }
    // The Golden Fleece: one power, with the icon.
    for (auto a : gods()) {
        Settings st = settings(2, DraftMode::Fixed, true);
        st.powers = {a};
        INFO(power_info(a).name);
        CHECK(detail::validate(st, true).has_value() == !power_info(a).golden_fleece);
    }
}

TEST_CASE("draft: the eligible pool with every power allowed, per player count and with the fleece", "[draft][banned]") {
    for (int players : {2, 3, 4})
        for (bool fleece : {false, true}) {
            if (fleece && players != 2) continue;
            auto pool = detail::eligible_powers(players, fleece, true);
            std::set<PowerId> in(pool.begin(), pool.end());
            for (const auto& info : all_powers()) {
                INFO(info.name << ", " << players << " players" << (fleece ? ", fleece" : ""));
                bool expected = allowed_with_players(info.id, players) && (!fleece || info.golden_fleece) &&
                                (info.category != PowerCategory::Hero || (players == 2 && !fleece));
                CHECK((in.count(info.id) == 1) == expected);
            }
        }
}

TEST_CASE("draft: random deals never pair banned powers, any player count, fleece or not", "[draft][banned]") {
    for (int players : {2, 3, 4})
        for (bool fleece : {false, true}) {
            if (fleece && players != 2) continue;
            for (std::uint64_t seed = 1; seed <= 400; ++seed) {
                INFO(players << " players, seed " << seed);
                auto g = detail::new_game(settings(players, DraftMode::Random, fleece, seed), true);
                REQUIRE(g.ok());
                check_deal(dealt(*g), players, fleece);
            }
        }
}

TEST_CASE("draft: a pool of Nemesis and her nine bans plus one power deals Nemesis only with that one", "[draft][banned]") {
    using P = PowerId;
    std::vector<P> pool{P::Nemesis, P::Aphrodite, P::Bia, P::Clio, P::Gaea, P::Graeae,
                        P::Medusa, P::Moerae, P::Terpsichore, P::Theseus, P::Apollo};
    for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        Settings st = settings(2, DraftMode::Random, false, seed);
        st.pool = pool;
        auto g = detail::new_game(st, true);
        REQUIRE(g.ok());
        auto d = dealt(*g);
        check_deal(d, 2, false);
        if (d[0] == P::Nemesis || d[1] == P::Nemesis) CHECK((d[0] == P::Apollo || d[1] == P::Apollo));
    }
    // Without the one other power, Nemesis is never dealt; a pool of only banned pairs is refused.
    Settings st = settings(2, DraftMode::Random);
    st.pool = {P::Nemesis, P::Gaea};
    CHECK(detail::validate(st, true).has_value());
    st.pool = {P::Atlas, P::Gaea};
    CHECK(detail::validate(st, true).has_value());
    st.pool = {P::Hermes, P::Harpies, P::Pan, P::Hades};
    CHECK_FALSE(detail::validate(st, true).has_value());
    for (std::uint64_t seed = 1; seed <= 100; ++seed) {
        st.seed = seed;
        auto g = detail::new_game(st, true);
        REQUIRE(g.ok());
        check_deal(dealt(*g), 2, false);
    }
}

TEST_CASE("draft: every full offer's next listed power is exactly the compatible ones", "[draft][banned]") {
    // Two players, full pool: after the challenger offers a, the second offer lists every
    // eligible power but a and those banned against it.
    auto pool2 = detail::eligible_powers(2, false, true);
    State start = *detail::new_game(settings(2, DraftMode::FullOffer), true);
    for (auto a : pool2) {
        State s = start;
        apply_step(s, Step::offer(a));
        StepList list;
        legal_steps(s, list);
        std::set<PowerId> listed;
        for (const Step& st : list) listed.insert(st.power());
        for (auto b : pool2) {
            INFO(power_info(a).name << " then " << power_info(b).name);
            CHECK((listed.count(b) == 1) == (b != a && !banned_pair(a, b)));
        }
    }
    // Three players: every pair offered first leaves only powers compatible with both.
    auto pool3 = detail::eligible_powers(3, false, true);
    State start3 = *detail::new_game(settings(3, DraftMode::FullOffer), true);
    for (auto a : pool3) {
        State s = start3;
        apply_step(s, Step::offer(a));
        StepList second;
        legal_steps(s, second);
        for (const Step& b : second) {
            CHECK_FALSE(banned_pair(a, b.power()));
            State t = s;
            apply_step(t, b);
            StepList third;
            legal_steps(t, third);
            for (const Step& c : third) {
                INFO(power_info(a).name << ", " << power_info(b.power()).name << ", " << power_info(c.power()).name);
                CHECK_FALSE(banned_pair(a, c.power()));
                CHECK_FALSE(banned_pair(b.power(), c.power()));
                CHECK((c.power() != a && c.power() != b.power()));
            }
        }
    }
    // The Golden Fleece: the one offer lists exactly the powers with the icon.
    State gf = *detail::new_game(settings(2, DraftMode::FullOffer, true), true);
    StepList list;
    legal_steps(gf, list);
    std::set<PowerId> listed;
    for (const Step& st : list) listed.insert(st.power());
    for (const auto& info : all_powers()) {
        INFO(info.name);
        CHECK((listed.count(info.id) == 1) == (info.golden_fleece && info.category != PowerCategory::Hero));
    }
}

TEST_CASE("draft: full and subset offers played to the end never deal a banned pair", "[draft][banned]") {
    for (auto mode : {DraftMode::FullOffer, DraftMode::SubsetOffer})
        for (int players : {2, 3, 4})
            for (bool fleece : {false, true}) {
                if (fleece && players != 2) continue;
                for (std::uint64_t seed = 1; seed <= 150; ++seed) {
                    INFO(players << " players, seed " << seed << (mode == DraftMode::FullOffer ? " full" : " subset"));
                    auto g = detail::new_game(settings(players, mode, fleece, seed), true);
                    REQUIRE(g.ok());
                    State s = draft_by(*g, seed * 7919);
                    check_deal(dealt(s), players, fleece);
                }
            }
    // A subset drawn from a pool rich in banned pairs still leaves a legal offer.
    using P = PowerId;
    for (std::uint64_t seed = 1; seed <= 150; ++seed) {
        Settings st = settings(3, DraftMode::SubsetOffer, false, seed);
        st.pool = {P::Nemesis, P::Bia, P::Clio, P::Gaea, P::Graeae, P::Medusa, P::Moerae, P::Atlas, P::Selene};
        st.subset_size = 4;
        auto g = detail::new_game(st, true);
        INFO((g.ok() ? std::string() : g.error().message));
        REQUIRE(g.ok());
        check_deal(dealt(draft_by(*g, seed)), 3, false);
    }
}
