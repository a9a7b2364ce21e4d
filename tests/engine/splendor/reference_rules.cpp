// See reference_rules.hpp. Written from the rulebook, shared/RULES.md and docs/rulings.md, not
// from the engine: plain loops, brute force, a rule per function, each quoting its source.

#include "reference_rules.hpp"

#include "engine/splendor/cards.hpp"
#include "engine/splendor/gems.hpp"

namespace splendor_reference {

using splendor::Phase;
using splendor::Player;
using splendor::State;
using splendor::Step;
using splendor::StepKind;

namespace {

constexpr int colours = 5;  // white, blue, green, red, black
constexpr int kinds = 6;    // the colours, then gold
constexpr int gold = 5;

std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

Player& me(State& s) {
    return s.seats[at(s.current)];
}
const Player& me(const State& s) {
    return s.seats[at(s.current)];
}

int hand_size(const Player& p) {
    int n = 0;
    for (int k = 0; k < kinds; ++k) n += p.tokens[at(k)];
    return n;
}

// ---------------------------------------------------------------------------------------------
// Which steps are legal
// ---------------------------------------------------------------------------------------------

// "Take 3 gems of 3 different colours (ruling: if fewer than 3 colours are available, take one
// of each available colour); take 2 gems of one colour, only if at least 4 of that colour were
// in the supply" (RULES.md; ruling S1: with 3 or more colours left, never fewer than 3).
// Every vector of 0, 1 or 2 gems a colour is tried and kept if it is one of those.
void takes(const State& s, std::vector<Step>& out) {
    int available = 0;
    for (int c = 0; c < colours; ++c)
        if (s.supply[at(c)] > 0) ++available;
    int v[colours];
    for (int code = 0; code < 243; ++code) {  // 3^5 vectors
        int rest = code, sum = 0, twos = 0, ones = 0;
        for (int c = 0; c < colours; ++c) {
            v[c] = rest % 3;
            rest /= 3;
            sum += v[c];
            if (v[c] == 2) ++twos;
            if (v[c] == 1) ++ones;
        }
        bool ok = false;
        if (twos == 1 && ones == 0) {
            for (int c = 0; c < colours; ++c)
                if (v[c] == 2) ok = s.supply[at(c)] >= 4;
        } else if (twos == 0 && sum > 0) {
            bool from_bank = true;
            for (int c = 0; c < colours; ++c)
                if (v[c] > s.supply[at(c)]) from_bank = false;
            if (available >= 3) {
                ok = from_bank && sum == 3;
            } else {
                ok = true;  // exactly one of each colour left, nothing else
                for (int c = 0; c < colours; ++c)
                    if ((v[c] == 1) != (s.supply[at(c)] > 0)) ok = false;
            }
        }
        if (!ok) continue;
        Step st;
        st.kind = StepKind::Take;
        for (int c = 0; c < colours; ++c) st.gems[at(c)] = static_cast<std::int8_t>(v[c]);
        out.push_back(st);
    }
}

// "Reserve a face-up card or the top card of a deck ...; at most 3 reserved cards."
void reserves(const State& s, std::vector<Step>& out) {
    if (me(s).reserved_count >= 3) return;
    for (int l = 0; l < 3; ++l)
        for (int slot = 0; slot < 4; ++slot) {
            int id = s.rows[at(l)][at(slot)];
            if (id < 0) continue;
            Step st;
            st.kind = StepKind::Reserve;
            st.card = static_cast<std::int8_t>(id);
            out.push_back(st);
        }
    for (int l = 0; l < 3; ++l) {
        if (s.deck_size[at(l)] == 0) continue;
        Step st;
        st.kind = StepKind::Reserve;
        st.level = static_cast<std::int8_t>(l + 1);
        out.push_back(st);
    }
}

// "Buy a face-up card or one of your reserved cards: cost minus your bonuses of each colour,
// paid with gems, gold standing in for any gem (the player may say how much gold to use)"
// (RULES.md; ruling S3: every distinct payment of exactly what is owed is a step). Every vector
// of tokens the hand could hand over is tried: it pays if no colour gives more than is owed of
// it and the gold given covers exactly what the colours leave unpaid.
void payments(const State& s, int id, std::vector<Step>& out) {
    const Player& p = me(s);
    const splendor::Card& c = splendor::card(id);
    int owed[colours];
    for (int k = 0; k < colours; ++k) {
        int o = c.cost[at(k)] - p.bonuses[at(k)];
        owed[k] = o > 0 ? o : 0;
    }
    int pay[kinds] = {0, 0, 0, 0, 0, 0};
    while (true) {
        bool ok = true;
        int unpaid = 0;
        for (int k = 0; k < colours; ++k) {
            if (pay[k] > owed[k]) ok = false;
            unpaid += owed[k] - pay[k];
        }
        if (ok && unpaid == pay[gold]) {
            Step st;
            st.kind = StepKind::Buy;
            st.card = static_cast<std::int8_t>(id);
            for (int k = 0; k < kinds; ++k) st.gems[at(k)] = static_cast<std::int8_t>(pay[k]);
            out.push_back(st);
        }
        // The next vector, 0 <= pay[k] <= tokens held of k (an odometer).
        int k = 0;
        while (k < kinds && pay[k] == p.tokens[at(k)]) pay[k++] = 0;
        if (k == kinds) break;
        ++pay[k];
    }
}

void buys(const State& s, std::vector<Step>& out) {
    for (int l = 0; l < 3; ++l)
        for (int slot = 0; slot < 4; ++slot)
            if (s.rows[at(l)][at(slot)] >= 0) payments(s, s.rows[at(l)][at(slot)], out);
    const Player& p = me(s);
    for (int r = 0; r < p.reserved_count; ++r) payments(s, p.reserved[at(r)].card, out);
}

// The rulebook: "a player can receive a visit if he owns (at least) the quantity and type of
// bonuses shown on the noble tile"; bonuses only, never tokens.
bool earns(const Player& p, int noble) {
    for (int k = 0; k < colours; ++k)
        if (p.bonuses[at(k)] < splendor::noble(noble).requirements[at(k)]) return false;
    return true;
}

std::vector<int> earned_nobles(const State& s) {
    std::vector<int> out;
    for (int n = 0; n < splendor::noble_count; ++n)
        if ((s.nobles >> n & 1u) && earns(me(s), n)) out.push_back(n);
    return out;
}

// ---------------------------------------------------------------------------------------------
// What a step does
// ---------------------------------------------------------------------------------------------

// "When a development card from the centre of the table is bought or reserved, it must be
// replaced at once by a card of the same level ... (unless that deck is exhausted, in which
// case the spaces stay empty)." The top of a deck is its last entry.
int draw(State& s, int level) {
    auto l = at(level - 1);
    if (s.deck_size[l] == 0) return -1;
    int top = s.deck_size[l] - 1;
    int id = s.decks[l][at(top)];
    s.decks[l][at(top)] = -1;
    s.deck_size[l] = static_cast<std::int8_t>(top);
    return id;
}

// Takes card `id` off the face-up rows if it is there, refilling its slot. True if found.
bool take_from_rows(State& s, int id) {
    for (int l = 0; l < 3; ++l)
        for (int slot = 0; slot < 4; ++slot)
            if (s.rows[at(l)][at(slot)] == id) {
                s.rows[at(l)][at(slot)] = static_cast<std::int8_t>(draw(s, l + 1));
                return true;
            }
    return false;
}

// "The player with the most prestige points is declared the winner ... In case of a tie, the
// player who has bought the fewest development cards wins" (the rulebook); still tied: a shared
// victory (RULES.md). Seats out cannot win (ruling S4).
void score(State& s) {
    int best = -1;
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seats[at(i)];
        if (p.out) continue;
        if (best < 0 || p.points > s.seats[at(best)].points ||
            (p.points == s.seats[at(best)].points && p.cards < s.seats[at(best)].cards))
            best = i;
    }
    s.winners = 0;
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seats[at(i)];
        if (!p.out && p.points == s.seats[at(best)].points && p.cards == s.seats[at(best)].cards)
            s.winners = static_cast<std::uint8_t>(s.winners | (1u << i));
    }
    s.phase = Phase::Over;
}

