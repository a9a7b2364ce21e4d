#pragma once
// Taking back steps within a turn (docs/protocol.md, "Taking back a step (undo) and confirming
// turns"): the states before each step the deciding seat played in its current turn, latest
// last, so that an `undo` step restores the one before its last step. A Game keeps one next to
// its engine state. Which steps close the door (the turn passed, information was revealed,
// randomness was drawn) is the engine's decision (santorini::closes_undo,
// splendor::closes_undo); this class only remembers.
//
// The stack is part of the game's value: an undo is a stored step, so replaying the stored
// steps (recovery, replays) rebuilds the same stack and the same states.

#include <cstddef>
#include <vector>

namespace protocol {

/// The earlier states of the current turn that `undo` may restore, at most `limit` of them.
template <class State>
class TurnUndo {
  public:
    /// How many steps in a row can be taken back; older ones are forgotten first.
    static constexpr std::size_t limit = 16;

    /// A step was played from `before`. `undoable`: it may be taken back (the engine says the
    /// door is still open); otherwise everything remembered is forgotten.
    void played(const State& before, bool undoable) {
        if (!undoable) {
            states_.clear();
            return;
        }
        if (states_.size() == limit) states_.erase(states_.begin());
        states_.push_back(before);
    }
    /// True if an `undo` may be played now.
    bool available() const { return !states_.empty(); }
    /// The state before the latest remembered step, forgotten here (`available()` first).
    State take_back() {
        State s = states_.back();
        states_.pop_back();
        return s;
    }
    /// Forgets everything (a concession, a timeout: the turn is over).
    void clear() { states_.clear(); }
    /// How many steps may be taken back.
    std::size_t size() const { return states_.size(); }

  private:
    std::vector<State> states_;
};

}  // namespace protocol
