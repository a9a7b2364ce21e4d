// Position notation: round trips of every field, the issue's example read square by square,
// malformed input refused with a message, and a deterministic fuzz loop (the parser must
// never crash, and whatever it accepts must be a consistent position that prints back).

#include <catch2/catch_test_macros.hpp>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"

using namespace santorini;

namespace {

Square sq(const char* name) { return *parse_square(name); }

State read(const std::string& text) {
    auto r = parse_notation(text);
    INFO(text << (r.ok() ? "" : " -> " + r.error().message));
    REQUIRE(r.ok());
    return *r;
}

void check_round_trip(const std::string& text) {
    INFO(text);
    State s = read(text);
    CHECK(to_notation(s) == text);
    CHECK(check_invariants(s) == "");
    CHECK(to_notation(read(to_notation(s))) == text);
}

void check_refused(const std::string& text) {
    INFO(text);
    auto r = parse_notation(text);
    CHECK_FALSE(r.ok());
    if (!r.ok()) CHECK_FALSE(r.error().message.empty());
}

constexpr const char* issue_example = "01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 A";

}  // namespace

TEST_CASE("notation: the issue's example reads square by square and prints back", "[notation]") {
    State s = read(issue_example);
    CHECK(to_notation(s) == issue_example);
    // Rank 5 first, files A..E; a cell is a height digit, D after it for a dome.
    const int heights[5][5] = {// [rank 1..5][file A..E]
                               {0, 1, 0, 0, 0},
                               {2, 1, 0, 0, 3},
                               {0, 1, 2, 3, 0},
                               {0, 2, 3, 1, 0},
                               {0, 1, 2, 0, 0}};
    for (int r = 0; r < 5; ++r)
        for (int f = 0; f < 5; ++f) {
            INFO(square_name(make_square(f, r)));
            CHECK(s.board.height(make_square(f, r)) == heights[r][f]);
        }
    CHECK(s.board.domes() == (bit(sq("A1")) | bit(sq("D3"))));
    CHECK(s.side_squares(0) == (bit(sq("B2")) | bit(sq("C3"))));
    CHECK(s.side_squares(1) == (bit(sq("D4")) | bit(sq("E1"))));
    CHECK(s.seat_count == 2);
    CHECK(decider(s) == 0);
    CHECK(s.phase == Phase::Begin);
    CHECK(s.seat(0).power == PowerId::None);
    CHECK(s.seat(1).power == PowerId::None);
    // B to move is the same board with the other seat deciding.
    CHECK(decider(read("01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 B")) == 1);
}

TEST_CASE("notation: round trips of every field", "[notation]") {
    check_round_trip(issue_example);
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 B");
    check_round_trip("3D23D12/2D3332D/1332D1/02D231/1D0D002 A:B4,D2 B:C3,E1 A");
    // Powers, and a seat without one.
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Minotaur");
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 B powers=-,Hermes");
    // Memory (Athena moved up last turn) and counters.
    check_round_trip("01000/00000/00000/00000/00000 A:B5,D4 B:B4,D2 B powers=Athena,Pan memory=1,0");
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Demeter,Atlas counter=0,2");
    // Three sides, and a seat that is out.
    check_round_trip("00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 C:E5,D5 B powers=Apollo,Pan,Minotaur");
    check_round_trip("00000/00000/00000/0D200D0D/00D00D0 A:C2,D4 B:- C:A5,E5 C out=B");
    // Four players: two team sides, seats A-D.
    check_round_trip("00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 C players=4");
    check_round_trip("00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 D players=4 powers=Apollo,Artemis,Athena,Atlas");
    // The Golden Fleece power and the Ram.
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 B fleece=Hermes ram=C3");
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A fleece=Prometheus");
}

TEST_CASE("notation: every card field is written and read from the card's one field list", "[notation]") {
    // Card::fields is the list: each field round-trips, per seat, in its own form.
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Pan tokens=C3+E5,-");
    check_round_trip("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Pan data=0,1f");
    check_round_trip(
        "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Pan memory=3,0 counter=0,7 tokens=-,A1 data=ff,0");
    State s = read("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Pan tokens=C3+E5,- data=0,1f");
    CHECK(s.card(0).tokens == (bit(sq("C3")) | bit(sq("E5"))));
    CHECK(s.card(1).tokens == 0);
    CHECK(s.card(1).data == 0x1f);
    // Every field, walked through the list, is written: a card changed in any field prints differently.
    State base = read("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Pan");
    int fields = 0;
    Card::fields(base.card(1), [&](const char* name, auto& field) {
        State changed = base;
        Card::fields(changed.card(1), [&](const char* other, auto& f) {
            if (std::string(other) == name) f = 1;
        });
        INFO(name);
        CHECK(to_notation(changed) != to_notation(base));
        CHECK(to_notation(read(to_notation(changed))) == to_notation(changed));
        (void)field;
        ++fields;
    });
    CHECK(fields == 4);
    check_refused("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A tokens=Z9,-");
    check_refused("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A data=xyz,0");
    check_refused("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A tokens=C3");
}

