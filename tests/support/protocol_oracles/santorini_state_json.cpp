// The tree of a Santorini view's `state` object, built field by field with nlohmann::json: the
// reference the text writer (protocol/santorini/view.cpp, write_state and write_state_patch) is
// proven against on random games (tests/protocol/santorini_view_test.cpp). Test-only: the
// server writes text and never builds this tree.

#include <algorithm>
#include <bit>
#include <string>

#include "engine/santorini/game.hpp"
#include "engine/santorini/power_catalog.hpp"
#include "engine/santorini/power_rules.hpp"
#include "engine/santorini/powers/card_tokens.hpp"
#include "engine/santorini/powers/chaos.hpp"
#include "engine/santorini/powers/hero.hpp"
#include "engine/santorini/powers/morpheus.hpp"
#include "engine/santorini/square.hpp"
#include "protocol/santorini/json.hpp"
#include "protocol/santorini/names.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

namespace protocol {

using nlohmann::json;
using santorini::PowerId;
using santorini::Square;
using santorini::Step;

namespace {

// Written here on their own rather than shared with the server's writers: an oracle that
// borrowed them would agree with them by construction.
json power_json(PowerId p) {
    if (p == PowerId::None) return nullptr;
    return std::string(santorini::power_info(p).key);
}

json square_json(Square s) {
    if (s == santorini::no_square) return nullptr;
    return santorini::square_name(s);
}

json squares_json(santorini::Bitboard b) {
    json out = json::array();
    for (Square s = 0; s < santorini::square_count; ++s)
        if (b & santorini::bit(s)) out.push_back(santorini::square_name(s));
    return out;
}

json powers_json(std::uint64_t bits) {
    json out = json::array();
    for (int p = 1; p <= santorini::power_count; ++p)
        if (bits & (std::uint64_t{1} << p)) out.push_back(power_json(static_cast<PowerId>(p)));
    return out;
}

json worker_ids_json(const santorini::State& view, std::uint64_t bits) {
    json out = json::array();
    for (int w = 0; w < view.worker_count; ++w)
        if (bits >> w & 1u) out.push_back(w);
    return out;
}

// A direction as `aim` steps name it, or null while not set (Aeolus' wind, Siren's song).
json direction_json(int d) {
    if (d < 0 || d >= 8) return nullptr;
    return std::string(direction_names[static_cast<std::size_t>(d)]);
}

bool in_a_turn(const santorini::State& view) {
    using santorini::Phase;
    return view.phase == Phase::Begin || view.phase == Phase::AfterMove ||
           view.phase == Phase::AfterBuild || view.phase == Phase::End;
}

// The state a power card carries, from the seat it lies on (`card`; with the Golden Fleece the
// card beside the board keeps its state on seat 0), read for a client in the card's own terms.
// Only what the table may see: Chaos' deck is face down, so only its size is shown.
json card_state_json(const santorini::State& view, int card, PowerId power) {
    const auto u = static_cast<std::size_t>(card);
    const auto& seat = view.card(card);
    json j = {{"power", power_json(power)},
              {"acting_as", power_json(power == PowerId::None ? power : view.acting_as[u])},
              {"memory", seat.memory},
              {"counter", seat.counter},
              {"tokens", squares_json(view.card(card).tokens)}};
    // The powers whose state the card gives: its own, and the god it acts as (Chaos).
    for (PowerId p : {power, power == PowerId::None ? power : view.acting_as[u]}) switch (p) {
            case PowerId::Athena:
                j["moved_up"] = seat.memory != 0;
                break;
            case PowerId::Aphrodite:
                j["bound"] = worker_ids_json(view, view.card(card).data & 0xFFFF);
                break;
            case PowerId::Chaos:
                j["deck_size"] = std::popcount(santorini::powers::chaos_deck(view, card));
                j["discards"] = powers_json(santorini::powers::chaos_discards(view, card));
                break;
            case PowerId::Dionysus:
                j["extra_turns"] = seat.counter;
                break;
            case PowerId::Morpheus: {
                j["stored_builds"] = santorini::powers::morpheus_pieces(view, card);
                break;
            }
            // Powers 31-45 in their own words, read through powers/card_tokens.hpp. The
            // secrets (the Fate, the Abyss) read as not set where the power's `hide` cleared
            // them: the view is already projected, nothing is worked out here.
            case PowerId::Aeolus:
                j["wind"] = direction_json(santorini::powers::wind(view, card));
                break;
            case PowerId::Siren:
                j["song"] = direction_json(santorini::powers::song(view, card));
                break;
            case PowerId::Charybdis:
                j["whirlpools"] = squares_json(santorini::powers::whirlpools(view, card));
                j["whirlpools_on_card"] =
                    std::max(0, santorini::powers::whirlpools_on_card(view, card));
                break;
            case PowerId::Clio:
                j["coins"] = squares_json(santorini::powers::coins(view, card));
                j["coins_on_card"] = std::max(0, santorini::powers::coins_on_card(view, card));
                break;
            case PowerId::EuropaTalus:
                j["talus"] = square_json(santorini::powers::talus(view, card));
                break;
            case PowerId::Moerae:
                j["fate"] = squares_json(santorini::powers::fate(view, card));
                break;
            case PowerId::Tartarus:
                j["abyss"] = square_json(santorini::powers::abyss(view, card));
                break;
            case PowerId::Gaea:
            case PowerId::Jason: {
                // The workers still on the card: the reserve workers of the side it plays.
                int reserve = 0;
                for (int w = 0; w < view.worker_count; ++w)
                    if (view.worker(w).side == view.seat(card).side && view.worker(w).in_reserve)
                        ++reserve;
                j["reserve"] = reserve;
                break;
            }
            default:
                break;
        }
    // A hero's once-per-game power, and Adonis' choice (powers/hero.hpp).
    if (power != PowerId::None && santorini::power_info(power).category == santorini::PowerCategory::Hero)
        j["spent"] = santorini::powers::hero_spent(view, card);
    if (power == PowerId::Adonis) {
        const int charmed = santorini::powers::adonis_charmed(view, card);
        j["charmed"] = charmed >= 0 ? json(charmed) : json(nullptr);
    }
    return j;
}

json this_turn_json(const santorini::State& view) {
    namespace flag = santorini::turn_flag;
    const auto& t = view.turn;
    auto has = [&](std::uint16_t f) { return (t.flags & f) != 0; };
    return {{"seat", t.seat},
            {"worker", t.worker >= 0 ? json(t.worker) : json(nullptr)},
            {"start", square_json(t.start)},
            {"moved", worker_ids_json(view, t.moved_workers)},
            {"moves", t.moves},
            {"builds", t.builds},
            {"last_build", square_json(t.last_build)},
            {"moved_up", has(flag::moved_up)},
            {"no_move_up", has(flag::no_move_up)},
            {"dome_built", has(flag::dome_built)},
            {"built_before_move", has(flag::built_before_move)},
            {"extra_turn", has(flag::extra_turn)}};
}

}  // namespace

json state_json(const santorini::State& view, const santorini::StepList* legal) {
    json j;
    j["phase"] = phase_name(view.phase);
    const int decider = santorini::decider(view);
    j["decider"] = decider >= 0 ? json(decider) : json(nullptr);
    j["turn"] = view.turn.number;
    j["players"] = view.seat_count;

    json board = json::array();
    for (Square s = 0; s < santorini::square_count; ++s)
        board.push_back(std::to_string(view.board.height(s)) + (view.board.has_dome(s) ? "D" : ""));
    j["board"] = std::move(board);

    json workers = json::array();
    for (int i = 0; i < view.worker_count; ++i) {
        const auto& w = view.worker(i);
        workers.push_back({{"id", i},
                           {"side", w.side},
                           {"square", square_json(w.square)},
                           {"female", w.female},
                           {"reserve", w.in_reserve}});
    }
    j["workers"] = std::move(workers);

    json powers = json::array(), out = json::array(), memory = json::array(),
         winners = json::array();
    for (int seat = 0; seat < view.seat_count; ++seat) {
        powers.push_back(power_json(view.seat(seat).power));
        out.push_back(view.seat(seat).out);
        memory.push_back(view.card(seat).memory);
        if (view.winners & (1u << seat)) winners.push_back(seat);
    }
    j["powers"] = std::move(powers);
    j["out"] = std::move(out);
    j["winners"] = std::move(winners);

    json pool = json::array(), offer = json::array();
    for (int p = 1; p <= santorini::power_count; ++p)
        if (view.setup.pool & (std::uint64_t{1} << p))
            pool.push_back(power_json(static_cast<PowerId>(p)));
    for (int i = 0; i < view.setup.offer_size; ++i)
        offer.push_back(power_json(view.setup.offer[static_cast<std::size_t>(i)]));
    j["draft"] = {{"mode", draft_name(view.setup.mode)},
                  {"challenger", view.setup.challenger},
                  {"start_player",
                   view.setup.start_player >= 0 ? json(view.setup.start_player) : json(nullptr)},
                  {"pool", std::move(pool)},
                  {"offer", std::move(offer)},
                  {"hero_seat",
                   view.setup.hero_seat >= 0 ? json(view.setup.hero_seat) : json(nullptr)}};

    j["fleece"] = view.setup.golden_fleece ? json{{"power", power_json(view.fleece_power)},
                                                  {"ram", square_json(view.ram)}}
                                           : json(nullptr);
    j["memory"] = std::move(memory);

    json cards = json::array();
    for (int seat = 0; seat < view.seat_count; ++seat) {
        json card = card_state_json(view, seat, view.seat(seat).power);
        card["seat"] = seat;
        card["holder"] = view.holder[static_cast<std::size_t>(seat)];
        cards.push_back(std::move(card));
    }
    j["cards"] = std::move(cards);
    if (view.setup.golden_fleece) {
        json holders = json::array();
        for (int seat = 0; seat < view.seat_count; ++seat)
            if (view.fleece_holders >> seat & 1u) holders.push_back(seat);
        j["fleece"]["holders"] = std::move(holders);
        j["fleece"]["card"] = card_state_json(view, 0, view.fleece_power);
    }
    j["this_turn"] = in_a_turn(view) || view.over() ? this_turn_json(view) : json(nullptr);

    if (legal != nullptr) {
        json steps = json::array();
        for (const Step& s : *legal) steps.push_back(step_json(view, s));
        j["legal"] = std::move(steps);
    }
    return j;
}

std::string status_name(const santorini::State& s) {
    return std::string(status_key(s.phase));
}

}  // namespace protocol
