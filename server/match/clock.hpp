#pragma once
// Time controls: how long each seat may think. Pure bookkeeping over time points handed in by
// the caller, so tests drive it with a fake time source; the match owns the timer that fires
// at `expiry()`.

#include <array>
#include <chrono>
#include <optional>
#include <string>

#include "protocol/json/basic_json.hpp"
#include "protocol/santorini/json.hpp"

namespace server {

using SteadyTime = std::chrono::steady_clock::time_point;
using WallTime = std::chrono::system_clock::time_point;

/// A match's time control.
struct TimeControl {
    enum class Kind { None, Realtime, Turn };
    Kind kind = Kind::None;
    std::chrono::milliseconds base{0};       ///< realtime: each seat's initial time
    std::chrono::milliseconds increment{0};  ///< realtime: added when a seat's decision ends
    std::chrono::milliseconds per_move{0};   ///< turn-based: time for each decision

    /// The time control lobby settings ask for ("none", "realtime", "turn").
    static TimeControl from_settings(const protocol::LobbySettings& settings);
};

/// The clocks of one match: one running seat at a time (the decider), realtime budgets per
/// seat or a turn-based deadline.
class Clock {
  public:
    /// Stopped clocks for `seats` seats, each with the full base time.
    Clock(TimeControl control, int seats);

    /// From `now` on `seat` decides (-1: nobody). When the decision passes to another seat, or
    /// to a new turn of the same seat (`new_turn`), the previous seat is charged its thinking
    /// time and gets the increment, and a turn-based deadline starts afresh.
    void switch_to(int seat, bool new_turn, SteadyTime now);
    /// Charges the running seat and stops (game over, aborted).
    void stop(SteadyTime now);

    /// The seat whose time runs, or -1.
    int running() const { return running_; }
    /// When the running seat runs out of time, if it can.
    std::optional<SteadyTime> expiry() const;
    /// True if the running seat has no time left at `now`.
    bool expired(SteadyTime now) const;
    /// A seat's time left at `now` (realtime; zero at least).
    std::chrono::milliseconds remaining(int seat, SteadyTime now) const;

    /// The view's `clock` object at `now`; `wall_now` maps deadlines to epoch milliseconds.
    nlohmann::json to_json(SteadyTime now, WallTime wall_now) const;
    /// The same object as JSON text, written without a tree (a match writes it every step).
    std::string text(SteadyTime now, WallTime wall_now) const;

    const TimeControl& control() const { return control_; }

  private:
    TimeControl control_;
    int seats_;
    std::array<std::chrono::milliseconds, 4> remaining_{};
    int running_ = -1;
    SteadyTime since_{};     ///< when the running seat's time started
    SteadyTime deadline_{};  ///< turn-based: when the running seat's decision is due
};

}  // namespace server
