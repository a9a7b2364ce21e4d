// Reading and writing the notation of notation.hpp. The writer prints every field; the reader
// accepts the defaults, then refuses whatever breaks an invariant, so a parsed state is one
// the engine could have reached (or at least one it can play on without surprise).

#include "engine/splendor/notation.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <vector>

#include "engine/splendor/game.hpp"
#include "engine/splendor/turn_flow.hpp"

namespace splendor {
namespace {

std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

constexpr std::array<std::string_view, 5> phase_names{"action", "return", "noble", "over",
                                                     "confirm"};

std::vector<std::string_view> split(std::string_view text, char by) {
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (true) {
        auto end = text.find(by, start);
        out.push_back(text.substr(
            start, end == std::string_view::npos ? std::string_view::npos : end - start));
        if (end == std::string_view::npos) return out;
        start = end + 1;
    }
}

std::vector<std::string_view> words(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n')) ++i;
        std::size_t start = i;
        while (i < text.size() && text[i] != ' ' && text[i] != '\t' && text[i] != '\n') ++i;
        if (i > start) out.push_back(text.substr(start, i - start));
    }
    return out;
}

std::optional<int> number(std::string_view text, int low, int high) {
    int v = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc{} || end != text.data() + text.size() || v < low || v > high)
        return std::nullopt;
    return v;
}

std::optional<int> seat_letter(std::string_view text) {
    if (text.size() != 1 || text[0] < 'A' || text[0] >= 'A' + max_players) return std::nullopt;
    return text[0] - 'A';
}

std::string letter(int seat) {
    return std::string(1, static_cast<char>('A' + seat));
}

template <std::size_t N>
std::string counts(const std::array<std::int8_t, N>& c) {
    std::string out;
    for (std::size_t i = 0; i < N; ++i) out += (i ? "," : "") + std::to_string(c[i]);
    return out;
}

std::string ids(const std::vector<int>& list) {
    if (list.empty()) return "-";
    std::string out;
    for (std::size_t i = 0; i < list.size(); ++i) out += (i ? "," : "") + std::to_string(list[i]);
    return out;
}

// The cards a seat bought, ascending, runs of consecutive ids as ranges (`1-7,9`); `-`: none.
std::string bought_ids(const Player& p) {
    std::string out;
    for (int id = 0; id < card_count; ++id) {
        if (!bought_card(p, id) || (id > 0 && bought_card(p, id - 1))) continue;
        int last = id;
        while (last + 1 < card_count && bought_card(p, last + 1)) ++last;
        out += (out.empty() ? "" : ",") + std::to_string(id);
        if (last > id) out += "-" + std::to_string(last);
    }
    return out.empty() ? "-" : out;
}

std::string bits(std::uint16_t b, bool seats) {
    std::string out;
    for (int i = 0; i < 16; ++i)
        if (b >> i & 1u) out += (out.empty() ? "" : ",") + (seats ? letter(i) : std::to_string(i));
    return out.empty() ? "-" : out;
}

// Parsing state: collects problems as the first error message.
struct Reader {
    std::string error;
    bool failed() const { return !error.empty(); }
    void fail(std::string what) {
        if (error.empty()) error = std::move(what);
    }

    template <std::size_t N>
    std::array<std::int8_t, N> counts_of(std::string_view key, std::string_view v, int high) {
        std::array<std::int8_t, N> out{};
        auto parts = split(v, ',');
        if (parts.size() != N) {
            fail(std::string(key) + " needs " + std::to_string(N) + " counts");
            return out;
        }
        for (std::size_t i = 0; i < N; ++i) {
            auto n = number(parts[i], 0, high);
            if (!n)
                fail("bad count in " + std::string(key) + ": '" + std::string(parts[i]) + "'");
            else
                out[i] = static_cast<std::int8_t>(*n);
        }
        return out;
    }

