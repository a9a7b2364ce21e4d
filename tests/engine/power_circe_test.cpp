// Circe, Divine Enchantress. Start of Your Turn: if an opponent's workers do not neighbor each
// other, you alone have use of their power until your next turn. Rulings (RULES.md,
// docs/rulings.md C14-C18). Notation: `holder=A,A` says who uses each seat's card.

#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/view.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Circe takes the power of an opponent whose workers are apart, and uses it at once",
          "[circe]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Artemis");
    CHECK(to_notation(s) ==
          "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Artemis holder=A,A");
    play(s, {"move D4 D3"});
    CHECK(legal(s, "move D3 D2"));  // Artemis' second move, hers this turn
    play(s, {"move D3 D2", "build D2 D1"});
    // The owner has no power until Circe's next turn starts.
    play(s, {"move A3 A4"});
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("build A4 "));
    play(s, {"build A4 B4"});
    // Now the owner's workers neighbour each other: Circe gives the power back.
    CHECK(to_notation(s) == "00000/01000/00000/00000/00010 A:B2,D2 B:A5,A4 A powers=Circe,Artemis");
    play(s, {"move D2 D3"});
    CHECK_FALSE(legal(s, "move D3 D4"));
    play(s, {"build D3 D4"});
    play(s, {"move A4 A3"});
    CHECK(legal(s, "move A3 A2"));  // Artemis is the owner's again
}

TEST_CASE("Circe takes nothing from an opponent whose workers neighbour each other", "[circe]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,A4 A powers=Circe,Artemis");
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A4 A powers=Circe,Artemis");
    play(s, {"move D4 D3"});
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("build D3 "));
    play(s, {"build D3 D4", "move A4 B3"});
    CHECK(legal(s, "move B3 C3"));
}

