// Confirm turns and the door that closes on undo (docs/protocol.md, "Taking back a step"). With
// confirm_turns every way a turn can end stops in Phase::Confirm, whose one step is EndTurn,
// and only EndTurn hands on (or ends the game: ruling UP1). closes_undo says which steps can no
// longer be taken back: whatever showed a hidden card, the turn passing, the game over (UP2, UP3).

#include "scenario.hpp"
#include "engine/splendor/state_hash.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace confirm_test {

using namespace splendor;

namespace {

const std::vector<std::string> end_turn_only{"end turn"};

// Plays the step written as `text` and says whether it closed the door on undo.
bool closes(State& s, std::string_view text) {
    const State before = s;
    const Step st = step(s, text);
    apply_step(s, st);
    return closes_undo(before, st, s);
}

// Every seat holds three reserves and no card in sight is affordable (end_test.cpp).
constexpr const char* stuck =
    "nobles=0,3,7 row1=3,8,10,13 row2=40,41,44,46 row3=70,72,74,76 "
    "A: tokens=4,4,2,0,0,0 reserved=71*,75*,79* bought=23 "
    "B: tokens=0,0,2,4,4,0 reserved=77*,80*,81*";

}  // namespace

TEST_CASE("confirm: a take waits for end turn; end turn hands on", "[undo]") {
    State s = position(std::string(table) + " confirm=1 A: B:");
    play(s, {"take white blue green"});
    CHECK(s.phase == Phase::Confirm);
    CHECK(decider(s) == 0);
    CHECK(s.turn == 0);  // not completed yet: the clock's increment waits too
    CHECK(legal_texts(s) == end_turn_only);
    CHECK(line(s, "end turn", 1) == "end turn");
    play(s, {"end turn"});
    CHECK(s.phase == Phase::Action);
    CHECK(decider(s) == 1);
    CHECK(s.turn == 1);
    CHECK(check_invariants(s) == "");
}

TEST_CASE("confirm: a take with returns waits after the last return", "[undo]") {
    State s = position(std::string(table) + " confirm=1 A: tokens=3,3,3,0,0,0 B:");
    play(s, {"take green red black", "return black"});
    CHECK(s.phase == Phase::Return);
    play(s, {"return red"});
    CHECK(s.phase == Phase::Confirm);
    CHECK(decider(s) == 0);
    CHECK(legal_texts(s) == end_turn_only);
    play(s, {"end turn"});
    CHECK(decider(s) == 1);
    CHECK(s.seat(0).tokens == Tokens{3, 3, 4, 0, 0, 0});
}

TEST_CASE("confirm: a noble chosen, then the turn waits", "[undo]") {
    State s = position(
        "nobles=0,5,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 confirm=1 "
        "A: tokens=0,0,0,0,2,0 bought=1,2,3,4,9,10,11,17,18,19 B:");
    play(s, {"buy #8"});
    CHECK(s.phase == Phase::Noble);
    play(s, {"noble #5"});
    CHECK(s.phase == Phase::Confirm);
    CHECK(s.seat(0).nobles == 1u << 5);
    CHECK(legal_texts(s) == end_turn_only);
    play(s, {"end turn"});
    CHECK(decider(s) == 1);
    CHECK(s.turn == 1);
}

TEST_CASE("confirm: a buy with a noble visit waits with the noble received", "[undo]") {
    State s = position(std::string(table) +
                       " confirm=1 A: tokens=0,0,0,0,2,0 bought=1,2,3,4,9,10,11 B:");
    CHECK(line(s, "buy #8", 1) == "buy #8 (level 1 blue, 0 points) for black 2; noble #0 visits");
    play(s, {"buy #8 for black 2"});
    CHECK(s.phase == Phase::Confirm);
    CHECK(s.seat(0).nobles == 1u << 0);
    CHECK(s.seat(0).points == 3);
    play(s, {"end turn"});
    CHECK(decider(s) == 1);
}