TEST_CASE("notation: optional fields reach the state", "[notation]") {
    State four = read("00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 C players=4 powers=Apollo,Artemis,Athena,Atlas");
    CHECK(four.seat_count == 4);
    CHECK(four.side_count == 2);
    CHECK(decider(four) == 2);
    CHECK(side_of_seat(four, 2) == 0);  // seat C plays team A
    CHECK(side_of_seat(four, 3) == 1);
    CHECK(four.seat(3).power == PowerId::Atlas);

    State athena = read("01000/00000/00000/00000/00000 A:B5,D4 B:B4,D2 B powers=Athena,Pan memory=1,0");
    CHECK(athena.seat(0).power == PowerId::Athena);
    CHECK(athena.card(0).memory == 1);
    CHECK(athena.card(1).memory == 0);

    State three = read("00000/00000/00000/0D200D0D/00D00D0 A:C2,D4 B:- C:A5,E5 C out=B");
    CHECK(three.seat_count == 3);
    CHECK(three.seat(1).out);
    CHECK(three.side_squares(1) == 0);
    CHECK(decider(three) == 2);

    State fleece = read("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 B fleece=Hermes ram=C3");
    CHECK(fleece.setup.golden_fleece);
    CHECK(fleece.fleece_power == PowerId::Hermes);
    CHECK(fleece.ram == sq("C3"));
    CHECK(fleece.seat(0).power == PowerId::None);
    // Power names are read case-insensitively and printed as their key.
    CHECK(to_notation(read("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=apollo,PAN")) ==
          "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Apollo,Pan");
}

TEST_CASE("notation: malformed positions are refused with a message", "[notation]") {
    const std::string rows = "00000/00000/00000/00000/00000";
    const std::string sides = " A:B2,D4 B:B4,D2 ";
    check_refused("");
    check_refused("garbage");
    check_refused(rows);
    check_refused(rows + " A:B2,D4 B:B4,D2");                      // no seat to move
    check_refused("00000/00000/00000/00000" + sides + "A");        // four rows
    check_refused(rows + "/00000" + sides + "A");                  // six rows
    check_refused("0000X/00000/00000/00000/00000" + sides + "A");  // bad cell
    check_refused("00004/00000/00000/00000/00000" + sides + "A");  // height 4
    check_refused("D0000/00000/00000/00000/00000" + sides + "A");  // dome without a height
    check_refused("000000/00000/00000/00000/00000" + sides + "A"); // six cells
    check_refused("0000/00000/00000/00000/00000" + sides + "A");   // four cells
    check_refused("00000/00000/00000/00000/0D0DD00" + sides + "A");
    check_refused(rows + " A:B2,F4 B:B4,D2 A");                    // bad squares
    check_refused(rows + " A:B0,D4 B:B4,D2 A");
    check_refused(rows + " A:B22,D4 B:B4,D2 A");
    check_refused(rows + " A:B2,,D4 B:B4,D2 A");
    check_refused(rows + " A:B2,D4 B:B2,D2 A");                    // two workers on one square
    check_refused(rows + " A:B2,B2 B:B4,D2 A");
    check_refused("00000/00000/00000/00D000/00000" + sides + "A"); // worker on a dome (B2)
    check_refused(rows + sides + "A powers=Zorro,-");              // unknown power
    check_refused(rows + sides + "A powers=Apollo");               // one power for two seats
    check_refused(rows + sides + "A colour=red");                  // unknown key
    check_refused(rows + sides + "A players");                     // not key=value
    check_refused(rows + sides + "C");                             // seat to move out of range
    check_refused(rows + sides + "a");
    check_refused(rows + sides + "AB");
    check_refused(rows + " A:A1,B1 B:C1,D1 E players=4");
    check_refused(rows + " A:A1,B1 B:C1,D1 C:E5,D5 A players=4");  // teams are two sides
    check_refused(rows + " A:A1,B1 C:C1,D1 A");                    // sides in order
    check_refused(rows + " A:A1 B:B1 C:C1 D:D1 A");                // at most three sides
    check_refused(rows + sides + "A memory=1");                    // one value per seat
    check_refused(rows + sides + "A memory=x,0");
    check_refused(rows + sides + "A out=C");
    check_refused(rows + sides + "A out=A");                       // the seat to move is out
    check_refused(rows + sides + "A ram=B2");                      // the Ram on a worker
    check_refused(rows + sides + "A fleece=Zorro");
    check_refused(rows + sides + "A powers=Apollo,- fleece=Hermes");  // nobody owns a power
}

