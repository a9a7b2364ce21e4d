// Chaos, Primordial Nothingness. Setup: the unused Simple gods make his deck; he draws one face
// up. Any Time: he has the face-up power; after any turn in which a dome is built he discards it
// and draws anew, reshuffling the discards when the deck runs out. Rulings (RULES.md,
// docs/rulings.md C19-C23). Notation: `chaos=` the face-up god, `deck=` and `discards=`.

#include <bit>
#include <set>

#include "engine/santorini/powers/chaos.hpp"
#include "engine/santorini/view.hpp"
#include "scenario.hpp"

using namespace santorini;

namespace {
std::uint64_t bit_of(PowerId p) {
    return std::uint64_t{1} << static_cast<int>(p);
}

State fixed(std::vector<PowerId> powers, std::uint64_t seed, bool fleece = false) {
    Settings st;
    st.players = fleece ? 2 : static_cast<int>(powers.size());
    st.draft = DraftMode::Fixed;
    st.powers = std::move(powers);
    st.golden_fleece = fleece;
    st.start_player = 0;
    st.seed = seed;
    auto r = new_game(st);
    REQUIRE(r.ok());
    return *r;
}
}  // namespace

TEST_CASE("Chaos draws his first god at setup, before placement, from the Simple gods not in play",
          "[chaos]") {
    std::set<PowerId> seen;
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
        State s = fixed({PowerId::Chaos, PowerId::Apollo, PowerId::Pan}, seed);
        REQUIRE(s.phase == Phase::Place);
        PowerId face_up = s.acting_as[0];
        REQUIRE(face_up != PowerId::None);
        CHECK(power_info(face_up).category == PowerCategory::Simple);
        CHECK(face_up != PowerId::Apollo);
        CHECK(face_up != PowerId::Pan);
        // The rest of the Simple gods, but the two in play and the one drawn, make the deck.
        CHECK(std::popcount(powers::chaos_deck(s, 0)) == 7);
        CHECK((powers::chaos_deck(s, 0) &
               (bit_of(PowerId::Apollo) | bit_of(PowerId::Pan) | bit_of(face_up))) == 0);
        CHECK(powers::chaos_discards(s, 0) == 0);
        // The same seed deals the same god.
        CHECK(fixed({PowerId::Chaos, PowerId::Apollo, PowerId::Pan}, seed).acting_as[0] == face_up);
        seen.insert(face_up);
    }
    CHECK(seen.size() >= 4);  // the draw depends on the seed
}

TEST_CASE("Chaos has the power of his face-up god", "[chaos]") {
    State s = position(
        "00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Chaos,- chaos=Artemis deck=Pan "
        "discards=-");
    play(s, {"move B2 B3"});
    CHECK(legal(s, "move B3 B4"));
    State m = position(
        "00000/00000/00000/00000/00000 A:B2,D4 B:C2,A4 A powers=Chaos,- chaos=Minotaur deck=Pan "
        "discards=-");
    CHECK(legal(m, "move B2 C2"));  // the push to D2
    CHECK_FALSE(legal(position("00000/00000/00000/00000/00000 A:B2,D4 B:C2,A4 A powers=Chaos,- "
                               "chaos=Pan deck=Minotaur discards=-"),
                      "move B2 C2"));
    State p = position(
        "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A4 A powers=Chaos,- chaos=Prometheus deck=Pan "
        "discards=-");
    CHECK(legal(p, "build B2 C2 first"));
}

TEST_CASE("Chaos changes god after any turn with a dome, his opponent's too", "[chaos]") {
    State s = position(
        "00000/00000/00000/00300/00000 A:A5,E5 B:B2,E1 B powers=Chaos,- chaos=Artemis deck=Pan "
        "discards=-");
    play(s, {"move B2 B1", "dome B1 C2"});
    CHECK(to_notation(s) ==
          "00000/00000/00000/003D00/00000 A:A5,E5 B:B1,E1 A powers=Chaos,- chaos=Pan deck=- "
          "discards=Artemis");
}

TEST_CASE("Chaos keeps his god after a turn without a dome", "[chaos]") {
    State s = position(
        "00000/00000/00000/00000/00000 A:A5,E5 B:B2,E1 B powers=Chaos,- chaos=Artemis deck=Pan "
        "discards=-");
    play(s, {"move B2 B1", "build B1 C2"});
    CHECK(to_notation(s) ==
          "00000/00000/00000/00100/00000 A:A5,E5 B:B1,E1 A powers=Chaos,- chaos=Artemis deck=Pan "
          "discards=-");
}

TEST_CASE("Chaos reshuffles the discards when the deck is empty; the discarded god may come back",
          "[chaos]") {
    State s = position(
        "00000/00000/00000/00300/00000 A:A5,E5 B:B2,E1 B powers=Chaos,- chaos=Artemis deck=- "
        "discards=Pan");
    play(s, {"move B2 B1", "dome B1 C2"});
    PowerId now = s.acting_as[0];
    CHECK((now == PowerId::Artemis || now == PowerId::Pan));
    CHECK(powers::chaos_discards(s, 0) == 0);
    CHECK((powers::chaos_deck(s, 0) | bit_of(now)) ==
          (bit_of(PowerId::Artemis) | bit_of(PowerId::Pan)));
    CHECK(std::popcount(powers::chaos_deck(s, 0)) == 1);
}

TEST_CASE("Chaos: his own dome changes his god when his turn ends, and a new god remembers nothing",
          "[chaos][athena]") {
    // As Athena he moves up and domes: the memory of the move goes with Athena.
    State s = position(
        "00000/00000/00000/01300/00000 A:A1,E5 B:A5,E1 A powers=Chaos,- chaos=Athena deck=Pan "
        "discards=-");
    play(s, {"move A1 B2", "dome B2 C2"});
    CHECK(s.acting_as[0] == PowerId::Pan);
    CHECK(s.card(0).memory == 0);
    CHECK(legal(s, "move A5 B4"));
}

TEST_CASE("Chaos' deck leaves out gods banned against a power in play; old strings still read",
          "[chaos]") {
    // Gaea is banned against Atlas: Atlas is never in the deck.
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Chaos,Gaea");
    std::uint64_t all = powers::chaos_deck(s, 0) | bit_of(s.acting_as[0]);
    CHECK(std::popcount(all) == 9);
    CHECK((all & bit_of(PowerId::Atlas)) == 0);
    // Reading back what it wrote gives the same position.
    std::string text = to_notation(s);
    CHECK(text.find(" chaos=") != std::string::npos);
    CHECK(to_notation(position(text.c_str())) == text);
    CHECK_FALSE(
        parse_notation("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Chaos,- deck=Chaos")
            .ok());
    CHECK_FALSE(
        parse_notation("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Apollo,- chaos=Pan")
            .ok());
}

TEST_CASE("Chaos as the Golden Fleece: his card changes after a dome even when nobody holds it",
          "[chaos][fleece]") {
    State s = position(
        "00000/00000/00000/00300/00000 A:A5,E5 B:B2,E1 B fleece=Chaos ram=C4 chaos=Artemis "
        "deck=Pan discards=-");
    play(s, {"move B2 B1", "dome B1 C2"});
    CHECK(s.acting_as[0] == PowerId::Pan);
    // A fleece game deals the deck too, and views show the face-up god but not the random state.
    State g = fixed({PowerId::Chaos}, 7, true);
    CHECK(g.acting_as[0] != PowerId::None);
    State v = view_for(g, 0);
    CHECK(v.acting_as[0] == g.acting_as[0]);
    CHECK(v.card(0).data == g.card(0).data);
    CHECK(v.rng == 0);
}