TEST_CASE("Circe with a stolen card: its state stays on the card (Morpheus' pieces)",
          "[circe][morpheus]") {
    State s = position(
        "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Morpheus counter=0,2");
    play(s, {"move B2 B3"});
    CHECK(legal(s, "pass"));  // Morpheus' zero builds: hers now
    play(s, {"build B3 C3", "build B3 C3", "build B3 C3"});
    CHECK(decider(s) == 1);  // three pieces: two stored, this turn's
    CHECK(s.card(1).counter == 0);
    CHECK(s.card(0).counter == 0);
    // Its owner builds as normal meanwhile: one build, no zero build.
    play(s, {"move A5 B5"});
    CHECK_FALSE(legal(s, "pass"));
    play(s, {"build B5 C5"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Circe holding Chronus wins with the fifth Complete Tower; her opponent then does not",
          "[circe][chronus]") {
    State s = position("3D3D3D3D0/00000/00000/00000/00300 A:C2,E5 B:A3,A1 A powers=Circe,Chronus");
    play(s, {"move C2 B2", "dome B2 C1"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    // With the owner's workers together, Chronus stays his: Circe's dome makes him win.
    State t = position("3D3D3D3D0/00000/00000/00000/00300 A:C2,E5 B:A2,A1 A powers=Circe,Chronus");
    play(t, {"move C2 B2", "dome B2 C1"});
    REQUIRE(t.over());
    CHECK(t.winners == 0b10);
}

TEST_CASE("Circe never takes a hero", "[circe]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Achilles");
    CHECK(s.holder[1] == 1);
    CHECK(to_notation(s) ==
          "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Achilles");
}

TEST_CASE("Circe holding Dionysus takes his additional turn; she keeps the card through it",
          "[circe][dionysus]") {
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,A3 A powers=Circe,Dionysus");
    play(s, {"move B2 B1", "dome B1 C2"});
    CHECK(decider(s) == 0);
    CHECK(s.turn.flags & turn_flag::extra_turn);
    CHECK(s.card(1).counter == 1);           // the turn owed sits on Dionysus' card
    play(s, {"move A3 A4", "build A4 B4"});  // his workers now neighbour each other
    CHECK(decider(s) == 1);
    CHECK(s.holder[1] == 0);  // hers until her next turn starts
    play(s, {"move A4 A3", "build A3 A4"});
    CHECK(decider(s) == 0);
    CHECK(s.holder[1] == 0);  // apart again: she keeps it
    CHECK(to_notation(s) ==
          "00000/11000/00000/003D00/00000 A:B1,E5 B:A5,A3 A powers=Circe,Dionysus holder=A,A");
}

TEST_CASE("Circe: holder= reads back, and is for 2 players only", "[circe]") {
    auto bad = parse_notation(
        "00000/00000/00000/00000/00000 A:B2,D4 B:A5,A3 A powers=Circe,Pan holder=A,C");
    CHECK_FALSE(bad.ok());
    Settings st;
    st.players = 3;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Circe, PowerId::Apollo, PowerId::Pan};
    REQUIRE(validate(st).has_value());
    CHECK(*validate(st) == "Circe cannot be played with 3 players");
}

TEST_CASE("Circe returns Athena's card: a move up from before the theft binds nobody",
          "[circe][athena]") {
    // Athena (B) moves up; Circe takes her card, does not move up, and gives it back two turns
    // later. Athena's last turn was played without her card: Circe is not bound.
    State s = position("01000/00000/00000/00001/00000 A:A1,E1 B:B4,D4 B powers=Circe,Athena");
    play(s, {"move B4 B5", "build B5 A5"});
    CHECK(s.holder[1] == 0);  // B5 and D4 apart: Circe takes the card
    play(s, {"move A1 A2", "build A2 A3"});
    play(s, {"move D4 C4", "build C4 D4"});  // B's workers together again
    REQUIRE(s.holder[1] == 1);               // the card is back with its owner
    CHECK(legal(s, "move E1 E2"));
}

TEST_CASE("Circe with Athena's card: her move up binds Athena, and only while Circe holds it",
          "[circe][athena]") {
    State s = position("01010/00000/00000/10001/00000 A:A1,E1 B:B4,D4 B powers=Circe,Athena");
    play(s, {"move B4 B5", "build B5 A5"});
    play(s, {"move E1 E2", "build E2 E3"});  // Circe moves up, using Athena's card
    // The card remembers it, and whose turn it was (memory 2: the player after its owner).
    CHECK(to_notation(s) ==
          "11010/00000/00001/10001/00000 A:A1,E2 B:B5,D4 B powers=Circe,Athena memory=0,2 "
          "holder=A,A");
    CHECK_FALSE(legal(s, "move D4 D5"));
    play(s, {"move D4 C4", "build C4 D4"});
    REQUIRE(s.holder[1] == 1);
    CHECK(legal(s, "move A1 A2"));  // Circe's own move binds nobody once the card is back
    play(s, {"move A1 A2", "build A2 A1"});
    // Circe's turn without the card: nothing of hers is remembered any more.
    CHECK(s.card(1).memory == 0);
    CHECK(legal(s, "move B5 A5"));
}

TEST_CASE("Circe holding Tartarus' card: the Abyss stays his secret, and still swallows her",
          "[circe][tartarus][view]") {
    // Ruling C27: the secret belongs to the card's owner (behind his Shield); the thief uses
    // the power, whose only effect is the loss, without seeing the Abyss (C3 here).
    const char* fen = "00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Circe,Tartarus data=0,d";
    State s = position(fen);
    REQUIRE(s.holder[1] == 0);  // B's workers are apart: Circe took the card
    CHECK(powers::abyss(view_for(s, 0), 1) == no_square);
    CHECK(powers::abyss(view_for(s, spectator), 1) == no_square);
    CHECK(powers::abyss(view_for(s, 1), 1) == 12);
    // Her legal steps are made on her view, so they are those of a board without the Abyss.
    CHECK(legal_texts(s) ==
          legal_texts(position("00000/00000/00000/00000/00000 A:B2,E5 B:A5,E1 A powers=Circe,Tartarus")));
    // "Any player's Worker": her own worker entering it loses, the card in her hands or not.
    play(s, {"move B2 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b10);
}

TEST_CASE("Circe holding Moerae's card: the Fate stays Moerae's secret, and wins for Circe",
          "[circe][moerae][view]") {
    // Ruling C27: Moerae's three workers are apart, so Circe uses the card until her next turn;
    // "you win instead" is then Circe, and Moerae's own climb into her Fate (B2-C3, data 18c0)
    // wins for Circe. The Fate stays hidden from Circe, who never decides by it.
    const char* fen =
        "00000/00000/00320/00000/00000 A:A1,E5 B:D3,A5,E1 A powers=Circe,Moerae data=0,18c0";
    State s = position(fen);
    REQUIRE(s.holder[1] == 0);
    CHECK(powers::fate(view_for(s, 0), 1) == 0);
    CHECK(powers::fate(view_for(s, 1), 1) == 0x18c0);
    play(s, {"move A1 A2", "build A2 A1", "move D3 C3"});
    REQUIRE(s.over());
    CHECK(s.winners == 0b01);
    // Without the theft (workers next to each other) the same climb wins for Moerae herself.
    State kept = position(
        "00000/00000/00320/00000/00000 A:A1,E5 B:D3,D2,E1 A powers=Circe,Moerae data=0,18c0");
    REQUIRE(kept.holder[1] == 1);
    play(kept, {"move A1 A2", "build A2 A1", "move D3 C3"});
    REQUIRE(kept.over());
    CHECK(kept.winners == 0b10);
}

TEST_CASE("Circe holding Selene's card has no female worker to dome with; Selene has none meanwhile "
          "(ruling C28)",
          "[circe]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5f,E1 A powers=Circe,Selene");
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:B2,D4 B:A5f,E1 A powers=Circe,Selene holder=A,A");
    play(s, {"move D4 D3"});
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("build D3 "));  // no dome at any level
    play(s, {"build D3 D2"});
    play(s, {"move E1 E2"});
    for (const auto& t : legal_texts(s)) CHECK(t.starts_with("build E2 "));  // her female domes nothing
}
