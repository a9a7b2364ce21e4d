// Selene, Goddess of the Moon. Setup: place a male and a female worker. Your Build: instead of
// your normal build, your female worker may build a dome at any level regardless of which
// worker moved. Rulings (docs/rulings.md C3-C5). Notation marks the female worker `C3f`.

#include "scenario.hpp"

using namespace santorini;

namespace {
State placement(int players, std::vector<PowerId> powers, bool fleece = false) {
    Settings st;
    st.players = players;
    st.golden_fleece = fleece;
    st.draft = DraftMode::Fixed;
    st.powers = std::move(powers);
    st.start_player = 0;
    auto r = new_game(st);
    REQUIRE(r.ok());
    return *r;
}

int count_with(const std::vector<std::string>& texts, std::string_view part) {
    int n = 0;
    for (const auto& t : texts) n += t.find(part) != std::string::npos;
    return n;
}
}  // namespace

TEST_CASE("Selene places a male and a female worker, in either order", "[selene]") {
    State s = placement(2, {PowerId::Selene, PowerId::Apollo});
    auto first = legal_texts(s);
    CHECK(first.size() == 50);  // every square, as a male or as a female worker
    CHECK(count_with(first, "female") == 25);
    play(s, {"place B2 female"});
    auto second = legal_texts(s);
    CHECK(second.size() == 24);
    CHECK(count_with(second, "female") == 0);
    play(s, {"place D4"});
    // Her opponent places as usual.
    CHECK(count_with(legal_texts(s), "female") == 0);
    play(s, {"place A5", "place E1"});
    CHECK(to_notation(s) ==
          "00000/00000/00000/00000/00000 A:B2f,D4 B:A5,E1 A powers=Selene,Apollo");

    State m = placement(2, {PowerId::Selene, PowerId::Apollo});
    play(m, {"place C3"});
    auto after_male = legal_texts(m);
    CHECK(after_male.size() == 24);
    CHECK(count_with(after_male, "female") == 24);
}

TEST_CASE("Selene's female worker domes at any level after the male worker moved", "[selene]") {
    // Female on C3; C4 ground, D4 level 1, D3 level 2, B4 level 3.
    State s = position("00000/03120/00020/00000/00000 A:A1,C3f B:E5,E1 A powers=Selene,-");
    play(s, {"move A1 A2"});
    auto domes = legal_starting(s, "dome C3");
    CHECK(domes == sorted({"dome C3 B2", "dome C3 C2", "dome C3 D2", "dome C3 B3", "dome C3 D3",
                           "dome C3 B4", "dome C3 C4", "dome C3 D4"}));
    CHECK(legal(s, "build A2 B3"));  // the normal build stays the alternative
    play(s, {"dome C3 D3"});
    CHECK(decider(s) == 1);  // instead of the build: nothing more this turn
    CHECK(to_notation(s) == "00000/03120/0002D0/00000/00000 A:A2,C3f B:E5,E1 B powers=Selene,-");
}

TEST_CASE("Selene's female worker domes after her own move; level 3 is listed once", "[selene]") {
    State s = position("00000/00300/00000/00000/00000 A:C2f,E1 B:A5,E5 A powers=Selene,-");
    play(s, {"move C2 C3"});
    auto texts = legal_texts(s);
    CHECK(std::count(texts.begin(), texts.end(), std::string("dome C3 C4")) == 1);
    CHECK(legal(s, "dome C3 B2"));  // on the ground, by her power
    CHECK(legal(s, "build C3 B2"));
    play(s, {"dome C3 B2"});
    CHECK(s.board.has_dome(make_square(1, 1)));
    CHECK(s.board.height(make_square(1, 1)) == 0);
}

TEST_CASE("Selene: the male worker has no dome at any level, and nothing is built before moving",
          "[selene]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5f B:C3,E1 A powers=Selene,-");
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("move "));
    play(s, {"move A1 B2"});
    CHECK_FALSE(legal(s, "dome B2 C2"));
    CHECK(legal(s, "dome E5 D5"));
    CHECK(legal(s, "build B2 C2"));
}

TEST_CASE("Selene's opponent has no female dome, and without a female worker she has none",
          "[selene]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E5f B:C3,E1 B powers=Selene,-");
    play(s, {"move C3 C4"});
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("build "));
    // A position written without a female marker: her power has no worker to use.
    State plain = position("00000/00000/00000/00000/00000 A:A1,E5 B:C3,E1 A powers=Selene,-");
    play(plain, {"move A1 B2"});
    for (const auto& t : legal_texts(plain)) CHECK(t.starts_with("build B2 "));
}

TEST_CASE("Selene's dome on level 3 by the female worker completes a tower (Chronus)",
          "[selene][chronus]") {
    State s =
        position("3D3D3D3D0/00000/00000/00000/00300 A:A3,D1f B:E3,E1 A powers=Selene,Chronus");
    play(s, {"move A3 A2"});
    CHECK(legal(s, "dome D1 C1"));
    play(s, {"dome D1 C1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Selene in 4 players: her teammate places the team's workers by her Setup text",
          "[selene][4p]") {
    // Seats A (Apollo) and C (Selene) are team A; seat A places for the team.
    State s = placement(4, {PowerId::Apollo, PowerId::Pan, PowerId::Selene, PowerId::Artemis});
    CHECK(decider(s) == 0);
    CHECK(count_with(legal_texts(s), "female") == 25);
    play(s, {"place A1", "place E5 female"});
    CHECK(decider(s) == 1);
    CHECK(count_with(legal_texts(s), "female") == 0);
    play(s, {"place A5", "place E1"});
    // The first turn is seat C's (the start player's teammate): Selene's.
    CHECK(decider(s) == 2);
    play(s, {"move A1 B2"});
    CHECK(legal(s, "dome E5 D4"));
    play(s, {"build B2 C3"});
    // On her teammate's turn (seat A, Apollo) the female worker has no power.
    play(s, {"move A5 A4", "build A4 A3"});
    CHECK(decider(s) == 0);
    play(s, {"move B2 B1"});
    CHECK_FALSE(legal(s, "dome E5 D4"));
}

TEST_CASE(
    "Selene as the Golden Fleece: both players place a male and a female worker; the holder domes",
    "[selene][fleece]") {
    State s = placement(2, {PowerId::Selene}, true);
    CHECK(count_with(legal_texts(s), "female") == 25);
    play(s, {"place A1", "place E5 female"});
    CHECK(decider(s) == 1);
    CHECK(count_with(legal_texts(s), "female") == 23);
    play(s, {"place A5 female", "place E1"});
    play(s, {"token C3"});  // the Ram
    // B moves first (the other player); its female worker on A5 is not next to the Ram.
    CHECK(decider(s) == 1);
    play(s, {"move E1 D2"});
    CHECK_FALSE(legal(s, "dome A5 A4"));
    play(s, {"build D2 D1"});
    // A's male on A1 is not next to C3 either; E5 is not: A has no power.
    play(s, {"move A1 B2"});
    CHECK_FALSE(legal(s, "dome E5 D5"));
    play(s, {"build B2 A1"});
    // B's D2 now touches the Ram: B holds Selene this turn.
    play(s, {"move D2 E2"});
    CHECK(legal(s, "dome A5 A4"));
}