TEST_CASE("notation: values the state cannot hold are refused, not wrapped", "[notation]") {
    // Memory and counters are bytes: 256 would silently become 0.
    check_refused("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A powers=Athena,Pan memory=256,0");
    check_refused("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A counter=0,259");
}

TEST_CASE("notation: a Ram without the Golden Fleece is refused, not silently dropped", "[notation]") {
    // to_notation writes ram= only with fleece=; a Ram the printout loses would change the game.
    check_refused("00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 A ram=C3");
}

TEST_CASE("notation: an accepted position is consistent (seats out hold no workers)", "[notation]") {
    // A seat marked out while its workers stand on the board contradicts check_invariants.
    auto r = parse_notation("00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 C:E5,D5 A out=B");
    if (r.ok()) {
        CHECK(check_invariants(*r) == "");
    } else {
        SUCCEED("refused: " + r.error().message);
    }
}

TEST_CASE("notation: the parser survives thousands of random and mutated strings", "[notation][fuzz]") {
    const std::vector<std::string> seeds = {
        issue_example,
        "00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 C:E5,D5 B powers=Apollo,Pan,Minotaur",
        "00000/00000/00000/00000/00000 A:A1,B1 B:C1,D1 D players=4 powers=Apollo,Artemis,Hermes,Atlas",
        "01000/00000/00000/00000/00000 A:B5,D4 B:B4,D2 B powers=Athena,Prometheus memory=1,0 counter=2,0",
        "00000/00000/00000/00000/00000 A:B2,D4 B:B4,D2 B fleece=Hermes ram=C3",
        "00000/00000/00000/0D200D0D/00D00D0 A:C2,D4 B:- C:A5,E5 C out=B",
        "3D23D12/2D3332D/1332D1/02D231/1D0D002 A:B4,D2,A2,E3 B:C3,E1,C1,D1 A powers=Hermes,Demeter",
    };
    const char raw_alphabet[] = "0123456789DABCEFxyz/:,=- \t\n\0\xff";
    const std::string alphabet(raw_alphabet, sizeof raw_alphabet - 1);  // with the NUL byte
    const std::string keys[] = {" players=4", " powers=Hermes,Apollo", " memory=1,0", " counter=9,9",
                                " out=B",     " fleece=Pan",           " ram=A1",     " A:-",
                                " C:E5,D5",   " powers=-,-,-",         " players=3",  " B",
                                " D",         "/00000"};
    std::mt19937_64 rng(7);
    auto pick = [&](std::size_t n) { return static_cast<std::size_t>(rng() % n); };
    int accepted = 0, tried = 0;
    for (int i = 0; i < 4000; ++i) {
        std::string text;
        switch (i % 4) {
            case 0:  // random bytes
                for (std::size_t n = pick(80); n > 0; --n) text += static_cast<char>(rng() & 0xff);
                break;
            case 1:  // random characters of the notation's alphabet
                for (std::size_t n = pick(90); n > 0; --n) text += alphabet[pick(alphabet.size())];
                break;
            default: {  // a valid position with a few mutations
                text = seeds[pick(seeds.size())];
                for (std::size_t m = 1 + pick(4); m > 0; --m) {
                    std::size_t at = text.empty() ? 0 : pick(text.size());
                    switch (pick(5)) {
                        case 0: if (!text.empty()) text[at] = alphabet[pick(alphabet.size())]; break;
                        case 1: if (!text.empty()) text.erase(at, 1 + pick(3)); break;
                        case 2: text.insert(at, 1, alphabet[pick(alphabet.size())]); break;
                        case 3: text += keys[pick(std::size(keys))]; break;
                        default: text.insert(at, text.substr(pick(text.size() + 1), pick(12))); break;
                    }
                }
            }
        }
        ++tried;
        auto r = parse_notation(text);
        if (!r.ok()) {
            CHECK_FALSE(r.error().message.empty());
            continue;
        }
        ++accepted;
        INFO("accepted: '" << text << "'");
        CHECK(check_invariants(*r) == "");
        StepList list;
        legal_steps(*r, list);
        CHECK(list.empty() == r->over());
        if (!r->over()) {
            std::string printed = to_notation(*r);
            auto again = parse_notation(printed);
            INFO("printed: '" << printed << "'");
            REQUIRE(again.ok());
            CHECK(to_notation(*again) == printed);
        }
    }
    CHECK(tried == 4000);
    CHECK(accepted > 0);  // the mutations keep some positions valid
}
