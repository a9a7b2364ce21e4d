// Confirming turns and what may be taken back (docs/protocol.md, "Taking back a step (undo) and
// confirming turns"; docs/rulings.md U1-). With `confirm=1` (Setup::confirm_turns) every way a
// turn ends by its player's steps stops in Phase::Confirm, where only `end turn` is legal; a win
// never waits. closes_undo says which steps the game's host may let the mover take back.

#include <random>

#include "scenario.hpp"

#include "engine/santorini/undo.hpp"
#include "engine/santorini/view.hpp"

using namespace santorini;

namespace {

const std::vector<std::string> only_end_turn{"end turn"};

// Plays `text` and says whether that step closes the door to undo.
bool plays_closing(State& s, const char* text) {
    INFO("step '" << text << "' in " << to_notation(s));
    auto st = parse_step(s, text);
    REQUIRE(st.has_value());
    const State before = s;
    apply_step(s, *st);
    return closes_undo(before, *st, s);
}

// The state waits for its mover's confirmation: still that turn, only `end turn`.
void check_waits(const State& s, int seat, int number) {
    CHECK(s.phase == Phase::Confirm);
    CHECK(decider(s) == seat);
    CHECK(s.turn.seat == seat);
    CHECK(s.turn.number == number);
    CHECK(legal_texts(s) == only_end_turn);
    CHECK(in_play(s));
}

}  // namespace

TEST_CASE("confirm turns: a plain turn waits after its build; end turn passes it", "[undo][confirm]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=1");
    const int number = s.turn.number;
    CHECK_FALSE(plays_closing(s, "move B2 B3"));
    CHECK_FALSE(plays_closing(s, "build B3 C3"));
    check_waits(s, 0, number);
    CHECK(plays_closing(s, "end turn"));
    CHECK(s.phase == Phase::Begin);
    CHECK(s.turn.seat == 1);
    CHECK(s.turn.number == number + 1);
    CHECK(to_notation(s) == "00000/00000/00100/00000/00000 A:B3,D4 B:B4,D2 B confirm=1");
}

TEST_CASE("without confirm turns the last build passes the turn and closes the door", "[undo][confirm]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
    CHECK_FALSE(plays_closing(s, "move B2 B3"));
    CHECK(plays_closing(s, "build B3 C3"));
    CHECK(s.turn.seat == 1);
    CHECK_FALSE(legal(s, "end turn"));
}

TEST_CASE("confirm turns: optional steps declined with pass, or taken, then wait", "[undo][confirm][demeter][artemis]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,E2 B:D4,A5 A powers=Demeter,- confirm=1");
    play(s, {"move B2 C2", "build C2 C3"});
    CHECK(legal(s, "pass"));
    CHECK_FALSE(legal(s, "end turn"));
    State taken = s;
    CHECK_FALSE(plays_closing(s, "pass"));
    check_waits(s, 0, 1);
    CHECK_FALSE(plays_closing(taken, "build C2 D3"));  // the second build: nothing more to offer
    check_waits(taken, 0, 1);
    play(taken, {"end turn"});
    CHECK(to_notation(taken) == "00000/00000/00110/00000/00000 A:C2,E2 B:D4,A5 B powers=Demeter,- confirm=1");

    State a = position("00000/00000/00000/00000/00000 A:B2,E2 B:D4,A5 A powers=Artemis,- confirm=1");
    play(a, {"move B2 B3"});
    CHECK(legal(a, "move B3 C3"));  // the optional second move
    play(a, {"build B3 C3"});
    check_waits(a, 0, 1);
}

TEST_CASE("confirm turns: Prometheus' build before moving, the move and the build, then wait", "[undo][confirm][prometheus]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:A5,E1 A powers=Prometheus,- confirm=1");
    CHECK_FALSE(plays_closing(s, "build B2 C3 first"));
    CHECK_FALSE(plays_closing(s, "move B2 B3"));
    CHECK_FALSE(plays_closing(s, "build B3 B4"));
    check_waits(s, 0, 1);
    play(s, {"end turn"});
    CHECK(decider(s) == 1);
}

TEST_CASE("confirm turns: Dionysus' additional turn starts on end turn and waits at its own end", "[undo][confirm][dionysus]") {
    State s = position("00000/00000/00000/00300/00000 A:B2,E5 B:A5,E1 A powers=Dionysus,- confirm=1");
    play(s, {"move B2 B1"});
    CHECK_FALSE(plays_closing(s, "dome B1 C2"));  // the tower may still be taken back
    check_waits(s, 0, 1);
    CHECK_FALSE(s.turn.flags & turn_flag::extra_turn);
    CHECK(plays_closing(s, "end turn"));  // the additional turn is a new turn
    CHECK(s.turn.flags & turn_flag::extra_turn);
    CHECK(s.turn.number == 2);
    CHECK(decider(s) == 0);
    CHECK_FALSE(plays_closing(s, "move E1 D1"));
    CHECK_FALSE(plays_closing(s, "build D1 E1"));
    check_waits(s, 0, 2);
    play(s, {"end turn"});
    CHECK(decider(s) == 1);
    CHECK(to_notation(s) == "00000/00000/00000/003D00/00001 A:B1,E5 B:A5,D1 B powers=Dionysus,- confirm=1");
}

