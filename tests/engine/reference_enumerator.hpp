#pragma once
// A deliberately simple Santorini turn enumerator, written for the tests only and independently
// of the engine (it includes no engine header): its own tiny board, plain loops over the eight
// directions, two players. The base game, plus five gods that are easy to write from their
// cards alone (Artemis, Demeter, Pan, Atlas, Triton) as plain flags. perft_reference_test
// checks the engine's generator against it; it is slow and obvious on purpose.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace reference {

/// A two-player position at the start of a turn. Files and ranks are 0-based (A1 = [0][0]).
struct Position {
    int heights[5][5] = {};  ///< [file][rank]: blocks, 0..3
    bool dome[5][5] = {};    ///< [file][rank]: a dome on top
    int worker_file[2][2] = {};  ///< [side][worker]
    int worker_rank[2][2] = {};
    int to_move = 0;   ///< side whose turn it is
    int winner = -1;   ///< side that won by moving; -1 while the game goes on
};

/// Which side holds which of the four gods (both false: no power).
struct Gods {
    bool artemis[2] = {false, false};  ///< may move one additional time, not back to the start
    bool demeter[2] = {false, false};  ///< may build one additional time, not on the same space
    bool pan[2] = {false, false};      ///< also wins by moving down two or more levels
    bool atlas[2] = {false, false};    ///< may build a dome at any level
    /// each time the worker moves into a perimeter space it may move again; one way of moving
    /// is one path that never comes back to a state it was in (docs/rulings.md B5)
    bool triton[2] = {false, false};
};

/// Reads `<rows> A:<sq>,<sq> B:<sq>,<sq> <A|B>` (anything after that is ignored).
std::optional<Position> parse(std::string_view text);

/// Prints a position in the same notation (without options).
std::string to_text(const Position& p);

/// The position after every full turn of the side to move, one entry per way of playing it
/// (move, optional further moves, build, optional second build; a winning move ends the turn).
/// Empty when the game is over or the side to move has no legal turn (it has lost).
std::vector<Position> full_turns(const Position& p, const Gods& gods);

/// The number of full-turn sequences of length `depth`.
std::uint64_t perft(const Position& p, const Gods& gods, int depth);

/// The number of distinct results (heights, domes, each side's set of worker squares, the
/// winner) among the full turns.
std::uint64_t distinct_results(const Position& p, const Gods& gods);

}  // namespace reference