    std::vector<int> list_of(std::string_view key, std::string_view v, int high) {
        std::vector<int> out;
        if (v == "-") return out;
        for (auto part : split(v, ',')) {
            // `a-b`: every id from a to b
            auto dash = part.find('-');
            auto low = number(part.substr(0, dash), 0, high);
            auto top =
                dash == std::string_view::npos ? low : number(part.substr(dash + 1), 0, high);
            if (!low || !top || *top < *low) {
                fail("bad id in " + std::string(key) + ": '" + std::string(part) + "'");
                continue;
            }
            for (int id = *low; id <= *top; ++id) out.push_back(id);
        }
        return out;
    }

    std::uint16_t bits_of(std::string_view key, std::string_view v, bool seats) {
        std::uint16_t out = 0;
        if (v == "-") return out;
        for (auto part : split(v, ',')) {
            auto n = seats ? seat_letter(part) : number(part, 0, noble_count - 1);
            if (!n)
                fail("bad entry in " + std::string(key) + ": '" + std::string(part) + "'");
            else if (out >> *n & 1u)
                fail(std::string(key) + " names '" + std::string(part) + "' twice");
            else
                out = static_cast<std::uint16_t>(out | (1u << *n));
        }
        return out;
    }
};

struct SeatText {
    Player player;
    std::optional<std::vector<int>> bought;
    bool bonuses = false, points = false, cards = false;
};

}  // namespace

std::string to_notation(const State& s) {
    std::string out = "start=" + letter(s.start_player) + " current=" + letter(s.current) +
                      " turn=" + std::to_string(s.turn) +
                      " phase=" + std::string(phase_names[at(static_cast<int>(s.phase))]) +
                      " passes=" + std::to_string(s.passes) +
                      " final=" + (s.final_round ? "1" : "0") +
                      " winners=" + bits(s.winners, true) +
                      (s.confirm_turns ? " confirm=1" : "") + " supply=" + counts(s.supply) +
                      " nobles=" + bits(s.nobles, false);
    for (int l = 0; l < levels; ++l) {
        out += " row" + std::to_string(l + 1) + "=";
        for (int i = 0; i < row_size; ++i) {
            int id = s.rows[at(l)][at(i)];
            out += (i ? "," : "") + (id < 0 ? std::string("-") : std::to_string(id));
        }
    }
    for (int l = 0; l < levels; ++l) {
        std::vector<int> deck;
        for (int i = s.deck_size[at(l)] - 1; i >= 0; --i) deck.push_back(s.decks[at(l)][at(i)]);
        out += " deck" + std::to_string(l + 1) + "=" + ids(deck);
    }
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seat(i);
        out += " " + letter(i) + ": tokens=" + counts(p.tokens) + " bought=" + bought_ids(p) +
               " reserved=";
        if (p.reserved_count == 0) out += "-";
        for (int r = 0; r < p.reserved_count; ++r)
            out += (r ? "," : "") + std::to_string(p.reserved[at(r)].card) +
                   (p.reserved[at(r)].blind ? "*" : "");
        out += " nobles=" + bits(p.nobles, false);
        if (p.out) out += " out";
    }
    return out;
}