TEST_CASE("confirm turns: Gaea's interrupt comes first and closes the door; the mover then confirms", "[undo][confirm][gaea]") {
    State s = position("00030/00110/00000/00000/00000 A:A1,B1 B:C3,E1 B powers=Gaea,- reserve=2,0 confirm=1");
    CHECK_FALSE(plays_closing(s, "move C3 C4"));
    CHECK(plays_closing(s, "dome C4 D5"));  // Gaea, another seat, decides next
    CHECK(decider(s) == 0);
    CHECK(s.phase != Phase::Confirm);
    CHECK(plays_closing(s, "place E4"));  // her decision, out of turn
    check_waits(s, 1, 1);
    play(s, {"end turn"});
    CHECK(decider(s) == 0);
    CHECK(s.turn.seat == 0);
}

TEST_CASE("confirm turns: a win ends the game at once, without waiting", "[undo][confirm]") {
    State s = position("00000/00000/00000/00000/23000 A:A1,E5 B:C3,E1 A confirm=1");
    CHECK(plays_closing(s, "move A1 B1"));
    CHECK(s.over());
    CHECK(winners(s) == 1);
    CHECK(legal_texts(s).empty());
}

TEST_CASE("confirm turns: a seat left without a move loses when its turn starts, after end turn", "[undo][confirm]") {
    // B's workers: A1 (level 2) may only climb to B2 (level 3); E1 is walled in by domes.
    const char* start = "00000/00000/00000/0D300D0D/20D00D0 A:C3,E5 B:A1,E1 A";
    State plain = position(start);
    play(plain, {"move C3 C2", "dome C2 B2"});
    CHECK(plain.over());
    CHECK(winners(plain) == 1);

    State s = position((std::string(start) + " confirm=1").c_str());
    play(s, {"move C3 C2"});
    CHECK_FALSE(plays_closing(s, "dome C2 B2"));
    check_waits(s, 0, 1);
    CHECK_FALSE(s.over());
    CHECK(plays_closing(s, "end turn"));
    CHECK(s.over());
    CHECK(winners(s) == 1);
}

TEST_CASE("confirm turns: a concession while waiting ends the game or passes the turn", "[undo][confirm][concede]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=1");
    play(s, {"move B2 B3", "build B3 C3"});
    State other = s;
    CHECK_FALSE(concede(s, 0).has_value());
    CHECK(s.over());
    CHECK(winners(s) == 2);
    CHECK_FALSE(concede(other, 1).has_value());
    CHECK(winners(other) == 1);
}

TEST_CASE("closes_undo: the draft and placement are never taken back", "[undo]") {
    Settings st;
    st.confirm_turns = true;
    st.start_player = 0;
    auto created = new_game(st);
    REQUIRE(created.ok());
    State s = *created;
    REQUIRE(s.phase == Phase::Place);
    CHECK(s.setup.confirm_turns);
    StepList list;
    legal_steps(s, list);
    const State before = s;
    apply_step(s, list[0]);
    CHECK(closes_undo(before, list[0], s));

    State d = fixed_game({PowerId::Apollo, PowerId::Atlas}, false);
    d.setup.confirm_turns = true;
    legal_steps(d, list);
    const State placing = d;
    apply_step(d, list[0]);
    CHECK(closes_undo(placing, list[0], d));
}

TEST_CASE("closes_undo: a step that drew randomness is never taken back", "[undo][chaos]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=1");
    const State before = s;
    auto st = parse_step(s, "move B2 B3");
    REQUIRE(st);
    apply_step(s, *st);
    CHECK_FALSE(closes_undo(before, *st, s));
    State drawn = s;
    drawn.rng ^= 1;  // as if the step had drawn (no step of a turn draws today: see below)
    CHECK(closes_undo(before, *st, drawn));
}

TEST_CASE("closes_undo: Chaos draws his next god when the turn is confirmed, not before", "[undo][confirm][chaos]") {
    State s = position(
        "00000/00000/00000/00300/00000 A:A5,E5 B:B2,E1 B powers=Chaos,- chaos=Artemis deck=Pan "
        "discards=- confirm=1");
    play(s, {"move B2 B1"});
    const std::uint64_t rng = s.rng;
    CHECK_FALSE(plays_closing(s, "dome B1 C2"));  // the dome is down, Chaos has not drawn yet
    CHECK(s.rng == rng);
    CHECK(s.acting_as[0] == PowerId::Artemis);
    CHECK(plays_closing(s, "end turn"));
    CHECK(s.acting_as[0] == PowerId::Pan);
}

