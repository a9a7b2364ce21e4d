#include "engine/santorini/notation.hpp"

#include <bit>
#include <optional>
#include <sstream>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers/chaos.hpp"
#include "engine/santorini/turn_flow.hpp"

namespace santorini {
namespace {

std::vector<std::string_view> split(std::string_view s, char sep) {
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (true) {
        std::size_t at = s.find(sep, start);
        parts.push_back(s.substr(start, at == std::string_view::npos ? std::string_view::npos : at - start));
        if (at == std::string_view::npos) break;
        start = at + 1;
    }
    return parts;
}

char letter(int i) { return static_cast<char>('A' + i); }

// Chaos' deck or discard pile: powers in rulebook order, `-` if none.
std::string power_list(std::uint64_t bits) {
    std::string out;
    for (int p = 1; p <= power_count; ++p)
        if (bits >> p & 1u) out += (out.empty() ? "" : ",") + std::string(power_info(static_cast<PowerId>(p)).key);
    return out.empty() ? "-" : out;
}

// Reads a list written by power_list; only Simple gods may be in Chaos' deck.
Result<std::uint64_t> parse_power_list(std::string_view v, const char* what) {
    std::uint64_t bits = 0;
    if (v == "-") return bits;
    for (auto name : split(v, ',')) {
        auto p = find_power(name);
        if (!p || power_info(*p).category != PowerCategory::Simple)
            return Error{std::string(what) + " holds only Simple gods, not '" + std::string(name) + "'"};
        bits |= std::uint64_t{1} << static_cast<int>(*p);
    }
    return bits;
}

template <class F>
std::string per_seat(const State& s, F&& f) {
    std::string out;
    for (int i = 0; i < s.seat_count; ++i) out += (i ? "," : "") + f(s.seat(i));
    return out;
}

}  // namespace

std::string to_notation(const State& s) {
    std::string out;
    for (int r = 4; r >= 0; --r) {
        for (int f = 0; f < 5; ++f) {
            Square sq = make_square(f, r);
            out += static_cast<char>('0' + s.board.height(sq));
            if (s.board.has_dome(sq)) out += 'D';
        }
        if (r) out += '/';
    }
    for (int side = 0; side < s.side_count; ++side) {
        out += ' ';
        out += letter(side);
        out += ':';
        bool any = false;
        for (int w = 0; w < s.worker_count; ++w) {
            if (s.worker(w).side != side || s.worker(w).square == no_square) continue;
            out += (any ? "," : "") + square_name(s.worker(w).square) + (s.worker(w).female ? "f" : "");
            any = true;
        }
        if (!any) out += '-';
    }
    out += ' ';
    out += letter(s.turn.seat);
    if (s.seat_count == 4) out += " players=4";
    bool powers = false, memory = false, counter = false, out_seats = false;
    for (int i = 0; i < s.seat_count; ++i) {
        powers |= s.seat(i).power != PowerId::None;
        memory |= s.seat(i).memory != 0;
        counter |= s.seat(i).counter != 0;
        out_seats |= s.seat(i).out;
    }
    if (powers)
        out += " powers=" + per_seat(s, [](const Seat& st) {
                   return st.power == PowerId::None ? std::string("-") : std::string(power_info(st.power).key);
               });
    if (s.setup.golden_fleece) {
        out += " fleece=" + std::string(power_info(s.fleece_power).key);
        if (s.ram != no_square) out += " ram=" + square_name(s.ram);
    }
    if (memory) out += " memory=" + per_seat(s, [](const Seat& st) { return std::to_string(st.memory); });
    if (counter) out += " counter=" + per_seat(s, [](const Seat& st) { return std::to_string(st.counter); });
    if (out_seats) {
        out += " out=";
        for (int i = 0; i < s.seat_count; ++i)
            if (s.seat(i).out) out += letter(i);
    }
    bool held = false;
    for (int i = 0; i < s.seat_count; ++i) held |= s.holder[static_cast<std::size_t>(i)] != i;
    if (held) {
        out += " holder=";
        for (int i = 0; i < s.seat_count; ++i) out += std::string(i ? "," : "") + letter(s.holder[static_cast<std::size_t>(i)]);
    }
    if (s.turn.flags & turn_flag::extra_turn) out += " extra_turn=1";
    if (int card = powers::chaos_card(s); card >= 0) {
        PowerId now = s.acting_as[static_cast<std::size_t>(card)];
        out += " chaos=" + (now == PowerId::None ? std::string("-") : std::string(power_info(now).key));
        out += " deck=" + power_list(powers::chaos_deck(s, card));
        out += " discards=" + power_list(powers::chaos_discards(s, card));
    }
    return out;
}

Result<State> parse_notation(std::string_view text) {
    std::vector<std::string_view> fields;
    for (auto f : split(text, ' '))
        if (!f.empty()) fields.push_back(f);
    if (fields.size() < 4) return Error{"a position needs the rows, two sides and the side to move"};

    State s;
    auto rows = split(fields[0], '/');
    if (rows.size() != 5) return Error{"the board needs five rows separated by '/'"};
    for (int i = 0; i < 5; ++i) {
        int rank = 4 - i, file = 0;
        for (std::size_t k = 0; k < rows[static_cast<std::size_t>(i)].size(); ++k) {
            char c = rows[static_cast<std::size_t>(i)][k];
            if (c < '0' || c > '3') return Error{std::string("bad cell '") + c + "' in row " + std::to_string(rank + 1)};
            if (file >= 5) return Error{"row " + std::to_string(rank + 1) + " has more than five cells"};
            bool dome = k + 1 < rows[static_cast<std::size_t>(i)].size() && rows[static_cast<std::size_t>(i)][k + 1] == 'D';
            if (dome) ++k;
            s.board.set(make_square(file++, rank), c - '0', dome);
        }
        if (file != 5) return Error{"row " + std::to_string(rank + 1) + " needs five cells"};
    }

    std::size_t f = 1;
    int sides = 0;
    for (; f < fields.size() && fields[f].size() >= 2 && fields[f][1] == ':'; ++f, ++sides) {
        if (fields[f][0] != letter(sides)) return Error{std::string("expected side ") + letter(sides)};
        if (fields[f].substr(2) == "-") continue;
        for (auto sq : split(fields[f].substr(2), ',')) {
            bool female = sq.size() == 3 && sq[2] == 'f';  // Selene's female worker: C3f
            if (female) sq.remove_suffix(1);
            auto at = parse_square(sq);
            if (!at) return Error{"bad square '" + std::string(sq) + "'"};
            if (s.worker_count == max_workers) return Error{"too many workers"};
            if (s.worker_squares() & bit(*at)) return Error{"two workers on " + square_name(*at)};
            if (s.board.has_dome(*at)) return Error{"a worker stands on a dome at " + square_name(*at)};
            s.workers[s.worker_count++] = Worker{*at, static_cast<std::uint8_t>(sides), female, false};
        }
    }
    if (sides < 2 || sides > 3) return Error{"a position has 2 or 3 sides"};
    if (f >= fields.size() || fields[f].size() != 1) return Error{"missing the seat to move"};
    int to_move = fields[f][0] - 'A';
    ++f;

    int players = sides;
    std::vector<std::pair<std::string_view, std::string_view>> options;
    for (; f < fields.size(); ++f) {
        auto eq = fields[f].find('=');
        if (eq == std::string_view::npos) return Error{"expected key=value, got '" + std::string(fields[f]) + "'"};
        options.emplace_back(fields[f].substr(0, eq), fields[f].substr(eq + 1));
        if (options.back().first == "players") {
            if (options.back().second != "4" || sides != 2) return Error{"players=4 needs exactly the two team sides"};
            players = 4;
        }
    }
    s.seat_count = static_cast<std::uint8_t>(players);
    s.side_count = static_cast<std::uint8_t>(sides);
    for (int i = 0; i < players; ++i) s.seat(i).side = static_cast<std::uint8_t>(players == 4 ? i % 2 : i);
    if (to_move < 0 || to_move >= players) return Error{"the seat to move is not in the game"};
    s.setup.mode = DraftMode::None;
    s.setup.start_player = 0;

    auto per_seat_values = [&](std::string_view v, const char* what) -> Result<std::vector<int>> {
        auto parts = split(v, ',');
        if (static_cast<int>(parts.size()) != players) return Error{std::string(what) + " needs one value per seat"};
        std::vector<int> out;
        for (auto p : parts) {
            int n = 0;
            for (char c : p) {
                if (c < '0' || c > '9') return Error{std::string("bad ") + what + " value"};
                n = n * 10 + (c - '0');
                if (n > 255) return Error{std::string(what) + " values go up to 255"};
            }
            if (p.empty()) return Error{std::string("bad ") + what + " value"};
            out.push_back(n);
        }
        return out;
    };
    std::uint16_t turn_flags = 0;
    std::optional<PowerId> chaos_now;
    std::optional<std::uint64_t> chaos_deck, chaos_discards;
    for (auto [key, value] : options) {
        if (key == "players") continue;
        if (key == "powers") {
            auto parts = split(value, ',');
            if (static_cast<int>(parts.size()) != players) return Error{"powers needs one power per seat"};
            for (int i = 0; i < players; ++i) {
                if (parts[static_cast<std::size_t>(i)] == "-") continue;
                auto p = find_power(parts[static_cast<std::size_t>(i)]);
                if (!p) return Error{"unknown power '" + std::string(parts[static_cast<std::size_t>(i)]) + "'"};
                s.seat(i).power = *p;
            }
            s.setup.mode = DraftMode::Fixed;
        } else if (key == "fleece") {
            auto p = find_power(value);
            if (!p || players != 2) return Error{"fleece needs a known power and 2 players"};
            s.fleece_power = *p;
            s.setup.golden_fleece = true;
            s.setup.mode = DraftMode::Fixed;
        } else if (key == "ram") {
            auto at = parse_square(value);
            if (!at || (occupied(s) & bit(*at))) return Error{"the Ram needs a free square"};
            s.ram = *at;
        } else if (key == "memory" || key == "counter") {
            auto values = per_seat_values(value, key == "memory" ? "memory" : "counter");
            if (!values) return values.error();
            for (int i = 0; i < players; ++i)
                (key == "memory" ? s.seat(i).memory : s.seat(i).counter) = static_cast<std::uint8_t>((*values)[static_cast<std::size_t>(i)]);
        } else if (key == "holder") {
            auto parts = split(value, ',');
            if (static_cast<int>(parts.size()) != players) return Error{"holder needs one seat per seat"};
            for (int i = 0; i < players; ++i) {
                auto h = parts[static_cast<std::size_t>(i)];
                if (h.size() != 1 || h[0] < 'A' || h[0] >= letter(players)) return Error{"holder names a seat not in the game"};
                s.holder[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(h[0] - 'A');
            }
        } else if (key == "extra_turn") {
            if (value != "1" && value != "0") return Error{"extra_turn is 0 or 1"};
            if (value == "1") turn_flags |= turn_flag::extra_turn;
        } else if (key == "chaos") {
            auto p = value == "-" ? std::optional<PowerId>(PowerId::None) : find_power(value);
            if (!p || (*p != PowerId::None && power_info(*p).category != PowerCategory::Simple))
                return Error{"chaos names a Simple god (or -)"};
            chaos_now = *p;
        } else if (key == "deck" || key == "discards") {
            auto bits = parse_power_list(value, key == "deck" ? "deck" : "discards");
            if (!bits) return bits.error();
            (key == "deck" ? chaos_deck : chaos_discards) = *bits;
        } else if (key == "out") {
            for (char c : value) {
                int seat = c - 'A';
                if (seat < 0 || seat >= players) return Error{"out names a seat not in the game"};
                s.seat(seat).out = true;
            }
        } else {
            return Error{"unknown field '" + std::string(key) + "'"};
        }
    }
    if (s.setup.golden_fleece)
        for (int i = 0; i < players; ++i)
            if (s.seat(i).power != PowerId::None) return Error{"with the Golden Fleece nobody owns a power"};
    if (s.ram != no_square && !s.setup.golden_fleece) return Error{"the Ram belongs to the Golden Fleece (fleece=...)"};
    std::uint8_t sides_in = 0;
    for (int i = 0; i < players; ++i) {
        const Seat& st = s.seat(i);
        if (st.out && s.side_squares(st.side)) return Error{"a seat that is out cannot have workers on the board"};
        if (!st.out) sides_in |= static_cast<std::uint8_t>(1u << st.side);
    }
    if (std::popcount(sides_in) < 2) return Error{"fewer than two sides are still in: the game is over"};
    if (s.seat(to_move).out) return Error{"the seat to move is out"};
    if (chaos_now || chaos_deck || chaos_discards) {
        int card = powers::chaos_card(s);
        if (card < 0) return Error{"chaos, deck and discards need Chaos in the game"};
        if (chaos_now) s.acting_as[static_cast<std::size_t>(card)] = *chaos_now;
        powers::set_chaos_cards(s, card, chaos_deck.value_or(0), chaos_discards.value_or(0));
    }
    detail::set_up_cards(s);  // what the text leaves out (an old string's Chaos draws his first god)
    s.turn.number = 0;
    detail::start_turn(s, to_move, turn_flags);
    return s;
}

}  // namespace santorini