std::variant<State, std::string> parse_notation(std::string_view text) {
    Reader rd;
    State s;
    std::optional<int> start, current;
    std::optional<bool> final_round;
    std::optional<Tokens> supply;
    std::array<std::optional<std::vector<int>>, levels> decks;
    std::array<bool, levels> deck_rest{};  // the listed cards, then the rest
    std::array<bool, levels> row_given{};
    bool nobles_given = false;
    std::vector<SeatText> seats;

    for (auto word : words(text)) {
        if (rd.failed()) break;
        if (word.size() == 2 && word[1] == ':') {
            auto seat = seat_letter(word.substr(0, 1));
            if (!seat || *seat != static_cast<int>(seats.size())) {
                rd.fail("seats must be A:, B:, ... in order, not '" + std::string(word) + "'");
                break;
            }
            seats.emplace_back();
            continue;
        }
        if (!seats.empty() && word == "out") {
            seats.back().player.out = true;
            continue;
        }
        auto eq = word.find('=');
        if (eq == std::string_view::npos) {
            rd.fail("expected key=value, not '" + std::string(word) + "'");
            break;
        }
        auto key = word.substr(0, eq), v = word.substr(eq + 1);
        if (!seats.empty()) {
            SeatText& st = seats.back();
            Player& p = st.player;
            if (key == "tokens") {
                p.tokens = rd.counts_of<token_kinds>(key, v, 7);
            } else if (key == "bonuses") {
                p.bonuses = rd.counts_of<gem_colours>(key, v, card_count);
                st.bonuses = true;
            } else if (key == "points") {
                if (auto n = number(v, 0, 127))
                    p.points = static_cast<std::int8_t>(*n);
                else
                    rd.fail("bad points: '" + std::string(v) + "'");
                st.points = true;
            } else if (key == "cards") {
                if (auto n = number(v, 0, card_count))
                    p.cards = static_cast<std::int8_t>(*n);
                else
                    rd.fail("bad cards: '" + std::string(v) + "'");
                st.cards = true;
            } else if (key == "bought") {
                st.bought = rd.list_of(key, v, card_count - 1);
            } else if (key == "reserved") {
                if (v == "-") continue;
                auto parts = split(v, ',');
                if (parts.size() > max_reserved) rd.fail("at most 3 reserved cards");
                for (auto part : parts) {
                    bool blind = !part.empty() && part.back() == '*';
                    if (blind) part.remove_suffix(1);
                    auto n = number(part, 0, card_count - 1);
                    if (!n || p.reserved_count >= max_reserved) {
                        rd.fail("bad reserved card: '" + std::string(part) + "'");
                        break;
                    }
                    p.reserved[at(p.reserved_count++)] =
                        Reserved{static_cast<std::int8_t>(*n), blind};
                }
            } else if (key == "nobles") {
                p.nobles = rd.bits_of(key, v, false);
            } else {
                rd.fail("unknown seat field '" + std::string(key) + "'");
            }
            continue;
        }
        if (key == "start" || key == "current") {
            auto seat = seat_letter(v);
            if (!seat) rd.fail("bad seat in " + std::string(key) + ": '" + std::string(v) + "'");
            (key == "start" ? start : current) = seat;
        } else if (key == "turn") {
            auto n = number(v, 0, 1'000'000);
            if (!n)
                rd.fail("bad turn: '" + std::string(v) + "'");
            else
                s.turn = static_cast<std::uint32_t>(*n);
        } else if (key == "phase") {
            auto it = std::find(phase_names.begin(), phase_names.end(), v);
            if (it == phase_names.end())
                rd.fail("bad phase: '" + std::string(v) + "'");
            else
                s.phase = static_cast<Phase>(it - phase_names.begin());
        } else if (key == "passes") {
            auto n = number(v, 0, 100);
            if (!n)
                rd.fail("bad passes: '" + std::string(v) + "'");
            else
                s.passes = static_cast<std::int8_t>(*n);
        } else if (key == "confirm") {
            if (v != "0" && v != "1") rd.fail("confirm is 0 or 1");
            s.confirm_turns = v == "1";
        } else if (key == "final") {
            if (v != "0" && v != "1") rd.fail("final is 0 or 1");
            final_round = v == "1";
        } else if (key == "winners") {
            s.winners = static_cast<std::uint8_t>(rd.bits_of(key, v, true));
        } else if (key == "supply") {
            supply = rd.counts_of<token_kinds>(key, v, 7);
        } else if (key == "nobles") {
            s.nobles = rd.bits_of(key, v, false);
            nobles_given = true;
        } else if (key.size() == 4 && key.starts_with("row") && key[3] >= '1' && key[3] <= '3') {
            auto l = at(key[3] - '1');
            auto parts = split(v, ',');
            if (parts.size() != row_size) rd.fail(std::string(key) + " needs 4 slots");
            for (std::size_t i = 0; i < parts.size() && i < row_size; ++i) {
                if (parts[i] == "-") {
                    s.rows[l][i] = -1;
                } else if (auto n = number(parts[i], 0, card_count - 1)) {
                    s.rows[l][i] = static_cast<std::int8_t>(*n);
                } else {
                    rd.fail("bad card in " + std::string(key) + ": '" + std::string(parts[i]) +
                            "'");
                }
            }
            row_given[l] = true;
        } else if (key.size() == 5 && key.starts_with("deck") && key[4] >= '1' && key[4] <= '3') {
            auto l = at(key[4] - '1');
            if (v == "rest" || v == "...") continue;
            if (v.ends_with(",...")) {
                v.remove_suffix(4);
                deck_rest[l] = true;
            }
            decks[l] = rd.list_of(key, v, card_count - 1);
        } else {
            rd.fail("unknown field '" + std::string(key) + "'");
        }
    }
    if (rd.failed()) return rd.error;
    if (seats.size() < 2) return std::string("a game needs 2 to 4 seats (A: B: ...)");
    for (std::size_t l = 0; l < levels; ++l)
        if (!row_given[l]) return "row" + std::to_string(l + 1) + " is missing";
    if (!nobles_given) return std::string("nobles is missing");

    s.players = static_cast<std::int8_t>(seats.size());
    s.start_player = static_cast<std::int8_t>(start.value_or(0));
    s.current = static_cast<std::int8_t>(current.value_or(s.start_player));
    if (s.start_player >= s.players || s.current >= s.players)
        return std::string("a seat named is not in the game");

    std::array<bool, card_count> used{};
    auto use = [&](int id) {
        if (used[at(id)]) rd.fail("card #" + std::to_string(id) + " is in two places");
        used[at(id)] = true;
    };
    for (const auto& row : s.rows)
        for (auto id : row)
            if (id >= 0) use(id);
    for (std::size_t i = 0; i < seats.size(); ++i) {
        SeatText& st = seats[i];
        Player& p = st.player;
        for (int r = 0; r < p.reserved_count; ++r) use(p.reserved[at(r)].card);
        if (st.bought) {
            if (st.bonuses || st.points || st.cards)
                rd.fail("seat " + letter(static_cast<int>(i)) +
                        ": bought= or bonuses=/points=/cards=, not both");
            for (int id : *st.bought) {
                use(id);
                mark_bought(p, id);
                ++p.bonuses[at(card(id).bonus)];
                p.points = static_cast<std::int8_t>(p.points + card(id).points);
                ++p.cards;
            }
            for (int id = 0; id < noble_count; ++id)
                if (p.nobles >> id & 1u)
                    p.points = static_cast<std::int8_t>(p.points + noble(id).points);
        }
        s.seat(static_cast<int>(i)) = p;
    }
    for (std::size_t l = 0; l < levels; ++l)
        if (decks[l])
            for (int id : *decks[l]) use(id);
    if (rd.failed()) return rd.error;
    for (std::size_t l = 0; l < levels; ++l) {
        std::vector<int> deck;  // top first
        if (decks[l]) deck = *decks[l];
        if (!decks[l] || deck_rest[l]) {
            for (int id = 0; id < card_count; ++id)
                if (!used[at(id)] && card(id).level == static_cast<int>(l) + 1) deck.push_back(id);
        }
        if (deck.size() > largest_deck) return std::string("a deck holds too many cards");
        s.decks[l].fill(-1);
        s.deck_size[l] = static_cast<std::int8_t>(deck.size());
        for (std::size_t i = 0; i < deck.size(); ++i)
            s.decks[l][deck.size() - 1 - i] = static_cast<std::int8_t>(deck[i]);
    }
    // The older form (bonuses=, points=, cards= instead of bought=) does not say which cards a
    // seat bought: the cards found nowhere else are its cards if it is the only seat giving
    // that form with cards; otherwise which seat bought which is not known.
    int guessed = -1;
    for (std::size_t i = 0; i < seats.size(); ++i)
        if (!seats[i].bought && s.seat(static_cast<int>(i)).cards > 0) {
            if (guessed >= 0)
                return "seats " + letter(guessed) + " and " + letter(static_cast<int>(i)) +
                       " give cards= without bought=: which of them bought which card is not "
                       "known";
            guessed = static_cast<int>(i);
        }
    if (guessed >= 0) {
        std::array<bool, card_count> placed{};
        for (std::size_t l = 0; l < levels; ++l) {
            for (auto id : s.rows[l])
                if (id >= 0) placed[at(id)] = true;
            for (int i = 0; i < s.deck_size[l]; ++i) placed[at(s.decks[l][at(i)])] = true;
        }
        for (int i = 0; i < s.players; ++i) {
            const Player& p = s.seat(i);
            for (int r = 0; r < p.reserved_count; ++r) placed[at(p.reserved[at(r)].card)] = true;
            for (int id = 0; id < card_count; ++id)
                if (bought_card(p, id)) placed[at(id)] = true;
        }
        for (int id = 0; id < card_count; ++id)
            if (!placed[at(id)]) mark_bought(s.seat(guessed), id);
    }
    if (supply) {
        s.supply = *supply;
    } else {
        s.supply = detail::starting_supply(s.players);
        for (int i = 0; i < s.players; ++i)
            for (int k = 0; k < token_kinds; ++k)
                s.supply[at(k)] =
                    static_cast<std::int8_t>(s.supply[at(k)] - s.seat(i).tokens[at(k)]);
    }
    bool fifteen = false;
    for (int i = 0; i < s.players; ++i) fifteen = fifteen || s.seat(i).points >= winning_points;
    s.final_round = final_round.value_or(fifteen);
    if (auto problem = check_invariants(s); !problem.empty())
        return "not a consistent state: " + problem;
    return s;
}

