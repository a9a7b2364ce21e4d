// Morpheus, God of Dreams. Start of Your Turn: place a block or dome on your God Power card.
// Your Build: your worker cannot build as normal; instead it may build any number of times
// (even zero) using the pieces on the card. Rulings (RULES.md, docs/rulings.md C6-C8): a piece
// becomes a block or a dome as the space needs; the worker that moved builds; notation's
// `counter=` is the pieces on the card before this turn's one.

#include "engine/santorini/perft.hpp"
#include "scenario.hpp"

using namespace santorini;

TEST_CASE("Morpheus' first turn: one piece, or none, right after moving", "[morpheus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Morpheus,-");
    play(s, {"move B2 B3"});
    CHECK(sorted(legal_texts(s)) ==
          sorted({"build B3 A2", "build B3 A3", "build B3 A4", "build B3 B2", "build B3 B4",
                  "build B3 C2", "build B3 C3", "build B3 C4", "pass"}));
    CHECK_FALSE(legal(s, "build D4 D5"));  // only the worker that moved builds
    play(s, {"build B3 C3"});
    CHECK(decider(s) == 1);  // the card is empty: the turn ends
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:B3,D4 B:A5,E1 B powers=Morpheus,-");
}

TEST_CASE("Morpheus may build zero times; the piece stays on his card for later turns",
          "[morpheus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Morpheus,-");
    play(s, {"move B2 B3", "pass"});
    CHECK(to_notation(s) ==
          "00000/00000/00000/00000/00000 A:B3,D4 B:A5,E1 B powers=Morpheus,- counter=1,0");
    play(s, {"move A5 A4", "build A4 A5"});
    // Two pieces now: the stored one and this turn's.
    play(s, {"move B3 C3", "build C3 C4"});
    CHECK(legal(s, "pass"));
    play(s, {"build C3 C4"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "10000/00200/00000/00000/00000 A:C3,D4 B:A4,E1 B powers=Morpheus,-");
}

TEST_CASE("Morpheus spends stored pieces on one space, up to what the card holds", "[morpheus]") {
    State s =
        position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Morpheus,- counter=2,0");
    play(s, {"move B2 B3", "build B3 C3", "build B3 C3"});
    CHECK(legal(s, "pass"));
    play(s, {"build B3 C3"});
    CHECK(decider(s) == 1);
    CHECK(s.board.height(make_square(2, 2)) == 3);
    CHECK(s.card(0).counter == 0);
}

TEST_CASE("Morpheus: a stored piece is a dome on level 3, never a dome lower down", "[morpheus]") {
    State s =
        position("00000/00000/00300/00000/00000 A:B2,D4 B:A5,E1 A powers=Morpheus,- counter=3,0");
    play(s, {"move B2 B3"});
    CHECK(legal(s, "dome B3 C3"));
    CHECK_FALSE(legal(s, "build B3 C3"));
    CHECK_FALSE(legal(s, "dome B3 C4"));
    play(s, {"dome B3 C3", "pass"});
    CHECK(s.card(0).counter == 3);  // four pieces this turn, one spent
    CHECK(s.board.complete_towers() == 1);
}

TEST_CASE(
    "Morpheus' opponent builds normally, and the card fills only on his own turns (3 players)",
    "[morpheus][3p]") {
    State s =
        position("00000/00000/00000/00000/00000 A:A1,A5 B:C3,E1 C:E5,E3 B powers=-,Morpheus,-");
    play(s, {"move C3 C4", "pass"});
    CHECK(s.card(1).counter == 1);
    play(s, {"move E5 D5", "build D5 E5"});
    CHECK(s.card(1).counter == 1);
    play(s, {"move A1 B1", "build B1 C1"});
    CHECK(s.card(1).counter == 1);
    CHECK(decider(s) == 1);
    play(s, {"move C4 C3", "build C3 C4", "pass"});
    CHECK(s.card(1).counter == 1);
}

TEST_CASE("Morpheus with an empty card: perft counts every move once more (the zero build)",
          "[morpheus][perft]") {
    const char* board = "00000/01200/00100/00000/00000 A:B2,D4 B:A5,E1 A";
    State plain = position(board);
    State morpheus = position((std::string(board) + " powers=Morpheus,-").c_str());
    StepList moves;
    legal_steps(plain, moves);
    CHECK(count_full_turns(morpheus) ==
          count_full_turns(plain) + static_cast<std::uint64_t>(moves.size()));
    CHECK(perft(morpheus, 2) == perft_by_steps(morpheus, 2));
}
