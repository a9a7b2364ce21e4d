// Siren. Setup: orient the Arrow (the Song) in any of the 8 directions. Your Turn: you may
// choose not to take your normal turn. Instead, force one or more opponent Workers one space in
// the direction of the Siren's Song to unoccupied spaces at any level. Rulings W4, W7
// (docs/rulings.md). The Song is Card::memory = direction + 1 (memory=1 is N).

#include "scenario.hpp"

#include "engine/santorini/powers/card_tokens.hpp"

using namespace santorini;


TEST_CASE("Siren orients the Song after placement", "[siren]") {
    State s = fixed_game({PowerId::Apollo, PowerId::Siren}, false);
    play(s, {"place A1", "place B1", "place D5", "place E5"});
    CHECK(s.phase == Phase::Token);
    CHECK(decider(s) == 1);
    CHECK(legal_texts(s).size() == 8);
    play(s, {"aim SE"});
    CHECK(powers::song(s, 1) == 3);
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 0);
}

TEST_CASE("Siren forces opponent workers one space along the Song instead of her turn", "[siren]") {
    // Song north. B3 goes to B4 (level 2: any level), D4 to D5; E5 is off the board's edge.
    State s = position("00000/02000/00000/00000/00000 A:A1,E1 B:B3,D4 A powers=Siren,- memory=1,0");
    CHECK(legal_starting(s, "force") == sorted({"force B3 B4", "force D4 D5"}));
    CHECK_FALSE(legal(s, "pass"));  // the song cannot be empty
    play(s, {"force B3 B4"});
    CHECK(legal_texts(s) == sorted({"force D4 D5", "pass"}));  // no move, no build, B3 once
    play(s, {"force D4 D5"});  // nothing left to force: the turn ends
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/02000/00000/00000/00000 A:A1,E1 B:B4,D5 B powers=Siren,- memory=1,0");
}

TEST_CASE("Siren may stop after one force, and may take her normal turn instead", "[siren]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:B3,D4 A powers=Siren,- memory=1,0");
    State normal = s;
    play(normal, {"move A1 A2", "build A2 A3"});
    CHECK(decider(normal) == 1);
    play(s, {"force D4 D5", "pass"});
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:A1,E1 B:B3,D5 B powers=Siren,- memory=1,0");
}

TEST_CASE("Siren: a worker forced onto level 3 does not win, and the Song stops at workers and domes", "[siren]") {
    // Song east. C3 to D3 (level 3): no win. B2's east is C2 with a dome; A4's east is B4, a
    // worker.
    State s = position("00000/00000/00030/000D00/00000 A:B4,E1 B:C3,B2 A powers=Siren,- memory=3,0");
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force C3 D3"});
    play(s, {"force C3 D3"});
    CHECK_FALSE(s.over());
    CHECK(decider(s) == 1);
}

TEST_CASE("Siren: forced workers are not moving (Hades: down is fine; Harpies: no slide)", "[siren][hades][harpies]") {
    // Song south. Hades' worker on C3 (level 2) is forced down to C2 (ground).
    State h = position("00000/00000/00200/00000/00000 A:A5,E5 B:C3,E1 A powers=Siren,Hades memory=5,0");
    play(h, {"force C3 C2"});
    CHECK(to_notation(h) == "00000/00000/00200/00000/00000 A:A5,E5 B:C2,E1 B powers=Siren,Hades memory=5,0");
    // 3 players: Siren forces both opponents' workers; C's worker forced on Siren's turn (an
    // opponent's turn for the Harpies) does not slide on to C1.
    State p = position("00000/00000/00000/00000/00000 A:A5,E5 B:A1,E1 C:C4,B3 A powers=Siren,Harpies,- memory=5,0,0");
    CHECK(legal_starting(p, "force") == sorted({"force B3 B2", "force C4 C3"}));
    play(p, {"force C4 C3", "pass"});
    CHECK(to_notation(p) == "00000/00000/00000/00000/00000 A:A5,E5 B:A1,E1 C:C3,B3 B powers=Siren,Harpies,- memory=5,0,0");
}

TEST_CASE("Siren in the Golden Fleece: the Ram's placer orients the Song; the holder sings", "[siren][fleece]") {
    State s = fixed_game({PowerId::Siren}, true);
    play(s, {"place A1", "place B1", "place D4", "place E5", "token B2"});
    CHECK(decider(s) == 0);
    play(s, {"aim S"});
    CHECK(powers::song(s, 0) == 4);
    CHECK(decider(s) == 1);  // B starts, does not hold the fleece: no song
    CHECK(legal_starting(s, "force").empty());
    play(s, {"move D4 C3", "build C3 C4"});  // now B touches the Ram
    CHECK(decider(s) == 0);
    CHECK(legal_starting(s, "force") == sorted({"force C3 C2", "force E5 E4"}));
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(decider(s) == 1);
    CHECK(legal_starting(s, "force") == std::vector<std::string>{"force A2 A1"});  // B holds it now
}

TEST_CASE("Siren walled in may still sing, so she does not lose", "[siren]") {
    // Her workers on A1 and E1 are boxed in by domes; the song (north) still forces B3.
    State s = position("00000/00000/00000/0D0D00D0D/00D00D0 A:A1,E1 B:B3,C5 A powers=Siren,- memory=1,0");
    CHECK_FALSE(s.over());
    CHECK(legal_texts(s) == std::vector<std::string>{"force B3 B4"});
    play(s, {"force B3 B4"});
    CHECK(decider(s) == 1);
    // Without the song (nothing to force) she loses at once.
    State lost = position("00000/00000/00000/0D0D00D0D/00D00D0 A:A1,E1 B:A5,C5 A powers=Siren,- memory=1,0");
    CHECK(lost.over());
}

TEST_CASE("Siren under Persephone: the song moves nothing up, so only when no turn can",
          "[siren][persephone]") {
    // Ruling W10: "if possible, at least one Worker must move up this turn"; the song moves no
    // worker of hers (forced workers do not move), so while a move up is possible (A1 to the
    // block on B1) the song is not offered; with none possible the demand is waived and she may
    // sing.
    State up = position("00000/00000/00000/00000/01000 A:A1,E1 B:B3,D4 A powers=Siren,Persephone memory=1,0");
    CHECK(legal_starting(up, "force").empty());
    CHECK(legal(up, "move A1 B1"));
    State flat = position("00000/00000/00000/00000/00000 A:A1,E1 B:B3,D4 A powers=Siren,Persephone memory=1,0");
    CHECK(legal(flat, "force B3 B4"));
}
