#pragma once
// Text notation for a whole Splendor state (like chess FEN, but nothing is left out: the decks'
// order too), and for steps. One line of space-separated fields; game fields first, then one
// section per seat, opened by its letter (`A:` is seat 0):
//
//   start=A current=B turn=3 phase=action passes=0 final=0 winners=- confirm=1
//   supply=3,4,2,4,4,4 nobles=0,3,7
//   row1=12,3,-,30 row2=... row3=...     face-up slots, `-` empty
//   deck1=5,17 deck2=rest deck3=-        top card first; `rest` = every card of that level
//                                        found nowhere else, lowest id on top; `5,17,...`
//                                        = 5 and 17 on top of the rest; `-` empty
//   A: tokens=1,0,1,0,0,1 bought=16 reserved=47* nobles=- out
//   B: tokens=... bought=1-7,9 reserved=12
//
// Token counts list white, blue, green, red, black, gold. A reserved card taken blind from a
// deck ends in `*`. Id lists may hold ranges (`bought=1-7,9`). A seat gives `bought=`, the ids
// of the cards it bought (its bonuses, card count and card points follow); the writer uses
// ranges for runs and writes every deck in full. The older form `bonuses=`, `points=`
// (nobles' included) and `cards=` instead of `bought=` is still read when at most one seat
// gives it with cards: the cards found nowhere else are that seat's.
// Defaults when a field is left out: start=A, current=start, turn=0, phase=action, passes=0,
// final=1 only if a seat has 15 points, winners=-, supply = the starting bank less every hand,
// deckN=rest, and an empty hand; confirm=0 (1: turns wait for `end turn`; written only when
// set). Parsing refuses any state that breaks check_invariants (game.hpp).
//
// Steps: `take white blue green`, `take red red`, `reserve #12`, `reserve level 2` (the top of
// the level 2 deck), `buy #12 for blue 2 gold 1` or `buy #12 for nothing` (what is paid; `buy
// #12` alone pays the default way), `return red`, `noble #3`, `pass`, `end turn` (phase
// confirm), `undo` (written, never parsed: the engine does not list it).

#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "engine/splendor/state.hpp"
#include "engine/splendor/step.hpp"

namespace splendor {

/// The whole state in notation; parse_notation reads it back to an equal state.
std::string to_notation(const State& state);

/// Reads a state, or says what is wrong with the text.
std::variant<State, std::string> parse_notation(std::string_view text);

/// A step in the notation above (the engine's own short form, not the history line).
std::string to_text(const Step& step);

/// The legal step of the decider that `text` names, if any.
std::optional<Step> parse_step(const State& state, std::string_view text);

}  // namespace splendor