TEST_CASE("confirm: a pass waits too; a round of passes ends the game only at end turn", "[undo]") {
    State s = position(std::string("confirm=1 ") + stuck);
    play(s, {"pass"});
    CHECK(s.phase == Phase::Confirm);
    CHECK(s.passes == 1);
    play(s, {"end turn", "pass"});
    CHECK(s.phase == Phase::Confirm);  // B may still take the pass back
    CHECK(winners(s) == 0);
    play(s, {"end turn"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 0);
    CHECK(check_invariants(s) == "");
}

TEST_CASE("confirm: the final round's last turn waits; end turn ends the game (ruling UP1)",
          "[undo]") {
    State s = position(std::string(table) +
                       " confirm=1 A: tokens=0,0,2,2,2,0 bought=73,77,45,23 B:");
    play(s, {"buy #40 for green 2 red 2 black 2"});
    CHECK(s.final_round);
    CHECK(s.phase == Phase::Confirm);
    play(s, {"end turn"});
    CHECK(decider(s) == 1);
    play(s, {"take white blue green"});
    CHECK(s.phase == Phase::Confirm);
    CHECK(decider(s) == 1);
    CHECK(winners(s) == 0);
    play(s, {"end turn"});
    CHECK(s.phase == Phase::Over);
    CHECK(winners(s) == 1u << 0);
    StepList none;
    legal_steps(s, none);
    CHECK(none.empty());
}

TEST_CASE("confirm in notation and the state hash: only when set", "[undo]") {
    State on = position(std::string(table) + " confirm=1 A: B:");
    State off = position(std::string(table) + " A: B:");
    CHECK(on.confirm_turns);
    CHECK_FALSE(off.confirm_turns);
    CHECK(to_notation(on).find(" confirm=1") != std::string::npos);
    CHECK(to_notation(off).find("confirm") == std::string::npos);
    play(on, {"take white blue green"});
    const std::string text = to_notation(on);
    CHECK(text.find("phase=confirm") != std::string::npos);
    auto again = parse_notation(text);
    REQUIRE(std::holds_alternative<State>(again));
    CHECK(std::get<State>(again) == on);
    // Phase confirm without the setting is not a state a game can reach.
    CHECK(std::holds_alternative<std::string>(
        parse_notation(std::string(table) + " phase=confirm A: tokens=1,1,1,0,0,0 B:")));
    // The hash of a game without confirm is what it always was (stored hashes stay valid);
    // the setting changes it.
    State fresh = new_state(2, 0, 1);
    CHECK(state_hash(fresh) == "92502cc0a729a350");
    State confirming = fresh;
    confirming.confirm_turns = true;
    CHECK(state_hash(confirming) != state_hash(fresh));
    auto made = new_game({.players = 2, .start_player = 0, .seed = 1, .confirm_turns = true});
    REQUIRE(std::holds_alternative<State>(made));
    CHECK(std::get<State>(made) == confirming);
}

TEST_CASE("closes_undo: take, return, noble and pass stay open; end turn closes", "[undo]") {
    State s = position(std::string(table) + " confirm=1 A: tokens=3,3,3,0,0,0 B:");
    CHECK_FALSE(closes(s, "take green red black"));
    CHECK_FALSE(closes(s, "return black"));
    CHECK_FALSE(closes(s, "return red"));
    CHECK(closes(s, "end turn"));

    State n = position(
        "nobles=0,5,9 row1=0,33,16,24 row2=40,46,52,58 row3=70,74,78,82 confirm=1 "
        "A: tokens=0,0,0,0,2,0 bought=1,2,3,4,9,10,11,17,18,19 reserved=8 B:");
    CHECK_FALSE(closes(n, "buy #8"));  // a face-up reserve bought: no slot, nothing hidden
    CHECK_FALSE(closes(n, "noble #5"));

    State p = position(std::string("confirm=1 ") + stuck);
    CHECK_FALSE(closes(p, "pass"));
    CHECK(closes(p, "end turn"));
}

TEST_CASE("closes_undo: a card seen closes: blind reserve, refilled slot, blind reserve bought",
          "[undo]") {
    const std::string a_b = " confirm=1 A: tokens=0,3,1,1,4,0 reserved=23*,3 B:";
    State blind = position(std::string(table) + a_b);
    CHECK(closes(blind, "reserve level 2"));
    State faceup = position(std::string(table) + " confirm=1 A: B:");
    CHECK(closes(faceup, "reserve #8"));
    State buy_row = position(std::string(table) + " confirm=1 A: tokens=0,3,0,0,0,0 B:");
    CHECK(closes(buy_row, "buy #0"));  // card 0 costs 3 blue; its slot is refilled
    State buy_blind = position(std::string(table) + a_b);
    CHECK(closes(buy_blind, "buy #23"));  // the others see the card now
    State buy_open = position(std::string(table) + a_b);
    CHECK_FALSE(closes(buy_open, "buy #3"));
}

TEST_CASE("closes_undo: a face-up card from a row whose deck is empty shows nothing (ruling UP2)",
          "[undo]") {
    // Every other level 1 card is B's: the level 1 deck is empty.
    const std::string empty_deck =
        std::string(table) + " deck1=- confirm=1 A: tokens=0,3,0,0,0,0 B: bought=1-7,9-15,17-23,25-39";
    State r = position(empty_deck);
    CHECK_FALSE(closes(r, "reserve #8"));
    CHECK(r.rows[0][1] == -1);
    State b = position(empty_deck);
    CHECK_FALSE(closes(b, "buy #0"));
    CHECK(b.rows[0][0] == -1);
}

TEST_CASE("closes_undo: without confirm the turn passing closes; so does the game's end",
          "[undo]") {
    State s = position(std::string(table) + " A: B:");
    CHECK(closes(s, "take white blue green"));  // B decides now
    State r = position(std::string(table) + " A: tokens=3,3,3,0,0,0 B:");
    CHECK_FALSE(closes(r, "take green red black"));  // returns still to come
    CHECK_FALSE(closes(r, "return black"));
    CHECK(closes(r, "return red"));  // the last return ended the turn
    State e = position(std::string(table) + " start=B current=A turn=1"
                       " A: tokens=0,0,2,2,2,0 bought=73,77,45,23 B: tokens=1,1,1,0,0,0");
    CHECK(closes(e, "buy #40"));
    CHECK(e.phase == Phase::Over);
}

}  // namespace confirm_test
