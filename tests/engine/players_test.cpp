// 3 and 4 players: turn order, elimination, teams; and the setup order through new_game.
// Rulebook: in 3p a player who loses is removed with workers, tokens and power, and the last one
// left wins. In 4p two teams share two workers each; each player uses only their own power; the
// team's first player places, the team's second player takes the team's first turn; one player
// winning or losing wins or loses for the team.

#include "scenario.hpp"

using namespace santorini;

namespace {
Square sq(const char* name) { return *parse_square(name); }
int side_on(const State& s, const char* name) {
    int w = s.worker_at(sq(name));
    return w < 0 ? -1 : s.worker(w).side;
}
bool side_removed(const State& s, int side) {
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side && s.worker(w).square != no_square) return false;
    return true;
}
bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// Seat B's workers: A1 can escape only to B2 (level 1); E1 is walled in. A block on B2 (from
// C3 -> C2) traps B completely.
constexpr const char* trap_b =
    "00000/00000/00000/0D100D0D/00D00D0 A:C3,D4 B:A1,E1 C:A5,E5 A";
}  // namespace

// ---- 3 players ----

TEST_CASE("3p: turns go A, B, C, then A again", "[players][3p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 C:E5,D5 A");
    CHECK(decider(s) == 0);
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(decider(s) == 1);
    play(s, {"move C1 C2", "build C2 C3"});
    CHECK(decider(s) == 2);
    play(s, {"move E5 E4", "build E4 E3"});
    CHECK(decider(s) == 0);
    CHECK(s.turn.number == 4);
}

TEST_CASE("3p: a seat with no legal turn is eliminated and play goes on with the next seat", "[players][3p]") {
    State s = position(trap_b);
    play(s, {"move C3 C2", "build C2 B2"});
    CHECK_FALSE(s.over());
    CHECK(s.seat(1).out);
    CHECK_FALSE(s.seat(0).out);
    CHECK_FALSE(s.seat(2).out);
    CHECK(side_removed(s, 1));
    CHECK(decider(s) == 2);
    CHECK(to_notation(s) == "00000/00000/00000/0D200D0D/00D00D0 A:C2,D4 B:- C:A5,E5 C out=B");
    // The eliminated seat is skipped from now on.
    play(s, {"move A5 A4", "build A4 A5"});
    CHECK(decider(s) == 0);
    play(s, {"move D4 D5", "build D5 D4"});
    CHECK(decider(s) == 2);
}

TEST_CASE("3p: the last player standing wins", "[players][3p]") {
    // B is already out; A's build traps C.
    State s = position("00000/00000/00000/0D100D0D/00D00D0 A:C3,D4 B:- C:A1,E1 A out=B");
    play(s, {"move C3 C2", "build C2 B2"});
    CHECK(s.over());
    CHECK(s.winners == 0b001);
    CHECK(s.seat(2).out);
    CHECK(decider(s) == -1);
}

TEST_CASE("3p: a win by moving up ends the game for everyone", "[players][3p]") {
    State s = position("00000/00000/00300/02000/00000 A:A5,E5 B:B2,E1 C:A1,C5 B");
    play(s, {"move B2 C3"});
    CHECK(s.over());
    CHECK(s.winners == 0b010);
    CHECK(decider(s) == -1);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("3p: an eliminated player's power leaves the game with them", "[players][3p]") {
    // B holds Athena and moved up last turn: nobody may move up until B's next turn, which
    // never comes because A traps B.
    State s = position(
        "01000/00100/00000/0D100D0D/00D00D0 A:C3,D4 B:A1,E1 C:A5,E5 A powers=-,Athena,- memory=0,1,0");
    CHECK_FALSE(legal(s, "move C3 C4"));
    play(s, {"move C3 C2", "build C2 B2"});
    CHECK(s.seat(1).out);
    CHECK(decider(s) == 2);
    CHECK(legal(s, "move A5 B5"));
}

// ---- 4 players (teams: seats A and C are team A, seats B and D team B) ----

TEST_CASE("4p: seats take turns A, B, C, D", "[players][4p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A players=4");
    play(s, {"move A1 A2", "build A2 A3"});
    CHECK(decider(s) == 1);
    play(s, {"move D5 D4", "build D4 D3"});
    CHECK(decider(s) == 2);
    play(s, {"move B1 C1", "build C1 C2"});
    CHECK(decider(s) == 3);
    play(s, {"move E5 E4", "build E4 E5"});
    CHECK(decider(s) == 0);
}

