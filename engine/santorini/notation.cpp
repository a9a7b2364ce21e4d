#include "engine/santorini/notation.hpp"

#include <algorithm>
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

// ---- card fields: written and read from Card::fields, the one list (card.hpp) ----
// A field is written when some card has it non-zero, one value per seat: a small number in
// decimal (memory, counter), squares joined by '+' or '-' (tokens), hexadecimal (data).

std::string card_value(std::uint8_t v) { return std::to_string(v); }
std::string card_value(Bitboard b) {
    std::string out;
    for (Bitboard r = b & all_squares; r; r &= r - 1)
        out += (out.empty() ? "" : "+") + square_name(static_cast<Square>(std::countr_zero(r)));
    return out.empty() ? "-" : out;
}
std::string card_value(std::uint64_t v) {
    std::ostringstream o;
    o << std::hex << v;
    return o.str();
}

bool read_card_value(std::string_view v, std::uint8_t& out) {
    if (v.empty() || v.size() > 3) return false;
    int n = 0;
    for (char c : v) {
        if (c < '0' || c > '9') return false;
        n = n * 10 + (c - '0');
    }
    if (n > 255) return false;
    out = static_cast<std::uint8_t>(n);
    return true;
}
bool read_card_value(std::string_view v, Bitboard& out) {
    out = 0;
    if (v == "-") return true;
    for (auto name : split(v, '+')) {
        auto sq = parse_square(name);
        if (!sq) return false;
        out |= bit(*sq);
    }
    return true;
}
bool read_card_value(std::string_view v, std::uint64_t& out) {
    if (v.empty() || v.size() > 16) return false;
    out = 0;
    for (char c : v) {
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
        if (d < 0) return false;
        out = out << 4 | static_cast<std::uint64_t>(d);
    }
    return true;
}

// The card's fields as the notation shows them: without data that the power rebuilds at a turn
// start or writes readably itself (PowerRules::data_not_in_notation).
Card written_card(const State& s, int i) {
    Card c = s.card(i);
    PowerId power = s.setup.golden_fleece ? (i == 0 ? s.fleece_power : PowerId::None) : s.seat(i).power;
    if (rules_of(power).data_not_in_notation) c.data = 0;
    return c;
}

void write_card_fields(const State& s, std::string& out) {
    struct Column {
        std::string name, values;
        bool any = false;
    };
    std::vector<Column> columns;
    for (int i = 0; i < s.seat_count; ++i) {
        std::size_t f = 0;
        const Card card = written_card(s, i);
        Card::fields(card, [&](const char* name, auto v) {
            if (f == columns.size()) columns.push_back({name, {}, false});
            columns[f].values += (i ? "," : "") + card_value(v);
            columns[f].any |= v != 0;
            ++f;
        });
    }
    for (const auto& c : columns)
        if (c.any) out += " " + c.name + "=" + c.values;
}

enum class CardField { NotACardField, Read, Bad };
std::string card_field_form(std::string_view key) {
    if (key == "tokens") return "squares joined by + or -";
    if (key == "data") return "hexadecimal";
    return "0-255";
}
CardField read_card_field(State& s, int players, std::string_view key, std::string_view value) {
    bool known = false;
    Card::fields(s.card(0), [&](const char* name, auto) { known |= key == name; });
    if (!known) return CardField::NotACardField;
    auto parts = split(value, ',');
    if (static_cast<int>(parts.size()) != players) return CardField::Bad;
    bool ok = true;
    for (int i = 0; i < players; ++i)
        Card::fields(s.card(i), [&](const char* name, auto& field) {
            if (key == name) ok &= read_card_value(parts[static_cast<std::size_t>(i)], field);
        });
    return ok ? CardField::Read : CardField::Bad;
}

// ---- workers: numbered as create_workers numbers them (docs/engine.md 8, G22) ----
// A side lists its regular workers, then those placed from its card, in index order; a worker
// removed from play (captured, or its side out) is `-` when a later listed worker of the side
// follows it, and left out otherwise (the reader fills the side's slots up to its count with
// removed workers). Workers still on the card are only counted (`reserve=`): they follow the
// placed ones, since Gaea places her first worker on the card first.

bool removed(const Worker& w) { return w.square == no_square && !w.in_reserve; }

std::string side_workers(const State& s, int side) {
    std::vector<int> mine;
    for (int w = 0; w < s.worker_count; ++w)
        if (s.worker(w).side == side) mine.push_back(w);
    const std::size_t regular =
        std::min(mine.size(), static_cast<std::size_t>(detail::regular_workers(s, side)));
    std::size_t end = mine.size();
    while (end > regular && removed(s.worker(mine[end - 1]))) --end;
    while (end > regular && s.worker(mine[end - 1]).in_reserve) --end;
    if (end == regular)
        while (end > 0 && removed(s.worker(mine[end - 1]))) --end;
    std::string out;
    for (std::size_t i = 0; i < end; ++i) {
        const Worker& w = s.worker(mine[i]);
        out += i ? "," : "";
        out += w.square == no_square ? std::string("-") : square_name(w.square) + (w.female ? "f" : "");
    }
    return out.empty() ? "-" : out;
}

// A worker as a side's list gives it: a square (`f`: Selene's female), or `-` (off the board).
struct Listed {
    Square at = no_square;
    bool female = false;
};

