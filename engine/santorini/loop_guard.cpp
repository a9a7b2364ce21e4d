// The loop guard's set of placements: a bitset for up to two moved workers, a list beyond.
#include "engine/santorini/loop_guard.hpp"

#include <bit>

namespace santorini::detail {
namespace {

// The loop guard's set (Turn::visited) holds the placements met since the turn's record last
// changed (same_record). Within one record the workers that moved this turn are fixed (a move
// of another worker changes Turn::moved_workers), and no other worker of the mover changes
// square, so the squares of the moved workers are the placement. Up to two moved workers (every
// side of two, and any turn that moves at most two workers) it is a bitset of 11 x 64 bits over
// keys a * 26 + b (25 = no such worker or off the board); with three or more (sides of 3-4
// workers: Graeae, Moerae, Gaea's placed workers) the same words hold a list instead: word 0
// counts, then 32-bit codes of 5 bits per moved worker (G18). The count of moved workers is
// part of the record, so one record never mixes the two forms.
constexpr int list_capacity = 21;  // 32-bit codes in words 0.5 .. 10

int moved_count(const State& s) { return std::popcount(s.turn.moved_workers); }

// The squares of the moved workers in index order, 5 bits each (25 = off the board); a turn
// moves at most six workers (a side's four and two others moved for it), so 30 bits suffice.
std::uint32_t placement_code(const State& s, int limit) {
    std::uint32_t code = 0;
    int n = 0;
    for (int w = 0; w < s.worker_count && n < limit; ++w) {
        if (!(s.turn.moved_workers >> w & 1u)) continue;
        Square sq = s.worker(w).square;
        code = code << 5 | static_cast<std::uint32_t>(sq == no_square ? 25 : sq);
        ++n;
    }
    return code;
}

int configuration_key(const State& s) {
    std::uint32_t code = placement_code(s, 2);
    int n = moved_count(s);
    if (n == 0) return 25 * 26 + 25;
    if (n == 1) return static_cast<int>(code) * 26 + 25;
    return static_cast<int>(code >> 5) * 26 + static_cast<int>(code & 31);
}

std::uint32_t list_entry(const Turn& t, int i) {
    auto word = t.visited[static_cast<std::size_t>((i + 1) / 2)];
    return static_cast<std::uint32_t>((i + 1) % 2 ? word >> 32 : word);
}

void set_list_entry(Turn& t, int i, std::uint32_t v) {
    auto& word = t.visited[static_cast<std::size_t>((i + 1) / 2)];
    word = (i + 1) % 2 ? (word & 0xffffffffu) | std::uint64_t{v} << 32 : (word & ~std::uint64_t{0xffffffffu}) | v;
}

// Whether the current placement was met since the record last changed.
bool placement_visited(const State& s) {
    if (moved_count(s) <= 2) {
        int key = configuration_key(s);
        return (s.turn.visited[static_cast<std::size_t>(key / 64)] >> (key % 64)) & 1u;
    }
    auto count = static_cast<int>(s.turn.visited[0] & 0xffffffffu);
    std::uint32_t code = placement_code(s, 6) | 1u << 31;
    for (int i = 0; i < count; ++i)
        if (list_entry(s.turn, i) == code) return true;
    return false;
}

}  // namespace

// Marks the current placement; false if the list of a 3+ worker record is full (the move
// is then a dead end: a turn cannot pass through more than 21 placements of three workers
// without changing its record, far beyond any power's text).
bool mark_visited(State& s) {
    if (moved_count(s) <= 2) {
        int key = configuration_key(s);
        s.turn.visited[static_cast<std::size_t>(key / 64)] |= std::uint64_t{1} << (key % 64);
        return true;
    }
    auto count = static_cast<int>(s.turn.visited[0] & 0xffffffffu);
    if (count == list_capacity) return false;
    set_list_entry(s.turn, count, placement_code(s, 6) | 1u << 31);  // never 0 = never a free slot
    s.turn.visited[0] = (s.turn.visited[0] & ~std::uint64_t{0xffffffffu}) | static_cast<std::uint32_t>(count + 1);
    return true;
}


// The loop guard (Turn::visited; rulings 3 and B5). A turn's state is its record (same_record)
// and the placement of the mover's workers. The record only grows within a turn (moves, moved
// workers, flags, builds), so a state can come back only while the record stays as it is: the
// guard holds the placements met since the record last changed, and a move onto one of them
// repeats a state the turn has passed through. Only that is stopped: a worker that went out
// and came back after moving is in a new state (Triton back on his starting square).
void guard_loops(State& s, const TurnRecord& before, const Step& st) {
    bool changed = !same_record(before, s.turn);
    if (changed) s.turn.visited = {};
    if (!changed && st.kind == StepKind::Move && placement_visited(s))
        s.turn.flags |= repeated;
    else if ((changed || st.kind == StepKind::Move) && !mark_visited(s))
        s.turn.flags |= repeated;
}

}  // namespace santorini::detail