// The turn is over: the next seat plays (clockwise, seats out skipped: ruling S4). "When a
// player reaches 15 prestige points, the current round is completed so that every player has
// played the same number of turns": the round ends where the start player's turn would come,
// whether that seat is still in or not (ruling S6). Every seat still in having passed in a row,
// nothing can change any more: the game is scored (ruling S2).
void end_turn(State& s) {
    s.turn += 1;
    s.phase = Phase::Action;
    int in = 0;
    for (int i = 0; i < s.players; ++i)
        if (!s.seats[at(i)].out) ++in;
    if (s.passes >= in) {
        score(s);
        return;
    }
    int next = s.current;
    while (true) {
        next = (next + 1) % s.players;
        if (s.final_round && next == s.start_player) {
            score(s);
            return;
        }
        if (!s.seats[at(next)].out) break;
    }
    s.current = static_cast<std::int8_t>(next);
}

void receive_noble(State& s, int n) {
    Player& p = me(s);
    s.nobles = static_cast<std::uint16_t>(s.nobles & ~(1u << n));
    p.nobles = static_cast<std::uint16_t>(p.nobles | (1u << n));
    p.points = static_cast<std::int8_t>(p.points + splendor::noble(n).points);
    if (p.points >= 15) s.final_round = true;
}

// "At the end of his turn, each player checks the noble tiles": one earned is received (it
// cannot be refused); several: the player chooses one (a Noble step); at most one a turn.
void nobles_then_end(State& s) {
    auto earned = earned_nobles(s);
    if (earned.size() > 1) {
        s.phase = Phase::Noble;
        return;
    }
    if (earned.size() == 1) receive_noble(s, earned[0]);
    end_turn(s);
}

// "A player can never have more than 10 tokens at the end of his turn (gold included); if he
// does, he must return tokens until he has 10" (ruling S7: one token per step), then nobles.
void after_action(State& s) {
    if (hand_size(me(s)) > 10) {
        s.phase = Phase::Return;
        return;
    }
    nobles_then_end(s);
}

}  // namespace