// Numbers the listed workers as create_workers does: every side's regular workers (the missing
// ones off the board), then each side's further ones (listed beyond its count, then `reserve`
// on its card, then off the board up to what its card holds).
Result<bool> number_workers(State& s, const std::vector<std::vector<Listed>>& listed,
                            const std::vector<int>& reserve) {
    auto add = [&](Square at, int side, bool female, bool in_reserve) {
        if (s.worker_count == max_workers) return false;
        s.workers[s.worker_count++] = Worker{at, static_cast<std::uint8_t>(side), female, in_reserve};
        return true;
    };
    const int sides = static_cast<int>(listed.size());
    for (int side = 0; side < sides; ++side) {
        const auto& l = listed[static_cast<std::size_t>(side)];
        for (int i = 0; i < detail::regular_workers(s, side); ++i) {
            Listed w = i < static_cast<int>(l.size()) ? l[static_cast<std::size_t>(i)] : Listed{};
            if (!add(w.at, side, w.female, false)) return Error{"too many workers"};
        }
    }
    for (int side = 0; side < sides; ++side) {
        const auto& l = listed[static_cast<std::size_t>(side)];
        int n = 0;
        const auto regular = static_cast<std::size_t>(detail::regular_workers(s, side));
        for (std::size_t i = regular; i < l.size(); ++i, ++n)
            if (!add(l[i].at, side, l[i].female, false)) return Error{"too many workers"};
        for (int k = 0; k < reserve[static_cast<std::size_t>(side)]; ++k, ++n)
            if (!add(no_square, side, false, true)) return Error{"too many workers"};
        for (; n < detail::card_workers(s, side); ++n)
            if (!add(no_square, side, false, false)) return Error{"too many workers"};
    }
    return true;
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
        out += side_workers(s, side);
    }
    out += ' ';
    out += letter(s.turn.seat);
    if (s.seat_count == 4) out += " players=4";
    bool powers = false, out_seats = false;
    for (int i = 0; i < s.seat_count; ++i) {
        powers |= s.seat(i).power != PowerId::None;
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
    write_card_fields(s, out);
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
    bool reserve = false;
    for (int w = 0; w < s.worker_count; ++w) reserve |= s.worker(w).in_reserve;
    if (reserve) {  // workers kept on a card (Gaea), one count per side
        out += " reserve=";
        for (int side = 0; side < s.side_count; ++side) {
            int n = 0;
            for (int w = 0; w < s.worker_count; ++w) n += s.worker(w).side == side && s.worker(w).in_reserve;
            out += (side ? "," : "") + std::to_string(n);
        }
    }
    if (s.turn.flags & turn_flag::extra_turn) out += " extra_turn=1";
    if (s.setup.confirm_turns) out += " confirm=1";  // only when set: older strings read as before
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
    std::vector<std::vector<Listed>> listed;
    Bitboard listed_squares = 0;
    for (; f < fields.size() && fields[f].size() >= 2 && fields[f][1] == ':'; ++f, ++sides) {
        if (fields[f][0] != letter(sides)) return Error{std::string("expected side ") + letter(sides)};
        listed.emplace_back();
        if (fields[f].substr(2) == "-") continue;
        for (auto sq : split(fields[f].substr(2), ',')) {
            if (listed.back().size() == max_workers) return Error{"too many workers"};
            if (sq == "-") {  // off the board: keeps the indices of the workers after it (G22)
                listed.back().push_back(Listed{});
                continue;
            }
            bool female = sq.size() == 3 && sq[2] == 'f';  // Selene's female worker: C3f
            if (female) sq.remove_suffix(1);
            auto at = parse_square(sq);
            if (!at) return Error{"bad square '" + std::string(sq) + "'"};
            if (listed_squares & bit(*at)) return Error{"two workers on " + square_name(*at)};
            if (s.board.has_dome(*at)) return Error{"a worker stands on a dome at " + square_name(*at)};
            listed_squares |= bit(*at);
            listed.back().push_back(Listed{*at, female});
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

    std::uint16_t turn_flags = 0;
    std::vector<int> reserve(static_cast<std::size_t>(sides), 0);
    std::optional<Square> ram;
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
            ram = parse_square(value);
            if (!ram) return Error{"the Ram needs a free square"};
        } else if (auto read = read_card_field(s, players, key, value); read != CardField::NotACardField) {
            if (read == CardField::Bad) return Error{"bad " + std::string(key) + " (one value per seat: " + card_field_form(key) + ")"};
        } else if (key == "holder") {
            auto parts = split(value, ',');
            if (static_cast<int>(parts.size()) != players) return Error{"holder needs one seat per seat"};
            for (int i = 0; i < players; ++i) {
                auto h = parts[static_cast<std::size_t>(i)];
                if (h.size() != 1 || h[0] < 'A' || h[0] >= letter(players)) return Error{"holder names a seat not in the game"};
                s.holder[static_cast<std::size_t>(i)] = static_cast<std::int8_t>(h[0] - 'A');
            }
        } else if (key == "reserve") {
            // Workers kept on a card: numbered after the side's placed ones (G7, G22).
            auto parts = split(value, ',');
            if (static_cast<int>(parts.size()) != sides) return Error{"reserve needs one count per side"};
            for (int side = 0; side < sides; ++side) {
                auto v = parts[static_cast<std::size_t>(side)];
                if (v.size() != 1 || v[0] < '0' || v[0] > '4') return Error{"reserve counts are 0-4"};
                reserve[static_cast<std::size_t>(side)] = v[0] - '0';
            }
        } else if (key == "extra_turn") {
            if (value != "1" && value != "0") return Error{"extra_turn is 0 or 1"};
            if (value == "1") turn_flags |= turn_flag::extra_turn;
        } else if (key == "confirm") {
            if (value != "1" && value != "0") return Error{"confirm is 0 or 1"};
            s.setup.confirm_turns = value == "1";
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
    if (auto numbered = number_workers(s, listed, reserve); !numbered) return numbered.error();
    if (ram) {
        if (occupied(s) & bit(*ram)) return Error{"the Ram needs a free square"};
        s.ram = *ram;
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
