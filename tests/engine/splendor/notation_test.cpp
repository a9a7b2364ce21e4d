// The position notation: whole states written and read back equal, the defaults of a
// hand-written position, malformed text refused with a message, and a fuzz loop (the reader
// never crashes; whatever it accepts is consistent and writes back the same).

#include <random>

#include "scenario.hpp"

// Everything of this file in a namespace of its own: the test executable is a unity build
// (CMakeLists.txt, UNITY), and another file of its batch may have helpers of the same names.
namespace notation_test {

using namespace splendor;

namespace {

void check_round_trip(const State& s) {
    std::string text = to_notation(s);
    INFO(text);
    auto r = parse_notation(text);
    REQUIRE(std::holds_alternative<State>(r));
    CHECK(std::get<State>(r) == s);
    CHECK(to_notation(std::get<State>(r)) == text);
}

void check_refused(const std::string& text) {
    INFO(text);
    auto r = parse_notation(text);
    REQUIRE(std::holds_alternative<std::string>(r));
    CHECK_FALSE(std::get<std::string>(r).empty());
}

}  // namespace

TEST_CASE("notation: new games and states met in play read back equal") {
    StepList list;
    for (int players = 2; players <= 4; ++players) {
        State s = new_state(players, 1, static_cast<std::uint64_t>(players) * 11);
        std::mt19937_64 choose(static_cast<std::uint64_t>(players));
        int n = 0;
        while (true) {
            check_round_trip(s);
            if (decider(s) < 0 || ++n > 400) break;
            legal_steps(s, list);
            apply_step(s, list[choose() % list.size()]);
        }
    }
    State out = new_state(3, 0, 9);
    REQUIRE(concede(out, 2) == std::nullopt);
    check_round_trip(out);
}

TEST_CASE("notation: the defaults of a hand-written position") {
    State s = position(std::string(table3) +
                       " A: tokens=1,0,0,0,0,1 bought=9,23 reserved=47*,12 nobles=- B: out C:");
    CHECK(s.players == 3);
    CHECK(s.start_player == 0);
    CHECK(s.current == 0);
    CHECK(s.phase == Phase::Action);
    CHECK(s.supply == Tokens{4, 5, 5, 5, 5, 4});
    CHECK(s.seat(0).bonuses == Colours{0, 1, 1, 0, 0});
    CHECK(s.seat(0).points == 1);
    CHECK(s.seat(0).cards == 2);
    CHECK(s.seat(0).reserved[0] == Reserved{47, true});
    CHECK(s.seat(0).reserved[1] == Reserved{12, false});
    CHECK(s.seat(1).out);
    // deckN=rest: every card of the level found nowhere else, the lowest id on top.
    CHECK(s.deck_size == std::array<std::int8_t, levels>{40 - 4 - 3, 30 - 4 - 1, 20 - 4});
    CHECK(s.decks[0][static_cast<std::size_t>(s.deck_size[0] - 1)] == 1);
    CHECK(s.rows[0] == std::array<std::int8_t, 4>{0, 8, 16, 24});
}

TEST_CASE("notation: a deck is written top card first") {
    State s = position(std::string(table) + " deck3=71,72 A: B: bought=73,75-77,79-81,83-89");
    CHECK(s.deck_size[2] == 2);
    CHECK(s.decks[2][1] == 71);
    CHECK(s.decks[2][0] == 72);
    CHECK(s.decks[2][2] == -1);
    CHECK(to_notation(s).find(" deck3=71,72 ") != std::string::npos);
}

TEST_CASE("notation: each seat's bought cards are written, runs as ranges") {
    State s = position(std::string(table3) + " A: bought=1-7,9,75 B: bought=17 C:");
    std::string text = to_notation(s);
    INFO(text);
    CHECK(text.find(" A: tokens=0,0,0,0,0,0 bought=1-7,9,75 reserved=- nobles=-") !=
          std::string::npos);
    CHECK(text.find(" B: tokens=0,0,0,0,0,0 bought=17 reserved=-") != std::string::npos);
    CHECK(text.find(" C: tokens=0,0,0,0,0,0 bought=- reserved=-") != std::string::npos);
    CHECK(text.find("bonuses=") == std::string::npos);
    check_round_trip(s);
}

TEST_CASE("notation: the older form (bonuses=, points=, cards=) still reads for one seat") {
    // A state met in play, with seat A's bought= replaced by what the writer used to print.
    State s = new_state(3, 0, 5);
    StepList list;
    std::mt19937_64 choose(8);
    while (s.seat(0).cards < 4 || s.seat(1).cards < 2) {
        REQUIRE(decider(s) >= 0);
        legal_steps(s, list);
        std::size_t pick = choose() % list.size();
        for (std::size_t i = 0; i < list.size(); ++i)
            if (list[i].kind == StepKind::Buy && choose() % 2) pick = i;
        apply_step(s, list[pick]);
    }
    auto old_form = [&](std::string text, int seat) {
        const Player& p = s.seat(seat);
        auto from = text.find(std::string(" ") + char('A' + seat) + ": ");
        auto at = text.find(" bought=", from);
        auto end = text.find(' ', at + 1);
        return text.replace(
            at, end - at,
            " bonuses=" + std::to_string(p.bonuses[0]) + "," + std::to_string(p.bonuses[1]) + "," +
                std::to_string(p.bonuses[2]) + "," + std::to_string(p.bonuses[3]) + "," +
                std::to_string(p.bonuses[4]) + " points=" + std::to_string(p.points) +
                " cards=" + std::to_string(p.cards));
    };
    std::string text = old_form(to_notation(s), 0);
    INFO(text);
    auto r = parse_notation(text);
    REQUIRE(std::holds_alternative<State>(r));
    CHECK(std::get<State>(r) == s);
    // Two seats in the older form with cards: which bought which is not known.
    auto two = parse_notation(old_form(text, 1));
    REQUIRE(std::holds_alternative<std::string>(two));
    CHECK(std::get<std::string>(two).find("which of them bought which card") != std::string::npos);
}

TEST_CASE("notation: malformed or inconsistent text is refused with a message") {
    const std::string t = table;
    check_refused("");
    check_refused(t + " A:");                                                 // one seat
    check_refused(t + " A: B: C: D: E:");                                     // five
    check_refused(t + " B: A:");                                              // order
    check_refused("nobles=0,3,7 row1=0,8,16,24 row2=40,46,52,58 A: B:");      // row3 missing
    check_refused("row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82 A: B:");  // nobles missing
    check_refused(t + " A: tokens=1,2,3 B:");                                 // six counts needed
    check_refused(t + " A: tokens=9,0,0,0,0,0 B:");          // more than the bank holds
    check_refused(t + " A: bought=0 B:");                    // card 0 is face up
    check_refused(t + " A: reserved=8 B:");                  // and so is 8
    check_refused(t + " A: reserved=1,2,3,4 B:");            // four reserved
    check_refused(t + " A: bought=9 bonuses=0,1,0,0,0 B:");  // both forms
    check_refused(t + " A: bonuses=0,1,0,0,0 cards=1 B:");   // no card bought to match
    check_refused(t + " A: nobles=0 B:");                    // noble 0 is on the table
    check_refused(t + " A: bought=9 B: bought=9");           // one card, two seats
    check_refused(t + " phase=later A: B:");
    check_refused(t + " start=C A: B:");
    check_refused(t + " row1=0,8,16 A: B:");
    check_refused(t + " deck1=40 A: B:");    // a level 2 card in deck 1
    check_refused(t + " phase=over A: B:");  // over with no winners
    check_refused(t + " A: colour=1 B:");
    check_refused(t + " A: B: out");                           // out is for 3-4 players
    check_refused(std::string(table3) + " A: out B: C: out");  // one seat left, yet not over
    check_refused(t + " passes=x A: B:");
}

TEST_CASE("notation: fuzzed text never crashes; what is accepted is consistent and reads back") {
    State base = new_state(3, 1, 77);
    StepList list;
    std::mt19937_64 choose(3);
    for (int i = 0; i < 30; ++i) {
        legal_steps(base, list);
        apply_step(base, list[choose() % list.size()]);
    }
    const std::string text = to_notation(base);
    const std::string alphabet = "0123456789,-=*: ABCDrowdecksupplyout";
    int accepted = 0;
    for (int i = 0; i < 3000; ++i) {
        std::string t = text;
        int edits = 1 + static_cast<int>(choose() % 3);
        for (int e = 0; e < edits && !t.empty(); ++e) {
            std::size_t at = choose() % t.size();
            switch (choose() % 3) {
                case 0:
                    t[at] = alphabet[choose() % alphabet.size()];
                    break;
                case 1:
                    t.erase(at, 1 + choose() % 4);
                    break;
                default:
                    t.insert(at, 1, alphabet[choose() % alphabet.size()]);
                    break;
            }
        }
        auto r = parse_notation(t);
        if (auto* s = std::get_if<State>(&r)) {
            ++accepted;
            INFO(t);
            CHECK(check_invariants(*s) == "");
            check_round_trip(*s);
        }
    }
    CHECK(accepted > 0);  // some edits keep a valid state (a digit in a count that stays legal)
}

}  // namespace notation_test
