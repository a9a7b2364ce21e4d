#pragma once
// Shared by the protocol tests: random games through the real engine (with the draft played as
// steps), and a match view built the way docs/protocol.md describes it, so that JSON of real
// states — not hand-written samples — is what gets round-tripped, diffed and schema-checked.

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/view.hpp"
#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"
#include "tests/support/protocol_oracles/oracles.hpp"

namespace protocol_test {

/// `n` random games, or the percentage of them SANTORINI_RANDOM_GAMES_PERCENT asks for (at
/// least one): the sanitizer builds play a tenth (scripts/test), the release build all of them.
inline int random_games(int n) {
    const char* percent = std::getenv("SANTORINI_RANDOM_GAMES_PERCENT");
    if (percent == nullptr) return n;
    const int p = std::atoi(percent);
    return p <= 0 || p >= 100 ? n : std::max(1, n * p / 100);
}

/// A game as a list of states: states[i + 1] is states[i] after steps[i].
struct Game {
    santorini::Settings settings;
    std::vector<santorini::State> states;
    std::vector<santorini::Step> steps;
};

/// Plays random legal steps from `settings` until the game ends or `max_steps` were played.
inline Game play_random(const santorini::Settings& settings, std::uint64_t seed,
                        int max_steps = 400) {
    Game g;
    g.settings = settings;
    auto start = santorini::new_game(settings);
    if (!start.ok()) return g;
    g.states.push_back(*start);
    std::mt19937_64 rng(seed);
    santorini::StepList legal;
    for (int i = 0; i < max_steps && !g.states.back().over(); ++i) {
        legal.clear();
        santorini::legal_steps(g.states.back(), legal);
        if (legal.empty()) break;
        const auto step = legal[static_cast<int>(rng() % static_cast<std::uint64_t>(legal.size()))];
        santorini::State next = g.states.back();
        santorini::apply_step(next, step);
        g.steps.push_back(step);
        g.states.push_back(next);
    }
    return g;
}

/// A spread of settings with powers: 2, 3 and 4 players, every draft mode, and the fleece.
inline std::vector<santorini::Settings> varied_settings() {
    using santorini::DraftMode;
    std::vector<santorini::Settings> out;
    for (int players = 2; players <= 4; ++players)
        for (DraftMode mode : {DraftMode::Random, DraftMode::SubsetOffer, DraftMode::FullOffer}) {
            santorini::Settings s;
            s.players = players;
            s.draft = mode;
            s.challenger = players - 1;
            out.push_back(s);
        }
    santorini::Settings none;  // no powers: the start player is still named as a step
    out.push_back(none);
    santorini::Settings fleece;
    fleece.draft = DraftMode::FullOffer;
    fleece.golden_fleece = true;
    out.push_back(fleece);
    return out;
}

/// Fixed deals that put every implemented power in play with 2, 3 and 4 players (each where
/// the catalog allows it), beside other implemented powers it is not banned with: so random
/// games reach each power's own steps and state, whatever the draft would have dealt.
inline std::vector<santorini::Settings> every_power_settings() {
    using santorini::PowerId;
    std::vector<santorini::Settings> out;
    for (int players = 2; players <= 4; ++players) {
        const std::vector<PowerId> eligible = santorini::eligible_powers(players, false);
        for (std::size_t i = 0; i < eligible.size(); ++i) {
            santorini::Settings s;
            s.players = players;
            s.draft = santorini::DraftMode::Fixed;
            s.powers = {eligible[i]};
            // The others: the next eligible powers that clash with none already dealt.
            for (std::size_t k = 1;
                 k < eligible.size() && static_cast<int>(s.powers.size()) < players; ++k) {
                const PowerId p = eligible[(i + k) % eligible.size()];
                bool clash = false;
                for (PowerId q : s.powers) clash |= q == p || santorini::banned_pair(p, q);
                if (!clash) s.powers.push_back(p);
            }
            if (!santorini::validate(s)) out.push_back(s);
        }
    }
    return out;
}

/// Every power implemented and playable with `players` (the keys), for coverage checks.
inline std::vector<std::string> implemented_power_keys(int players) {
    std::vector<std::string> keys;
    for (auto p : santorini::eligible_powers(players, false))
        keys.emplace_back(santorini::power_info(p).key);
    return keys;
}

/// The match view of `s` for `viewer` (a seat or santorini::spectator), as a server builds it.
inline nlohmann::json match_view(const santorini::State& s, int viewer,
                                 const std::vector<std::string>& history) {
    using nlohmann::json;
    const santorini::State v = santorini::view_for(s, viewer);
    santorini::StepList legal;
    const bool decides = viewer != santorini::spectator && santorini::decider(s) == viewer;
    if (decides) santorini::legal_steps(s, legal);
    json seats = json::array(), winners = json::array(), remaining = json::array();
    for (int i = 0; i < s.seat_count; ++i) {
        const auto p = s.seat(i).power;
        seats.push_back(
            {{"seat", i},
             {"player",
              {{"id", "p_player" + std::to_string(i)}, {"name", "Player " + std::to_string(i)}}},
             {"power",
              p == santorini::PowerId::None ? json(nullptr) : json(santorini::power_info(p).key)},
             {"side", s.seat(i).side},
             {"out", s.seat(i).out},
             {"connected", i != 1},
             // Seat 1 is away: the abandonment rule's fixed instants (docs/protocol.md).
             {"away", i == 1 && !s.over() ? json{{"since_ms", 1795000000000},
                                                 {"claim_ms", 1795000060000},
                                                 {"deadline_ms", 1795000300000},
                                                 {"claim", s.turn.seat == 0 ? "abort" : "win"}}
                                          : json(nullptr)}});
        if (s.winners & (1u << i)) winners.push_back(i);
        remaining.push_back(300000 - 1000 * static_cast<int>(history.size()) * (i + 1) % 300000);
    }
    return {{"match", "m_test"},
            {"game", "santorini"},
            {"status", protocol::status_name(s)},
            {"seats", seats},
            {"you", viewer == santorini::spectator ? json(nullptr) : json(viewer)},
            {"spectators", 2},
            {"clock",
             {{"kind", "realtime"},
              {"remaining_ms", remaining},
              {"running", s.over() ? json(nullptr) : json(s.turn.seat)}}},
            {"result", s.over() ? json{{"winners", winners}, {"reason", "win"}} : json(nullptr)},
            {"chat", json::array()},
            {"history", history},
            {"state", protocol::state_json(v, decides ? &legal : nullptr)}};
}

}  // namespace protocol_test
