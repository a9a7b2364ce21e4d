// The one step generator and the application of steps: a turn is an action (take, reserve,
// buy, or pass when none is possible), returns while the hand holds more than ten tokens, a
// noble, then the next seat. Everything that needs no decision happens inside apply_step.

#include <algorithm>
#include <bit>
#include <cassert>

#include "engine/splendor/game.hpp"
#include "engine/splendor/payment.hpp"
#include "engine/splendor/turn_flow.hpp"

namespace splendor {
namespace {

std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

Step take_step(std::initializer_list<int> colours, int each) {
    Step st{.kind = StepKind::Take};
    for (int c : colours) st.gems[at(c)] = static_cast<std::int8_t>(each);
    return st;
}

// Take: every three different colours left in the bank (ruling: when fewer than three colours
// are left, one of each that is left, as one step), then two of a colour whose pile holds 4+.
void add_takes(const State& s, StepList& out) {
    int left[gem_colours];
    int n = 0;
    for (int c = 0; c < gem_colours; ++c)
        if (s.supply[at(c)] > 0) left[n++] = c;
    if (n >= 3) {
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                for (int k = j + 1; k < n; ++k)
                    out.push_back(take_step({left[i], left[j], left[k]}, 1));
    } else if (n == 2) {
        out.push_back(take_step({left[0], left[1]}, 1));
    } else if (n == 1) {
        out.push_back(take_step({left[0]}, 1));
    }
    for (int c = 0; c < gem_colours; ++c)
        if (s.supply[at(c)] >= 4) out.push_back(take_step({c}, 2));
}

// Reserve: any face-up card (level 1 to 3, slot order), then the top of any deck left.
void add_reserves(const State& s, StepList& out) {
    if (s.seat(s.current).reserved_count >= max_reserved) return;
    for (const auto& row : s.rows)
        for (auto id : row)
            if (id >= 0) out.push_back(Step{.kind = StepKind::Reserve, .card = id});
    for (int l = 0; l < levels; ++l)
        if (s.deck_size[at(l)] > 0)
            out.push_back(
                Step{.kind = StepKind::Reserve, .level = static_cast<std::int8_t>(l + 1)});
}

// Buy: each face-up card, then each reserved card, once per way to pay for it.
void add_buys(const State& s, StepList& out) {
    const Player& p = s.seat(s.current);
    auto add = [&](std::int8_t id) {
        for_each_payment(p, owed(p, card(id)), [&](const Tokens& pay) {
            out.push_back(Step{.kind = StepKind::Buy, .gems = pay, .card = id});
        });
    };
    for (const auto& row : s.rows)
        for (auto id : row)
            if (id >= 0) add(id);
    for (int r = 0; r < p.reserved_count; ++r) add(p.reserved[at(r)].card);
}

bool meets(const Player& p, const Noble& n) {
    for (int c = 0; c < gem_colours; ++c)
        if (p.bonuses[at(c)] < n.requirements[at(c)]) return false;
    return true;
}

// The nobles on the table whose requirements the current seat's bonuses meet (bits).
std::uint16_t earned_nobles(const State& s) {
    std::uint16_t bits = 0;
    for (int id = 0; id < noble_count; ++id)
        if ((s.nobles >> id & 1u) && meets(s.seat(s.current), noble(id)))
            bits = static_cast<std::uint16_t>(bits | (1u << id));
    return bits;
}

void note_points(State& s, const Player& p) {
    if (p.points >= winning_points) s.final_round = true;
}

void receive_noble(State& s, int id) {
    Player& p = s.seat(s.current);
    s.nobles = static_cast<std::uint16_t>(s.nobles & ~(1u << id));
    p.nobles = static_cast<std::uint16_t>(p.nobles | (1u << id));
    p.points = static_cast<std::int8_t>(p.points + noble(id).points);
    note_points(s, p);
}

// The card leaves its row slot, which is refilled from the top of its deck at once (stays
// empty once the deck is).
void take_from_row(State& s, int id) {
    auto l = at(card(id).level - 1);
    auto slot = std::find(s.rows[l].begin(), s.rows[l].end(), id);
    assert(slot != s.rows[l].end());
    if (s.deck_size[l] > 0) {
        auto top = at(--s.deck_size[l]);
        *slot = s.decks[l][top];
        s.decks[l][top] = -1;
    } else {
        *slot = -1;
    }
}

// The turn is over: the next seat plays, or the game ends (the final round's end, or ruling S2).
void pass_turn(State& s) {
    ++s.turn;
    if (s.passes >= detail::seats_in(s)) {
        detail::score_game(
            s);  // ruling S2: every seat still in passed in a row, nothing can change
        return;
    }
    detail::hand_on(s);
}

// Nothing is left to decide in the turn. With confirm_turns it waits for EndTurn, even the
// last turn of the final round (ruling UP1): the game is not over until its player says so.
void end_turn(State& s) {
    if (s.confirm_turns)
        s.phase = Phase::Confirm;
    else
        pass_turn(s);
}

// After the returns: one earned noble visits by itself, several ask for a choice.
void after_returns(State& s) {
    std::uint16_t earned = earned_nobles(s);
    if (std::popcount(earned) > 1) {
        s.phase = Phase::Noble;
        return;
    }
    if (earned) receive_noble(s, std::countr_zero(earned));
    end_turn(s);
}

void after_action(State& s) {
    if (total(s.seat(s.current).tokens) > max_tokens)
        s.phase = Phase::Return;
    else
        after_returns(s);
}

[[maybe_unused]] bool listed(const State& s, const Step& step) {
    StepList list;
    legal_steps(s, list);
    return std::find(list.begin(), list.end(), step) != list.end();
}

}  // namespace

int decider(const State& state) {
    return state.phase == Phase::Over ? -1 : state.current;
}

void legal_steps(const State& s, StepList& out) {
    out.clear();
    const Player& p = s.seat(s.current);
    switch (s.phase) {
        case Phase::Over:
            return;
        case Phase::Action:
            add_takes(s, out);
            add_reserves(s, out);
            add_buys(s, out);
            if (out.empty()) out.push_back(Step{.kind = StepKind::Pass});
            return;
        case Phase::Return:
            for (int k = 0; k < token_kinds; ++k)
                if (p.tokens[at(k)] > 0) {
                    Step st{.kind = StepKind::Return};
                    st.gems[at(k)] = 1;
                    out.push_back(st);
                }
            return;
        case Phase::Noble: {
            std::uint16_t earned = earned_nobles(s);
            for (int id = 0; id < noble_count; ++id)
                if (earned >> id & 1u)
                    out.push_back(
                        Step{.kind = StepKind::Noble, .noble = static_cast<std::int8_t>(id)});
            return;
        }
        case Phase::Confirm:
            out.push_back(Step{.kind = StepKind::EndTurn});
            return;
    }
}

void apply_step(State& s, const Step& step) {
    assert(listed(s, step));
    Player& p = s.seat(s.current);
    switch (step.kind) {
        case StepKind::Take:
            for (int k = 0; k < token_kinds; ++k) {
                p.tokens[at(k)] = static_cast<std::int8_t>(p.tokens[at(k)] + step.gems[at(k)]);
                s.supply[at(k)] = static_cast<std::int8_t>(s.supply[at(k)] - step.gems[at(k)]);
            }
            s.passes = 0;
            after_action(s);
            return;
        case StepKind::Reserve: {
            Reserved r;
            if (step.card >= 0) {
                take_from_row(s, step.card);
                r = {step.card, false};
            } else {
                auto l = at(step.level - 1);
                auto top = at(--s.deck_size[l]);
                r = {s.decks[l][top], true};
                s.decks[l][top] = -1;
            }
            p.reserved[at(p.reserved_count++)] = r;
            if (s.supply[Gold] > 0) {
                --s.supply[Gold];
                ++p.tokens[Gold];
            }
            s.passes = 0;
            after_action(s);
            return;
        }
        case StepKind::Buy: {
            for (int k = 0; k < token_kinds; ++k) {
                p.tokens[at(k)] = static_cast<std::int8_t>(p.tokens[at(k)] - step.gems[at(k)]);
                s.supply[at(k)] = static_cast<std::int8_t>(s.supply[at(k)] + step.gems[at(k)]);
            }
            auto held = std::find_if(p.reserved.begin(), p.reserved.begin() + p.reserved_count,
                                     [&](const Reserved& r) { return r.card == step.card; });
            if (held != p.reserved.begin() + p.reserved_count) {
                std::move(held + 1, p.reserved.begin() + p.reserved_count,
                          held);  // keep the order taken
                p.reserved[at(--p.reserved_count)] = Reserved{};
            } else {
                take_from_row(s, step.card);
            }
            const Card& c = card(step.card);
            ++p.bonuses[c.bonus];
            p.points = static_cast<std::int8_t>(p.points + c.points);
            ++p.cards;
            mark_bought(p, step.card);
            note_points(s, p);
            s.passes = 0;
            after_action(s);
            return;
        }
        case StepKind::Pass:
            ++s.passes;
            after_action(s);
            return;
        case StepKind::Return:
            for (int k = 0; k < token_kinds; ++k) {
                p.tokens[at(k)] = static_cast<std::int8_t>(p.tokens[at(k)] - step.gems[at(k)]);
                s.supply[at(k)] = static_cast<std::int8_t>(s.supply[at(k)] + step.gems[at(k)]);
            }
            if (total(p.tokens) <= max_tokens) after_returns(s);
            return;
        case StepKind::Noble:
            receive_noble(s, step.noble);
            end_turn(s);
            return;
        case StepKind::EndTurn:
            pass_turn(s);
            return;
        case StepKind::Undo:
            assert(false && "the protocol takes steps back; the engine never lists Undo");
            return;
    }
}

bool closes_undo(const State& before, const Step& step, const State& after) {
    if (step.kind == StepKind::EndTurn || after.phase == Phase::Over) return true;
    // The turn passed by itself (confirm_turns off): the next seat may already have looked.
    if (after.current != before.current || after.turn != before.turn) return true;
    const Player& p = before.seat(before.current);
    switch (step.kind) {
        case StepKind::Reserve:
            if (step.level > 0) return true;  // the deck's top card is seen by its new owner
            // A face-up card is replaced from its deck at once, a card nobody saw before; an
            // empty deck shows nothing new (ruling UP2).
            return before.deck_size[at(card(step.card).level - 1)] > 0;
        case StepKind::Buy: {
            auto held = std::find_if(p.reserved.begin(), p.reserved.begin() + p.reserved_count,
                                     [&](const Reserved& r) { return r.card == step.card; });
            if (held != p.reserved.begin() + p.reserved_count)
                return held->blind;  // a blind reserve bought is shown to everyone (UP3)
            return before.deck_size[at(card(step.card).level - 1)] > 0;
        }
        case StepKind::Take:
        case StepKind::Return:
        case StepKind::Noble:
        case StepKind::Pass:
            return false;  // nothing hidden comes to light, nothing is drawn
        case StepKind::Undo:
        case StepKind::EndTurn:
            return true;
    }
    return true;
}

std::optional<std::string> try_step(State& state, const Step& step) {
    if (state.phase == Phase::Over) return "the game is over";
    if (!listed(state, step)) return "not a legal step now";
    apply_step(state, step);
    return std::nullopt;
}

}  // namespace splendor
