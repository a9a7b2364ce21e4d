// Views and history lines: the only place that decides what a viewer may learn. A deck's
// order is never shown; a card reserved from a deck is shown to its owner and, in a finished
// game's replay, to the `revealed` viewer.

#include "engine/splendor/view.hpp"

#include "engine/splendor/game.hpp"

namespace splendor {
namespace {

std::size_t at(int i) {
    return static_cast<std::size_t>(i);
}

bool sees_reserve(int viewer, int owner, const Reserved& r) {
    return !r.blind || viewer == revealed || viewer == owner;
}

// `#12 (level 1 white, 0 points)`
std::string card_words(int id) {
    const Card& c = card(id);
    return "#" + std::to_string(id) + " (level " + std::to_string(c.level) + " " +
           std::string(gem_name(c.bonus)) + ", " + std::to_string(c.points) +
           (c.points == 1 ? " point)" : " points)");
}

std::string action_words(const State& before, const Step& step, int actor, int viewer) {
    switch (step.kind) {
        case StepKind::Take: {
            std::string text = "take";
            for (int k = 0; k < gem_colours; ++k)
                for (int n = 0; n < step.gems[at(k)]; ++n)
                    text += " " + std::string(gem_name(static_cast<Gem>(k)));
            return text;
        }
        case StepKind::Reserve: {
            if (step.card >= 0) return "reserve " + card_words(step.card);
            std::string deck = "from the level " + std::to_string(step.level) + " deck";
            if (viewer != revealed && viewer != actor) return "reserve " + deck;
            auto l = at(step.level - 1);
            int top = before.deck_size[l] > 0 ? before.decks[l][at(before.deck_size[l] - 1)] : -1;
            if (top < 0) return "reserve " + deck;
            return "reserve " + card_words(top) + " " + deck;
        }
        case StepKind::Buy: {
            std::string text = "buy " + card_words(step.card) + " for";
            bool paid = false;
            for (int k = 0; k < token_kinds; ++k)
                if (step.gems[at(k)] > 0) {
                    text += " " + std::string(gem_name(static_cast<Gem>(k))) + " " +
                            std::to_string(step.gems[at(k)]);
                    paid = true;
                }
            return paid ? text : text + " nothing";
        }
        case StepKind::Return:
            for (int k = 0; k < token_kinds; ++k)
                if (step.gems[at(k)] > 0)
                    return "return " + std::string(gem_name(static_cast<Gem>(k)));
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

}  // namespace

View view_for(const State& s, int viewer) {
    View v;
    v.players = s.players;
    for (int i = 0; i < s.players; ++i) {
        const Player& p = s.seat(i);
        SeatView& sv = v.seats[at(i)];
        sv.tokens = p.tokens;
        sv.bonuses = p.bonuses;
        sv.points = p.points;
        sv.cards = p.cards;
        sv.reserved_count = p.reserved_count;
        for (int r = 0; r < p.reserved_count; ++r) {
            const Reserved& res = p.reserved[at(r)];
            sv.reserved[at(r)] =
                ReservedView{.card = sees_reserve(viewer, i, res) ? res.card : std::int8_t{-1},
                             .level = card(res.card).level,
                             .blind = res.blind};
        }
        sv.nobles = p.nobles;
        sv.out = p.out;
    }
    v.supply = s.supply;
    v.deck_size = s.deck_size;
    v.rows = s.rows;
    v.nobles = s.nobles;
    v.start_player = s.start_player;
    v.current = s.current;
    v.phase = s.phase;
    v.final_round = s.final_round;
    v.turn = s.turn;
    v.winners = s.winners;
    return v;
}

std::string step_text_for(const State& before, const Step& step, int actor, int viewer) {
    std::string text = action_words(before, step, actor, viewer);
    if (step.kind == StepKind::Noble || step.kind == StepKind::Undo ||
        step.kind == StepKind::EndTurn || before.phase == Phase::Over)
        return text;
    // A noble that came by itself at the end of the turn this step ended.
    State after = before;
    apply_step(after, step);
    auto came = static_cast<std::uint16_t>(after.seat(before.current).nobles &
                                           ~before.seat(before.current).nobles);
    for (int id = 0; id < noble_count; ++id)
        if (came >> id & 1u) text += "; noble #" + std::to_string(id) + " visits";
    return text;
}

}  // namespace splendor
