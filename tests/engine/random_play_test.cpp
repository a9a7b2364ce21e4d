// Random games through the whole engine (random_play.hpp: the checks after every step, the
// end, the replay and the notation at each turn start): setup and draft as steps, no powers,
// the Golden Fleece with each eligible power, 2, 3 and 4 players with random and offered
// powers. The sweeps over matchups (every pair of powers, a sample of 3- and 4-player tables)
// are in random_sweep_test.cpp.
//
// These groups play 7,200 games: about 10 s of CPU in a release build, minutes in a Debug build
// with AddressSanitizer (the engine's legal_steps dominates, and debug apply_step checks legality
// again). SANTORINI_RANDOM_GAMES_PERCENT=10 plays a tenth of every group (for a job that must stay
// short; the sanitizer tree's ctest sets it); unset, every group plays in full.

#include "random_play.hpp"

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <random>

using namespace santorini;
using namespace random_play;

TEST_CASE("random games without powers stay consistent, end and replay", "[random][base]") {
    std::mt19937_64 rng(1);
    Outcome o;
    for (int g = 0; g < games(2000); ++g) play_game(base(rng, 2, DraftMode::None), rng, o);
    report(o, "2p without powers");
}

TEST_CASE("random games with the Golden Fleece and each eligible power", "[random][fleece]") {
    std::mt19937_64 rng(3);
    auto eligible = eligible_powers(2, true);
    REQUIRE(!eligible.empty());
    int per_power = games(std::max(20, 900 / static_cast<int>(eligible.size())));
    Outcome o;
    for (auto p : eligible)
        for (int g = 0; g < per_power; ++g) {
            Settings st = base(rng, 2, DraftMode::Fixed);
            st.golden_fleece = true;
            st.powers = {p};
            play_game(st, rng, o);
        }
    for (int g = 0; g < games(100); ++g) {  // the fleece power chosen by the challenger
        Settings st = base(rng, 2, DraftMode::FullOffer);
        st.golden_fleece = true;
        play_game(st, rng, o);
    }
    report(o, "Golden Fleece");
}

TEST_CASE("random 3 and 4 player games with random powers", "[random][players]") {
    std::mt19937_64 rng(4);
    Outcome o;
    for (int players : {3, 4})
        for (int g = 0; g < games(1200); ++g)
            play_game(base(rng, players, DraftMode::Random), rng, o);
    report(o, "3p/4p random draft");
}

TEST_CASE("random games with the offer drafts played through steps", "[random][draft]") {
    std::mt19937_64 rng(5);
    Outcome o;
    for (int players : {2, 3, 4})
        for (DraftMode mode : {DraftMode::FullOffer, DraftMode::SubsetOffer})
            for (int g = 0; g < games(300); ++g) play_game(base(rng, players, mode), rng, o);
    report(o, "offer drafts");
}