std::string to_text(const Step& step) {
    auto kind_of = [&](int k) { return std::string(gem_name(static_cast<Gem>(k))); };
    switch (step.kind) {
        case StepKind::Take: {
            std::string out = "take";
            for (int k = 0; k < gem_colours; ++k)
                for (int n = 0; n < step.gems[at(k)]; ++n) out += " " + kind_of(k);
            return out;
        }
        case StepKind::Reserve:
            return step.card >= 0 ? "reserve #" + std::to_string(step.card)
                                  : "reserve level " + std::to_string(step.level);
        case StepKind::Buy: {
            std::string out = "buy #" + std::to_string(step.card) + " for";
            bool paid = false;
            for (int k = 0; k < token_kinds; ++k)
                if (step.gems[at(k)] > 0) {
                    out += " " + kind_of(k) + " " + std::to_string(step.gems[at(k)]);
                    paid = true;
                }
            return paid ? out : out + " nothing";
        }
        case StepKind::Return:
            for (int k = 0; k < token_kinds; ++k)
                if (step.gems[at(k)] > 0) return "return " + kind_of(k);
            return "return";
        case StepKind::Noble:
            return "noble #" + std::to_string(step.noble);
        case StepKind::Pass:
            return "pass";
        case StepKind::Undo:
            return "undo";
        case StepKind::EndTurn:
            return "end turn";
    }
    return "";
}

std::optional<Step> parse_step(const State& state, std::string_view text) {
    auto w = words(text);
    if (w.empty()) return std::nullopt;
    StepList legal;
    legal_steps(state, legal);
    auto card_id = [](std::string_view t) -> std::optional<int> {
        if (t.size() < 2 || t[0] != '#') return std::nullopt;
        return number(t.substr(1), 0, card_count - 1);
    };
    // `buy #12` alone: the first payment listed for it, the default.
    if (w.size() == 2 && w[0] == "buy") {
        auto id = card_id(w[1]);
        if (!id) return std::nullopt;
        for (const Step& st : legal)
            if (st.kind == StepKind::Buy && st.card == *id) return st;
        return std::nullopt;
    }
    std::string normal;
    for (auto part : w) normal += (normal.empty() ? "" : " ") + std::string(part);
    for (const Step& st : legal)
        if (to_text(st) == normal) return st;
    return std::nullopt;
}

}  // namespace splendor
