#pragma once
// Splendor scenario helpers: a position from notation, steps by their text (notation.hpp).
// Every step a test plays must be legal, so a scenario fails at the first step refused.

#include <algorithm>
#include <catch2/catch_test_macros.hpp>
#include <initializer_list>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "engine/splendor/game.hpp"
#include "engine/splendor/notation.hpp"
#include "engine/splendor/view.hpp"

/// The position written in `text`; the test fails if it does not parse.
inline splendor::State position(const std::string& text) {
    auto r = splendor::parse_notation(text);
    if (auto* e = std::get_if<std::string>(&r)) FAIL("cannot parse '" << text << "': " << *e);
    return std::get<splendor::State>(r);
}

/// A new game; the test fails if the settings are refused.
inline splendor::State new_state(int players, int start_player, std::uint64_t seed) {
    auto r = splendor::new_game({.players = players, .start_player = start_player, .seed = seed});
    REQUIRE(std::holds_alternative<splendor::State>(r));
    return std::get<splendor::State>(r);
}

/// True if the step written as `text` is legal for the decider now.
inline bool legal(const splendor::State& state, std::string_view text) {
    return splendor::parse_step(state, text).has_value();
}

/// Every legal step of the decider, as text, in the generator's order.
inline std::vector<std::string> legal_texts(const splendor::State& state) {
    splendor::StepList list;
    splendor::legal_steps(state, list);
    std::vector<std::string> out;
    for (const auto& st : list) out.push_back(splendor::to_text(st));
    return out;
}

/// The legal steps whose text starts with `prefix` ("take", "buy #12"), in the generator's order.
inline std::vector<std::string> legal_starting(const splendor::State& state,
                                               std::string_view prefix) {
    std::vector<std::string> out;
    for (auto& t : legal_texts(state))
        if (t.starts_with(prefix)) out.push_back(t);
    return out;
}

/// The step written as `text`, which must be legal now.
inline splendor::Step step(const splendor::State& state, std::string_view text) {
    INFO("step '" << text << "' in " << splendor::to_notation(state));
    auto st = splendor::parse_step(state, text);
    REQUIRE(st.has_value());
    return *st;
}

/// Plays the steps in order; each must be legal when its turn comes.
inline void play(splendor::State& state, std::initializer_list<const char*> steps) {
    for (const char* text : steps) splendor::apply_step(state, step(state, text));
}

/// The history line `viewer` reads for the step written as `text`, played now by the decider.
inline std::string line(const splendor::State& state, std::string_view text, int viewer) {
    return splendor::step_text_for(state, step(state, text), splendor::decider(state), viewer);
}

/// `v` in sorted order.
inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

/// Rows and nobles most scenarios use: level 1 white, blue, green, red; level 2 and 3 the
/// same colours; nobles 0 (4 white 4 blue), 3 (4 green 4 red) and 7 (3 white 3 red 3 black).
inline constexpr const char* table =
    "nobles=0,3,7 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82";
/// The same for 3 players (one more noble: 9, 3 green 3 red 3 black) and 4 (and 1: 4 white
/// 4 black).
inline constexpr const char* table3 =
    "nobles=0,3,7,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82";
inline constexpr const char* table4 =
    "nobles=0,1,3,7,9 row1=0,8,16,24 row2=40,46,52,58 row3=70,74,78,82";
