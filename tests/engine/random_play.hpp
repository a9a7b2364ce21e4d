#pragma once
// The random games' player and checks, shared by random_play_test.cpp (games by draft and player
// count) and random_sweep_test.cpp (every pair of powers, a sample of 3- and 4-player tables).
// After every step the state must be consistent; every game must end, replay bit for bit from
// its settings and steps, and write a notation at each turn start that reads back to the same
// notation and the same legal steps. Failures are collected as text and reported once per
// group, so one bug does not produce thousands of assertion lines (and the loop stays fast).

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "engine/santorini/game.hpp"

namespace random_play {

/// A game still running after this many steps is recorded (and fails its group).
inline constexpr int step_bound = 400;

/// `n` games, or the percentage of them SANTORINI_RANDOM_GAMES_PERCENT asks for (at least one).
int games(int n);

/// What a group of games did, and the first few failures.
struct Outcome {
    int games = 0;
    int finished = 0;
    int over_bound = 0;
    long steps = 0;
    std::vector<std::string> failures;  ///< the first few, with the game's settings and step
    int failure_count = 0;
};

/// Called before each step is applied, with the state it is taken in.
using StepObserver = std::function<void(const santorini::State&, const santorini::Step&)>;
/// Picks the index of the step to play from the decider's legal list (never empty).
using StepChooser =
    std::function<int(const santorini::State&, const santorini::StepList&, std::mt19937_64&)>;

/// Plays one game from `st`, each step drawn by `choose` (uniformly when null), and records what
/// went wrong in `o`.
void play_game(const santorini::Settings& st, std::mt19937_64& rng, Outcome& o,
               const StepObserver& observe = {}, const StepChooser& choose = {});

/// Checks a group: no failure, and every game ended by the rules within the step bound.
void report(const Outcome& o, const char* group);

/// The settings in one line (players, draft, seed, challenger, start player, fleece, powers).
std::string describe(const santorini::Settings& st);

/// Settings for `players` with `draft`: a random challenger, start player (or none) and seed.
santorini::Settings base(std::mt19937_64& rng, int players, santorini::DraftMode draft);

/// True if `step`, taken by the decider of `s` in play, is a step of the decider's power: one a
/// game without powers never offers (more in random_play.cpp). With secrets in play, judged on
/// the true step the chosen one stands for (Apollo's move onto a hidden worker is his swap).
bool power_step(const santorini::State& s, const santorini::Step& step);

}  // namespace random_play
