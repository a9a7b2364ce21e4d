// See reference_enumerator.hpp. Written from the rulebook text, not from the engine.
#include "reference_enumerator.hpp"

#include <algorithm>
#include <set>

namespace reference {
namespace {

constexpr int dfile[8] = {0, 1, 1, 1, 0, -1, -1, -1};
constexpr int drank[8] = {1, 1, 0, -1, -1, -1, 0, 1};

bool on_board(int f, int r) { return f >= 0 && f < 5 && r >= 0 && r < 5; }

bool has_worker(const Position& p, int f, int r) {
    for (int s = 0; s < 2; ++s)
        for (int w = 0; w < 2; ++w)
            if (p.worker_file[s][w] == f && p.worker_rank[s][w] == r) return true;
    return false;
}

bool occupied(const Position& p, int f, int r) { return p.dome[f][r] || has_worker(p, f, r); }

bool wins_by_moving(const Gods& g, int side, int from_height, int to_height) {
    if (to_height == 3 && from_height < 3) return true;  // moved up onto level 3
    return g.pan[side] && from_height - to_height >= 2;
}

// Appends the builds on (f, r) to `out`: a block below level 3 (Atlas: or a dome at any
// level), a dome on level 3. The caller checks that (f, r) neighbours the builder and is free.
void builds_on(const Position& p, const Gods& g, int side, int f, int r, std::vector<Position>& out) {
    Position b = p;
    if (p.heights[f][r] < 3) {
        b.heights[f][r] += 1;
        out.push_back(b);
        if (g.atlas[side]) {
            b = p;
            b.dome[f][r] = true;
            out.push_back(b);
        }
    } else {
        b.dome[f][r] = true;
        out.push_back(b);
    }
}

// The build part of the turn for worker (side, w), which has moved; appends finished turns.
void build_part(const Position& moved, const Gods& g, int side, int w, std::vector<Position>& out) {
    Position p = moved;
    p.to_move = 1 - side;
    int f0 = p.worker_file[side][w], r0 = p.worker_rank[side][w];
    for (int d = 0; d < 8; ++d) {
        int f = f0 + dfile[d], r = r0 + drank[d];
        if (!on_board(f, r) || occupied(p, f, r)) continue;
        std::size_t first = out.size();
        builds_on(p, g, side, f, r, out);
        if (!g.demeter[side]) continue;
        std::size_t last = out.size();
        for (std::size_t i = first; i < last; ++i) {
            for (int d2 = 0; d2 < 8; ++d2) {  // Demeter: once more, not on the same space
                int f2 = f0 + dfile[d2], r2 = r0 + drank[d2];
                if (!on_board(f2, r2) || (f2 == f && r2 == r)) continue;
                Position b = out[i];  // a copy: `out` grows below
                if (!occupied(b, f2, r2)) builds_on(b, g, side, f2, r2, out);
            }
        }
    }
}

// Moves of worker (side, w) from where it stands, except onto (skip_f, skip_r).
struct Move {
    int f, r;
};
std::vector<Move> moves_of(const Position& p, int side, int w, int skip_f, int skip_r) {
    std::vector<Move> out;
    int f0 = p.worker_file[side][w], r0 = p.worker_rank[side][w];
    for (int d = 0; d < 8; ++d) {
        int f = f0 + dfile[d], r = r0 + drank[d];
        if (!on_board(f, r) || occupied(p, f, r) || (f == skip_f && r == skip_r)) continue;
        if (p.heights[f][r] > p.heights[f0][r0] + 1) continue;  // up at most one level
        out.push_back({f, r});
    }
    return out;
}

bool on_perimeter(int f, int r) { return f == 0 || f == 4 || r == 0 || r == 4; }

// Where Triton's worker stands in his turn: its square after some moves. Two are the same
// state of the turn only if the moves so far are the same in everything the turn can tell:
// one move or two or more, having moved up, having changed level.
struct TritonState {
    int f, r, moves;
    bool up, changed;
    bool operator==(const TritonState&) const = default;
};

// Triton's worker (side, w) stands on a perimeter space in `at`, in the last state of `path`:
// each further move is optional, a win ends the turn, otherwise it builds or moves on.
void triton_moves(const Position& at, const Gods& g, int side, int w,
                  std::vector<TritonState>& path, std::vector<Position>& out) {
    const TritonState now = path.back();
    for (Move m : moves_of(at, side, w, -1, -1)) {
        int from_h = at.heights[now.f][now.r], to_h = at.heights[m.f][m.r];
        TritonState next{m.f, m.r, 2, now.up || to_h > from_h, now.changed || to_h != from_h};
        bool again = false;
        for (const TritonState& t : path) again = again || t == next;
        if (again) continue;  // the turn would repeat a state it was in: a loop, not a new way
        Position b = at;
        b.worker_file[side][w] = m.f;
        b.worker_rank[side][w] = m.r;
        if (wins_by_moving(g, side, from_h, to_h)) {
            b.winner = side;
            out.push_back(b);
            continue;
        }
        build_part(b, g, side, w, out);
        if (!on_perimeter(m.f, m.r)) continue;
        path.push_back(next);
        triton_moves(b, g, side, w, path, out);
        path.pop_back();
    }
}

}  // namespace

std::vector<Position> full_turns(const Position& p, const Gods& g) {
    std::vector<Position> out;
    if (p.winner >= 0) return out;
    int side = p.to_move;
    for (int w = 0; w < 2; ++w) {
        int start_f = p.worker_file[side][w], start_r = p.worker_rank[side][w];
        for (Move m : moves_of(p, side, w, -1, -1)) {
            Position a = p;
            a.worker_file[side][w] = m.f;
            a.worker_rank[side][w] = m.r;
            if (wins_by_moving(g, side, p.heights[start_f][start_r], p.heights[m.f][m.r])) {
                a.winner = side;
                out.push_back(a);
                continue;
            }
            build_part(a, g, side, w, out);
            if (g.triton[side] && on_perimeter(m.f, m.r)) {
                int from_h = p.heights[start_f][start_r], to_h = p.heights[m.f][m.r];
                std::vector<TritonState> path{{start_f, start_r, 0, false, false},
                                              {m.f, m.r, 1, to_h > from_h, to_h != from_h}};
                triton_moves(a, g, side, w, path, out);
            }
            if (!g.artemis[side]) continue;
            for (Move m2 : moves_of(a, side, w, start_f, start_r)) {
                Position b = a;
                b.worker_file[side][w] = m2.f;
                b.worker_rank[side][w] = m2.r;
                if (wins_by_moving(g, side, a.heights[m.f][m.r], a.heights[m2.f][m2.r])) {
                    b.winner = side;
                    out.push_back(b);
                    continue;
                }
                build_part(b, g, side, w, out);
            }
        }
    }
    return out;
}

std::uint64_t perft(const Position& p, const Gods& g, int depth) {
    if (depth == 0) return 1;
    std::vector<Position> next = full_turns(p, g);
    if (depth == 1) return next.size();
    std::uint64_t n = 0;
    for (const Position& q : next) n += perft(q, g, depth - 1);
    return n;
}

std::uint64_t distinct_results(const Position& p, const Gods& g) {
    std::set<std::string> seen;
    for (const Position& q : full_turns(p, g)) {
        std::string key;
        for (int f = 0; f < 5; ++f)
            for (int r = 0; r < 5; ++r) key += static_cast<char>(q.heights[f][r] + (q.dome[f][r] ? 8 : 0));
        for (int s = 0; s < 2; ++s) {
            int a = q.worker_file[s][0] * 5 + q.worker_rank[s][0], b = q.worker_file[s][1] * 5 + q.worker_rank[s][1];
            key += static_cast<char>(std::min(a, b));
            key += static_cast<char>(std::max(a, b));
        }
        key += static_cast<char>(q.winner + 1);
        seen.insert(key);
    }
    return seen.size();
}

std::optional<Position> parse(std::string_view text) {
    Position p;
    std::size_t i = 0;
    for (int rank = 4; rank >= 0; --rank) {  // rows from rank 5 down, files A..E
        for (int file = 0; file < 5; ++file) {
            if (i >= text.size() || text[i] < '0' || text[i] > '3') return std::nullopt;
            p.heights[file][rank] = text[i++] - '0';
            if (i < text.size() && text[i] == 'D') {
                p.dome[file][rank] = true;
                ++i;
            }
        }
        char expected = rank > 0 ? '/' : ' ';
        if (i >= text.size() || text[i++] != expected) return std::nullopt;
    }
    for (int side = 0; side < 2; ++side) {
        if (text.substr(i, 2) != std::string{static_cast<char>('A' + side), ':'}) return std::nullopt;
        i += 2;
        for (int w = 0; w < 2; ++w) {
            if (i + 2 > text.size() || text[i] < 'A' || text[i] > 'E' || text[i + 1] < '1' || text[i + 1] > '5')
                return std::nullopt;
            p.worker_file[side][w] = text[i] - 'A';
            p.worker_rank[side][w] = text[i + 1] - '1';
            i += 2;
            char expected = w == 0 ? ',' : ' ';
            if (i >= text.size() || text[i++] != expected) return std::nullopt;
        }
    }
    if (i >= text.size() || (text[i] != 'A' && text[i] != 'B')) return std::nullopt;
    p.to_move = text[i] - 'A';
    if (i + 1 < text.size() && text[i + 1] != ' ') return std::nullopt;
    return p;
}

std::string to_text(const Position& p) {
    std::string out;
    for (int rank = 4; rank >= 0; --rank) {
        for (int file = 0; file < 5; ++file) {
            out += static_cast<char>('0' + p.heights[file][rank]);
            if (p.dome[file][rank]) out += 'D';
        }
        out += rank > 0 ? '/' : ' ';
    }
    for (int side = 0; side < 2; ++side) {
        out += static_cast<char>('A' + side);
        out += ':';
        for (int w = 0; w < 2; ++w) {
            out += static_cast<char>('A' + p.worker_file[side][w]);
            out += static_cast<char>('1' + p.worker_rank[side][w]);
            out += w == 0 ? ',' : ' ';
        }
    }
    out += static_cast<char>('A' + p.to_move);
    return out;
}

}  // namespace reference
