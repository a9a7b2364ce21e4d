#pragma once
// Position notation, like chess FEN, for positions at the start of a turn:
//
//   <row5>/<row4>/<row3>/<row2>/<row1> A:<sq>,<sq> B:<sq>,<sq> [C:...] <to move> [key=value ...]
//
// Each row lists files A..E; a cell is a height digit 0-3, followed by `D` for a dome. Then
// one field per side with its workers' squares in index order (a side whose workers are all
// gone writes `A:-`; `-` also stands for a worker off the board that a later one of its side
// follows, so indices survive a capture: docs/engine.md 8, G22), then the seat to move as a
// letter. Optional fields, in this order when printed:
//   players=4        a team game: sides A and B are the teams, seats A-D sit A1,B1,A2,B2,
//                    and the seat to move is one of A-D (seat C is team A's second player)
//   powers=Apollo,-  each seat's power card, in seat order (`-` for none)
//   fleece=Hermes    the Golden Fleece power; ram=C3 the Ram's square
//   memory=0,1       what each seat's power remembers (Athena: 1 = moved up last turn)
//   counter=0,2      each seat's power counter
//   out=C            seats that have lost (3 players: eliminated)
//   holder=A,A       who uses each seat's card, if not its owner (Circe holds B's card)
//   reserve=1,0      each side's workers still on its card (Gaea, Jason)
//   extra_turn=1     the turn is an additional one (Dionysus)
//   confirm=1        complete turns wait for an `end turn` step (Setup::confirm_turns)
//   chaos=Pan deck=Apollo,Atlas discards=-   Chaos' face-up god, deck and discards
// A worker's square may end in `f` for Selene's female worker (`A:B2f,D4`).
// Example: `01200/02310/0123D0/21003/0D1000 A:B2,C3 B:D4,E1 A`.

#include <string>
#include <string_view>

#include "engine/santorini/result.hpp"
#include "engine/santorini/state.hpp"

namespace santorini {

/// The notation of a position at the start of a turn (mid-turn details are not written).
std::string to_notation(const State& state);

/// Reads a position; the game goes on from the start of the named seat's turn. A seat to move
/// with no legal turn loses at once, as in play.
Result<State> parse_notation(std::string_view text);

}  // namespace santorini