TEST_CASE("4p: teammates share the team's two workers", "[players][4p]") {
    State s = position("00000/00000/00000/00000/00000 A:A1,B1 B:D5,E5 A players=4");
    CHECK(legal(s, "move A1 A2"));
    CHECK(legal(s, "move B1 B2"));
    CHECK_FALSE(legal(s, "move D5 D4"));
    play(s, {"move A1 A2", "build A2 A3"});
    for (const auto& t : legal_texts(s)) CHECK((starts_with(t, "move D5 ") || starts_with(t, "move E5 ")));
    play(s, {"move D5 D4", "build D4 D3"});
    // Seat C may move the worker seat A moved, or the other one.
    CHECK(legal(s, "move A2 B3"));
    CHECK(legal(s, "move B1 C1"));
    CHECK_FALSE(legal(s, "move D4 C4"));
    play(s, {"move A2 B3", "build B3 A2"});
    // Seat D may move either team B worker.
    CHECK(legal(s, "move D4 C4"));
    CHECK(legal(s, "move E5 E4"));
}

TEST_CASE("4p: each player uses only their own power", "[players][4p]") {
    // Seat A holds Apollo; seat C, A's teammate, holds none.
    State a = position("00000/00000/00000/00000/00000 A:B2,E1 B:C3,A5 A players=4 powers=Apollo,-,-,-");
    CHECK(legal(a, "move B2 C3"));
    play(a, {"move B2 C3", "build C3 D4"});
    CHECK(to_notation(a) == "00000/00010/00000/00000/00000 A:C3,E1 B:B2,A5 B players=4 powers=Apollo,-,-,-");

    State c = position("00000/00000/00000/00000/00000 A:B2,E1 B:C3,A5 C players=4 powers=Apollo,-,-,-");
    CHECK_FALSE(legal(c, "move B2 C3"));
    CHECK(legal(c, "move B2 B3"));
}

TEST_CASE("4p: one player's win is the team's win", "[players][4p]") {
    State c = position("00000/00000/00300/02000/00000 A:B2,E1 B:A5,E5 C players=4");
    play(c, {"move B2 C3"});
    CHECK(c.over());
    CHECK(c.winners == 0b0101);

    State d = position("00000/00000/00300/02000/00000 A:A5,E5 B:B2,E1 D players=4");
    play(d, {"move B2 C3"});
    CHECK(d.over());
    CHECK(d.winners == 0b1010);
}

TEST_CASE("4p: a team with no legal turn loses", "[players][4p]") {
    // Seat C traps team B; seat D, next, has no legal turn.
    State s = position("00000/00000/00000/0D100D0D/00D00D0 A:C3,D4 B:A1,E1 C players=4");
    play(s, {"move C3 C2", "build C2 B2"});
    CHECK(s.over());
    CHECK(s.winners == 0b0101);
    CHECK(s.seat(1).out);
    CHECK(s.seat(3).out);

    // A team walled in from the start loses at once.
    State walled = position("0000D0/0000D0D/00000/0D0D000/00D000 A:C3,E1 B:A1,E5 D players=4");
    CHECK(walled.over());
    CHECK(walled.winners == 0b0101);
}

// ---- setup order through new_game ----

