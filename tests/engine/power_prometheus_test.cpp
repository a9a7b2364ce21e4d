// Prometheus, Titan Benefactor of Mankind. Your Turn: if your worker does not move up, it may
// build both before and after moving. Ruling (RULES.md): the build before moving is optional;
// if he takes it, the same worker must then move, not up, and build again. A build before
// moving that would leave that worker no legal move is not offered.

#include <algorithm>

#include "scenario.hpp"

using namespace santorini;

namespace {
bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
}  // namespace

TEST_CASE("Prometheus may build before moving; the same worker then moves, not up, and builds", "[prometheus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Prometheus,-");
    CHECK(legal(s, "build D4 D5 first"));  // either worker may build first
    play(s, {"build B2 C3 first"});
    auto texts = legal_texts(s);
    // B2's neighbours but C3 (now level 1, so up): A1 A2 A3 B1 B3 C1 C2.
    CHECK(texts.size() == 7);
    for (const auto& t : texts) CHECK(starts_with(t, "move B2 "));
    CHECK_FALSE(legal(s, "move B2 C3"));
    CHECK_FALSE(legal(s, "move D4 D5"));
    CHECK_FALSE(legal(s, "build B2 C2 first"));
    CHECK_FALSE(legal(s, "build B2 C2"));
    play(s, {"move B2 B3"});
    CHECK_FALSE(legal(s, "build D4 D5"));  // both builds are by the worker that moved
    CHECK_FALSE(legal(s, "move B3 B4"));   // one move only
    play(s, {"build B3 C3"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00200/00000/00000 A:B3,D4 B:A5,E1 B powers=Prometheus,-");
}

TEST_CASE("Prometheus' build before moving is optional; without it he may move up", "[prometheus]") {
    State s = position("00000/00000/00100/00000/00000 A:B2,D4 B:A5,E1 A powers=Prometheus,-");
    CHECK(legal(s, "move B2 C3"));
    play(s, {"move B2 C3"});
    for (const auto& t : legal_texts(s)) CHECK_FALSE(starts_with(t, "move"));
    play(s, {"build C3 C4"});
    CHECK(decider(s) == 1);  // one build after moving, then the turn ends
    CHECK(to_notation(s) == "00000/00100/00100/00000/00000 A:C3,D4 B:A5,E1 B powers=Prometheus,-");
}

TEST_CASE("After building first Prometheus may not move up, but may move down", "[prometheus]") {
    // The worker stands on B2 (1), next to B3 (2), A1 and C2 (0).
    State s = position("00000/00000/02000/01000/00000 A:B2,D4 B:A5,E1 A powers=Prometheus,-");
    CHECK(legal(s, "move B2 B3"));
    play(s, {"build B2 C1 first"});
    CHECK_FALSE(legal(s, "move B2 B3"));
    CHECK(legal(s, "move B2 C2"));
    CHECK(legal(s, "move B2 A1"));
    play(s, {"move B2 A1", "build A1 A2"});
    CHECK(to_notation(s) == "00000/00000/02000/11000/00100 A:A1,D4 B:A5,E1 B powers=Prometheus,-");
}

TEST_CASE("Prometheus is not offered a build before moving that leaves no legal move", "[prometheus]") {
    // A1 (0) has neighbours A2 (1), B1 (1) and B2 (0): a block on B2 would leave only moves up.
    State s = position("00000/00000/00000/10000/01000 A:A1,E5 B:A5,E1 A powers=Prometheus,-");
    CHECK_FALSE(legal(s, "build A1 B2 first"));
    CHECK(legal(s, "build A1 A2 first"));
    CHECK(legal(s, "build A1 B1 first"));
    CHECK(legal(s, "build E5 D5 first"));
    CHECK(legal(s, "move A1 A2"));  // a normal turn may still go up
    play(s, {"build A1 A2 first"});
    CHECK(legal_texts(s) == std::vector<std::string>{"move A1 B2"});
}

TEST_CASE("Prometheus cannot win by moving up after building first", "[prometheus]") {
    const char* fen = "00000/00000/00300/02000/00000 A:B2,E1 B:A5,E5 A powers=Prometheus,-";
    State normal = position(fen);
    play(normal, {"move B2 C3"});
    CHECK(normal.over());
    CHECK(normal.winners == 0b01);
    State first = position(fen);
    play(first, {"build B2 A1 first"});
    CHECK_FALSE(legal(first, "move B2 C3"));
}

TEST_CASE("Prometheus' build before moving may be a dome on level 3", "[prometheus]") {
    State s = position("00000/00000/00300/00000/00000 A:B2,D4 B:A5,E1 A powers=Prometheus,-");
    CHECK_FALSE(legal(s, "build B2 C3 first"));
    play(s, {"dome B2 C3 first", "move B2 B3", "build B3 B4"});
    CHECK(to_notation(s) == "00000/01000/003D00/00000/00000 A:B3,D4 B:A5,E1 B powers=Prometheus,-");
}

TEST_CASE("Prometheus' opponent does not build before moving", "[prometheus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 B powers=Prometheus,-");
    for (const auto& t : legal_texts(s)) CHECK(starts_with(t, "move "));
    play(s, {"move A5 A4", "build A4 A5"});
    CHECK(decider(s) == 0);
}

TEST_CASE("Prometheus loses when he has no legal turn", "[prometheus]") {
    // Building first frees nothing: walled-in workers still cannot move.
    State s = position("0000D0/0000D0D/00000/0D0D000/00D000 A:A1,E5 B:C3,E1 A powers=Prometheus,-");
    CHECK(s.over());
    CHECK(s.winners == 0b10);
}
