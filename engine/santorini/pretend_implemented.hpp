#pragma once
// Tests only: play as if every power were implemented. The handicap game's server tests deal
// heroes before their rules exist (the heroes then play without their powers); the engine's
// draft tests use detail::new_game directly instead. Never used by the server itself.

namespace santorini {

/// While an instance lives, the public `eligible_powers`, `validate` and `new_game` (game.hpp)
/// treat every power as implemented, in the whole process. Create it before the games it is
/// for and keep only one at a time (a plain flag, not counted).
class PretendAllImplemented {
public:
    PretendAllImplemented();
    ~PretendAllImplemented();
    PretendAllImplemented(const PretendAllImplemented&) = delete;
    PretendAllImplemented& operator=(const PretendAllImplemented&) = delete;
};

}  // namespace santorini
