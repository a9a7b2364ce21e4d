// Harpies, Winged Menaces. Opponent's Turn: each time an opponent's Worker moves, it is forced
// space by space in the same direction until the next space is at a higher level or it is
// obstructed. RULES.md: the win check happens before the slide. Ruling W5 (docs/rulings.md).

#include "scenario.hpp"

using namespace santorini;

namespace {
Square sq(const char* name) { return *parse_square(name); }
}  // namespace

TEST_CASE("Harpies: an opponent's moved worker slides to the edge, then builds from there", "[harpies]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,E1 B:C2,E5 B powers=Harpies,-");
    play(s, {"move C2 C3"});  // slides north: C4, C5
    CHECK(s.worker(s.worker_at(sq("C5"))).side == 1);
    play(s, {"build C5 C4"});
    CHECK(to_notation(s) == "00000/00100/00000/00000/00000 A:A1,E1 B:C5,E5 A powers=Harpies,-");
}

TEST_CASE("Harpies: the slide stops before a higher space, a worker, a dome or the Ram; down is fine", "[harpies]") {
    // B moves B1 to C2 (north-east): D3 is ground, then E4 is level 1: stops on D3.
    State up = position("00000/00001/00000/00000/00000 A:A5,A4 B:B1,E5 B powers=Harpies,-");
    play(up, {"move B1 C2", "build D3 D2"});
    CHECK(to_notation(up) == "00000/00001/00000/00010/00000 A:A5,A4 B:D3,E5 A powers=Harpies,-");
    // Down: B3 (level 2) to C3 (level 2), then D3 (level 1), E3 (ground): stops at the edge.
    State down = position("00000/00000/22100/00000/00000 A:A5,A4 B:A3,E5 B powers=Harpies,-");
    play(down, {"move A3 B3"});
    CHECK(down.worker_at(sq("E3")) >= 0);
    // A worker (D3) and a dome (C4) obstruct.
    State w = position("00000/000D00/00000/00000/00000 A:D3,A4 B:A3,C2 B powers=Harpies,-");
    play(w, {"move A3 B3"});
    CHECK(w.worker_at(sq("C3")) >= 0);
    State d = position("00000/000D00/00000/00000/00000 A:E1,A4 B:A3,C2 B powers=Harpies,-");
    play(d, {"move C2 C3"});
    CHECK(d.worker_at(sq("C3")) >= 0);
}

TEST_CASE("Harpies: a winning move wins before the slide", "[harpies]") {
    // B on B3 (level 2) moves up onto C3 (level 3): wins, although the slide would go on.
    State s = position("00000/00000/02300/00000/00000 A:A5,A4 B:B3,E1 B powers=Harpies,-");
    play(s, {"move B3 C3"});
    CHECK(s.over());
    CHECK(winners(s) == 2u);
}

TEST_CASE("Harpies' own workers do not slide, nor do forced workers (Minotaur's push)", "[harpies][minotaur]") {
    State own = position("00000/00000/00000/00000/00000 A:C2,E5 B:A1,E1 A powers=Harpies,-");
    play(own, {"move C2 C3"});
    CHECK(own.worker_at(sq("C3")) >= 0);
    // Minotaur on C1 pushes the Harpies' worker on C2 to C3: his own worker would slide on
    // north, but the pushed worker stands in front of it, so it stays on C2; the pushed worker
    // is forced and stays on C3.
    State m = position("00000/00000/00000/00000/00000 A:C2,E5 B:C1,A5 B powers=Harpies,Minotaur");
    play(m, {"move C1 C2"});
    CHECK(m.worker_at(sq("C2")) >= 0);
    CHECK(m.worker_at(sq("C3")) >= 0);
    // Apollo swaps with the Harpies' worker on C2: Apollo's worker slides on north from C2,
    // the swapped worker stays on C1.
    State a = position("00000/00000/00000/00000/00000 A:C2,E5 B:C1,A5 B powers=Harpies,Apollo");
    play(a, {"move C1 C2"});
    CHECK(a.worker(a.worker_at(sq("C5"))).side == 1);
    CHECK(a.worker(a.worker_at(sq("C1"))).side == 0);
}

TEST_CASE("Harpies: each move of Artemis slides", "[harpies][artemis]") {
    // B1 to B2 slides north to B3 (dome on B4); then B3 to C3 slides east to E3.
    State s = position("00000/00D000/00000/00000/00000 A:A5,E5 B:B1,A1 B powers=Harpies,Artemis");
    play(s, {"move B1 B2"});
    CHECK(s.worker_at(sq("B3")) >= 0);
    play(s, {"move B3 C3"});
    CHECK(s.worker_at(sq("E3")) >= 0);
    play(s, {"build E3 E2"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Harpies: Urania's move across the edge slides on in its direction, on the board", "[harpies][urania]") {
    // Urania's worker on A3 steps west over the edge to E3, then slides west to D3 (C3 is
    // higher) and builds from there.
    State s = position("00000/00000/00100/00000/00000 A:A5,E5 B:A3,A1 B powers=Harpies,Urania");
    play(s, {"move A3 E3"});
    CHECK(s.worker_at(sq("D3")) >= 0);
    play(s, {"build D3 D2"});
    CHECK(to_notation(s) == "00000/00000/00100/00010/00000 A:A5,E5 B:D3,A1 A powers=Harpies,Urania");
}

TEST_CASE("Harpies cannot be drafted against Hermes or Triton, but may meet Artemis", "[harpies]") {
    Settings st;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Harpies, PowerId::Hermes};
    CHECK(validate(st).has_value());
    st.powers = {PowerId::Harpies, PowerId::Triton};
    CHECK(validate(st).has_value());
    st.powers = {PowerId::Harpies, PowerId::Artemis};
    CHECK_FALSE(validate(st).has_value());
}

TEST_CASE("Harpies and Hades: the slide may take Hades' worker down (forced, not moving)", "[harpies][hades]") {
    // Hades moves from B3 (level 1) to C3 (level 1): the slide takes his worker on east, down to
    // D3 and E3 (ground).
    State s = position("00000/00000/01100/00000/00000 A:A5,A1 B:B3,E5 B powers=Harpies,Hades");
    CHECK(legal(s, "move B3 B2"));  // Hades binds his opponents only
    play(s, {"move B3 C3"});
    CHECK(s.worker_at(sq("E3")) >= 0);
}

TEST_CASE("Harpies and Bia: Bia's removal comes with her move, then her worker slides on", "[harpies][bia]") {
    // Bia moves from A3 to B3 (east): the Harpies' worker on C3 is removed (the next space),
    // then her worker slides east over C3 and D3 to E3.
    State s = position("00000/00000/00000/00000/00000 A:C3,A5 B:A3,A1 B powers=Harpies,Bia");
    play(s, {"move A3 B3"});
    CHECK(s.worker_at(sq("C3")) < 0);
    CHECK(s.worker(s.worker_at(sq("E3"))).side == 1);
}