std::vector<Step> legal_steps(const State& s) {
    std::vector<Step> out;
    switch (s.phase) {
        case Phase::Over:
            break;
        case Phase::Action:
            takes(s, out);
            reserves(s, out);
            buys(s, out);
            if (out.empty()) out.push_back(Step{});  // ruling S2: no possible action, a pass
            break;
        case Phase::Return:
            for (int k = 0; k < kinds; ++k)
                if (me(s).tokens[at(k)] > 0) {
                    Step st;
                    st.kind = StepKind::Return;
                    st.gems[at(k)] = 1;
                    out.push_back(st);
                }
            break;
        case Phase::Noble:
            for (int n : earned_nobles(s)) {
                Step st;
                st.kind = StepKind::Noble;
                st.noble = static_cast<std::int8_t>(n);
                out.push_back(st);
            }
            break;
        case Phase::Confirm:  // confirm_turns is not modelled: the comparison keeps it off
            break;
    }
    return out;
}

State apply(const State& before, const Step& step) {
    State s = before;
    Player& p = me(s);
    switch (step.kind) {
        case StepKind::Take:
            for (int k = 0; k < kinds; ++k) {
                s.supply[at(k)] = static_cast<std::int8_t>(s.supply[at(k)] - step.gems[at(k)]);
                p.tokens[at(k)] = static_cast<std::int8_t>(p.tokens[at(k)] + step.gems[at(k)]);
            }
            s.passes = 0;
            after_action(s);
            break;
        case StepKind::Reserve: {
            // "Reserving a card is also the only way to get a gold token. If there is no gold
            // left, you can still reserve a card, but you will not get a gold token."
            splendor::Reserved r;
            if (step.card >= 0) {
                take_from_rows(s, step.card);
                r.card = step.card;
            } else {
                r.card = static_cast<std::int8_t>(draw(s, step.level));
                r.blind = true;
            }
            p.reserved[at(p.reserved_count)] = r;
            p.reserved_count = static_cast<std::int8_t>(p.reserved_count + 1);
            if (s.supply[gold] > 0) {
                s.supply[gold] = static_cast<std::int8_t>(s.supply[gold] - 1);
                p.tokens[gold] = static_cast<std::int8_t>(p.tokens[gold] + 1);
            }
            s.passes = 0;
            after_action(s);
            break;
        }
        case StepKind::Buy: {
            // "The tokens spent (gold included) go back to the centre of the table."
            for (int k = 0; k < kinds; ++k) {
                s.supply[at(k)] = static_cast<std::int8_t>(s.supply[at(k)] + step.gems[at(k)]);
                p.tokens[at(k)] = static_cast<std::int8_t>(p.tokens[at(k)] - step.gems[at(k)]);
            }
            if (!take_from_rows(s, step.card)) {
                // From the hand: the other reserves keep their order.
                int r = 0;
                while (p.reserved[at(r)].card != step.card) ++r;
                for (; r + 1 < p.reserved_count; ++r) p.reserved[at(r)] = p.reserved[at(r + 1)];
                p.reserved[at(p.reserved_count - 1)] = splendor::Reserved{};
                p.reserved_count = static_cast<std::int8_t>(p.reserved_count - 1);
            }
            const splendor::Card& c = splendor::card(step.card);
            p.bonuses[at(c.bonus)] = static_cast<std::int8_t>(p.bonuses[at(c.bonus)] + 1);
            p.points = static_cast<std::int8_t>(p.points + c.points);
            p.cards = static_cast<std::int8_t>(p.cards + 1);
            p.bought[at(step.card / 64)] |= std::uint64_t{1} << (step.card % 64);
            if (p.points >= 15) s.final_round = true;
            s.passes = 0;
            after_action(s);
            break;
        }
        case StepKind::Return:
            for (int k = 0; k < kinds; ++k) {
                s.supply[at(k)] = static_cast<std::int8_t>(s.supply[at(k)] + step.gems[at(k)]);
                p.tokens[at(k)] = static_cast<std::int8_t>(p.tokens[at(k)] - step.gems[at(k)]);
            }
            if (hand_size(p) <= 10) nobles_then_end(s);
            break;
        case StepKind::Noble:
            receive_noble(s, step.noble);
            end_turn(s);
            break;
        case StepKind::Pass:
            // A pass is a turn like any other: it ends like one (nobles earned included).
            s.passes = static_cast<std::int8_t>(s.passes + 1);
            after_action(s);
            break;
        case StepKind::Undo:  // not engine steps of a game without confirm_turns
        case StepKind::EndTurn:
            break;
    }
    return s;
}

std::uint64_t perft(const State& state, int depth) {
    if (depth == 0) return 1;
    std::uint64_t n = 0;
    // Qualified: the engine's own splendor::perft is found by argument-dependent lookup where
    // this file shares a unity batch with a source that includes it.
    for (const Step& st : legal_steps(state))
        n += splendor_reference::perft(apply(state, st), depth - 1);
    return n;
}

}  // namespace splendor_reference
