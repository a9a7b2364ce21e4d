#pragma once
// Scenario test helpers: a position from notation, steps by their text. Every step a test plays
// must be legal, so a scenario fails at the first step the engine refuses.

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <initializer_list>
#include <string_view>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"
#include "engine/santorini/notation.hpp"

/// The position written in `text`; the test fails if it does not parse.
inline santorini::State position(const char* text) {
    auto r = santorini::parse_notation(text);
    if (!r.ok()) FAIL("cannot parse '" << text << "': " << r.error().message);
    return *r;
}

/// True if the step written as `text` is legal for the decider now.
inline bool legal(const santorini::State& state, const char* text) {
    return santorini::parse_step(state, text).has_value();
}

/// Every legal step of the decider, as text.
inline std::vector<std::string> legal_texts(const santorini::State& state) {
    santorini::StepList list;
    santorini::legal_steps(state, list);
    std::vector<std::string> out;
    for (const auto& st : list) out.push_back(santorini::to_text(st));
    return out;
}

/// Plays the steps in order; each must be legal when its turn comes.
inline void play(santorini::State& state, std::initializer_list<const char*> steps) {
    for (const char* text : steps) {
        INFO("step '" << text << "' in " << santorini::to_notation(state));
        auto st = santorini::parse_step(state, text);
        REQUIRE(st.has_value());
        santorini::apply_step(state, *st);
    }
}

/// `v` in sorted order (legal step lists are compared as sets).
inline std::vector<std::string> sorted(std::vector<std::string> v) {
    std::sort(v.begin(), v.end());
    return v;
}

/// The legal steps whose text starts with `prefix` ("move C3", "build"), sorted.
inline std::vector<std::string> legal_starting(const santorini::State& state, std::string_view prefix) {
    std::vector<std::string> out;
    for (auto& t : legal_texts(state))
        if (t.starts_with(prefix)) out.push_back(t);
    return sorted(out);
}

/// A new game with `powers` dealt to the seats in order (with `fleece`, the one Golden Fleece
/// power), the first seat placing first: setup from its first step.
inline santorini::State fixed_game(std::vector<santorini::PowerId> powers, bool fleece) {
    santorini::Settings st;
    st.golden_fleece = fleece;
    st.draft = santorini::DraftMode::Fixed;
    st.powers = std::move(powers);
    st.start_player = 0;
    auto r = santorini::new_game(st);
    REQUIRE(r.ok());
    return *r;
}

/// The eight `aim` steps (Aeolus' Wind, Siren's Song), sorted as legal_starting sorts them.
inline const std::vector<std::string> all_aims = {"aim E",  "aim N",  "aim NE", "aim NW",
                                                  "aim S",  "aim SE", "aim SW", "aim W"};