TEST_CASE("closes_undo: a step Hecate's hidden workers cancel, or turn into Apollo's swap", "[undo][hecate]") {
    // B moves onto C3, where Hecate's hidden worker stands: cancelled, the turn is over at once
    // (no confirmation: nothing of it can be taken back).
    State s = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,- confirm=1");
    CHECK(plays_closing(s, "move B2 C3"));
    CHECK(s.turn.seat == 0);
    CHECK(s.phase == Phase::Begin);

    // Apollo's move onto her hidden worker becomes his swap: the turn goes on, but he has learnt
    // where she stood.
    State a = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,Apollo confirm=1");
    CHECK(plays_closing(a, "move B2 C3"));
    CHECK(a.turn.seat == 1);
    CHECK_FALSE(plays_closing(a, "build C3 D3"));
    check_waits(a, 1, 1);

    // A move her workers do not touch stays open; so do her own hidden moves.
    State free = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 B powers=Hecate,- confirm=1");
    CHECK_FALSE(plays_closing(free, "move B2 A2"));
    State her = position("00000/00000/00000/00000/00000 A:C3,E5 B:B2,E1 A powers=Hecate,- confirm=1");
    CHECK_FALSE(plays_closing(her, "move C3 C4"));
    CHECK_FALSE(plays_closing(her, "build C4 D4"));
    check_waits(her, 0, 1);
}

TEST_CASE("step text: undo and end turn", "[undo][notation]") {
    State s = position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=1");
    CHECK(to_text(Step::undo()) == "undo");
    CHECK(to_text(Step::end_turn()) == "end turn");
    CHECK(parse_step(s, "undo") == Step::undo());  // read, never listed: its host decides
    CHECK_FALSE(parse_step(s, "end turn"));        // not before the turn is complete
    play(s, {"move B2 B3", "build B3 C3"});
    CHECK(parse_step(s, "end turn") == Step::end_turn());
    CHECK(parse_step(s, "end  TURN") == Step::end_turn());
    CHECK_FALSE(position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A").setup.confirm_turns);
    CHECK(to_notation(position("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A confirm=0")) ==
          "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A");
}

namespace {

// The same game with and without confirm_turns: every step of the plain game is played on the
// confirming one, which then waits (only `end turn`) exactly when the plain game's turn ended by
// itself, and after its `end turn` is the plain game's state again.
struct Twin {
    int games = 0, confirmations = 0, finished = 0;
    int failures = 0;
    std::vector<std::string> first;
    void fail(const std::string& what) {
        if (++failures <= 5) first.push_back(what);
    }
};

bool same_but_confirm(State a, const State& b) {
    a.setup.confirm_turns = b.setup.confirm_turns;
    return a == b;
}

void play_twins(Settings st, std::mt19937_64& rng, Twin& t) {
    ++t.games;
    st.confirm_turns = false;
    State plain = *new_game(st);
    st.confirm_turns = true;
    State confirming = *new_game(st);
    StepList list, other;
    for (int n = 0; n < 400 && !plain.over(); ++n) {
        legal_steps(plain, list);
        const Step step = list[static_cast<int>(rng() % static_cast<std::uint64_t>(list.size()))];
        apply_step(plain, step);
        if (auto why = try_step(confirming, step)) {
            t.fail("a step of the plain game is refused: " + *why);
            return;
        }
        if (confirming.phase == Phase::Confirm) {
            ++t.confirmations;
            legal_steps(confirming, other);
            if (other.size() != 1 || !(other[0] == Step::end_turn())) t.fail("Confirm lists more than end turn");
            if (plain.turn.number == confirming.turn.number && !plain.over())
                t.fail("waits, but the plain game's turn goes on after " + to_text(step));
            apply_step(confirming, Step::end_turn());
        }
        if (!same_but_confirm(confirming, plain)) {
            t.fail("the games differ after " + to_text(step) + ": " + to_notation(plain));
            return;
        }
    }
    t.finished += plain.over();
}

}  // namespace

TEST_CASE("random games end the same with confirm turns, end turn steps in between", "[undo][confirm][random]") {
    std::mt19937_64 rng(14);
    Twin t;
    auto eligible = eligible_powers(2, false);
    for (int g = 0; g < 400; ++g) {
        Settings st;
        st.draft = DraftMode::Fixed;
        st.start_player = static_cast<int>(rng() % 2);
        st.seed = rng();
        PowerId a = eligible[rng() % eligible.size()], b = eligible[rng() % eligible.size()];
        if (a == b || banned_pair(a, b)) continue;
        st.powers = {a, b};
        play_twins(st, rng, t);
    }
    for (int players : {3, 4})
        for (int g = 0; g < 100; ++g) {
            Settings st;
            st.players = players;
            st.draft = DraftMode::Random;
            st.challenger = static_cast<int>(rng() % static_cast<std::uint64_t>(players));
            st.start_player = 0;
            st.seed = rng();
            play_twins(st, rng, t);
        }
    for (int g = 0; g < 50; ++g) {
        Settings st;
        st.golden_fleece = true;
        st.draft = DraftMode::FullOffer;
        st.seed = rng();
        play_twins(st, rng, t);
    }
    INFO(t.games << " games, " << t.finished << " finished, " << t.confirmations << " confirmations");
    for (const auto& f : t.first) UNSCOPED_INFO(f);
    CHECK(t.failures == 0);
    CHECK(t.finished == t.games);
    CHECK(t.confirmations > t.games * 5);
}