TEST_CASE("4p setup: the start player places for their team, the next seat for the other; the start player's teammate moves first", "[players][4p][setup]") {
    Settings st;
    st.players = 4;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Atlas, PowerId::Demeter, PowerId::Hephaestus, PowerId::Pan};
    st.start_player = 1;
    auto r = new_game(st);
    REQUIRE(r.ok());
    State s = *r;
    CHECK(s.phase == Phase::Place);
    CHECK(decider(s) == 1);
    auto texts = legal_texts(s);
    CHECK(texts.size() == 25);
    for (const auto& t : texts) CHECK(starts_with(t, "place "));
    play(s, {"place A1"});
    CHECK(decider(s) == 1);
    CHECK_FALSE(legal(s, "place A1"));
    play(s, {"place A2"});
    CHECK(side_on(s, "A1") == 1);
    CHECK(side_on(s, "A2") == 1);
    CHECK(decider(s) == 2);  // seat C places team A's workers
    play(s, {"place E5", "place E4"});
    CHECK(side_on(s, "E5") == 0);
    CHECK(side_on(s, "E4") == 0);
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 3);  // seat D, the start player's teammate, takes the first turn
    CHECK(legal(s, "move A1 B1"));
    CHECK_FALSE(legal(s, "move E5 D5"));

    // Wrapping around the table: start player D places, then A; B moves first.
    st.start_player = 3;
    auto r2 = new_game(st);
    REQUIRE(r2.ok());
    State w = *r2;
    CHECK(decider(w) == 3);
    play(w, {"place C3", "place C4"});
    CHECK(side_on(w, "C3") == 1);
    CHECK(decider(w) == 0);
    play(w, {"place A1", "place E5"});
    CHECK(side_on(w, "A1") == 0);
    CHECK(w.phase == Phase::Begin);
    CHECK(decider(w) == 1);
}

TEST_CASE("3p setup: placement from the start player clockwise; the start player moves first", "[players][3p][setup]") {
    Settings st;
    st.players = 3;
    st.draft = DraftMode::Fixed;
    st.powers = {PowerId::Atlas, PowerId::Demeter, PowerId::Pan};
    st.challenger = 1;
    auto r = new_game(st);
    REQUIRE(r.ok());
    State s = *r;
    // No start player given: the challenger names one.
    CHECK(s.phase == Phase::StartPlayer);
    CHECK(decider(s) == 1);
    CHECK(legal(s, "start A"));
    CHECK(legal(s, "start B"));
    CHECK(legal(s, "start C"));
    play(s, {"start C"});
    CHECK(s.phase == Phase::Place);
    CHECK(decider(s) == 2);
    play(s, {"place A1", "place A2"});
    CHECK(side_on(s, "A1") == 2);
    CHECK(decider(s) == 0);
    play(s, {"place C3", "place C4"});
    CHECK(side_on(s, "C3") == 0);
    CHECK(decider(s) == 1);
    play(s, {"place E5", "place E4"});
    CHECK(side_on(s, "E5") == 1);
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 2);
    CHECK(legal(s, "move A1 B1"));
}

TEST_CASE("2p setup without powers: each player places both workers, the start player first", "[players][setup]") {
    Settings st;
    st.players = 2;
    st.start_player = 1;
    auto r = new_game(st);
    REQUIRE(r.ok());
    State s = *r;
    CHECK(s.phase == Phase::Place);
    CHECK(decider(s) == 1);
    play(s, {"place C3", "place C4"});
    CHECK(side_on(s, "C3") == 1);
    CHECK(side_on(s, "C4") == 1);
    CHECK(decider(s) == 0);
    play(s, {"place A1", "place E5"});
    CHECK(side_on(s, "A1") == 0);
    CHECK(side_on(s, "E5") == 0);
    CHECK(s.phase == Phase::Begin);
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/00000/00000 A:A1,E5 B:C3,C4 B");

    // Without a start player the challenger names one.
    Settings named;
    named.players = 2;
    auto r2 = new_game(named);
    REQUIRE(r2.ok());
    State n = *r2;
    CHECK(n.phase == Phase::StartPlayer);
    CHECK(decider(n) == 0);
    play(n, {"start A", "place B2", "place D4"});
    CHECK(decider(n) == 1);
    play(n, {"place B4", "place D2"});
    CHECK(decider(n) == 0);
}

TEST_CASE("3 and 4 players must play with powers", "[players][setup]") {
    for (int players : {3, 4}) {
        Settings st;
        st.players = players;
        st.draft = DraftMode::None;
        CHECK(validate(st).has_value());
        CHECK_FALSE(new_game(st).ok());
    }
}
