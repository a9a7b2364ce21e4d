#pragma once
// Rated pairing as plain bookkeeping: who waits in which queue at which clock with which
// rating, and a pairing wave that says who plays whom. No I/O, no threads, no clock of its
// own (the caller passes `now`), so tests drive it with made-up times. The hub's queue room
// (server/rooms/queue_room.hpp) runs a wave every `wave` while anyone waits, and one at each join.
//
// The rule (docs/matchmaking.md):
//   missed(e)  = floor((now - joined) / wave)                      waves e has waited through
//   window(e)  = min(max_window, base_window + widen_per_wave * missed(e))
//   a and b may play when they wait in the same queue at the same clock and
//   |rating(a) - rating(b)| <= min(window(a), window(b))           both accept the gap
// A wave takes waiters oldest first; each still unpaired takes, among those it may play, the
// closest rating (ties: the one waiting longer). The oldest waiter chooses first, so nobody is
// passed over forever by a stream of newcomers who suit each other better.

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace server {

/// Which line a player waits in: a queue and its clock. Only equal keys are paired.
struct QueueKey {
    std::string queue;  ///< "santorini", "santorini_simple", "santorini_gods"
    int base_seconds = 0;
    int increment_seconds = 0;
    auto operator<=>(const QueueKey&) const = default;
};

/// The constants of the window formula (docs/matchmaking.md says why these).
struct MatchmakerParameters {
    std::chrono::milliseconds wave{1000};  ///< one pairing wave per this long
    double base_window = 100;              ///< rating gap accepted at once
    double widen_per_wave = 12;            ///< added per missed wave (as Lichess' pools)
    double max_window = 500;               ///< the gap never grows past this
};

/// One waiting player.
struct QueueEntry {
    std::string player;
    QueueKey key;
    double rating = 1500;     ///< Glicko-2 rating in the queue's pool
    double deviation = 350;   ///< for display and logs; the window does not use it (yet)
    std::chrono::steady_clock::time_point joined{};
    std::int64_t since_ms = 0;  ///< wall time of joining, ms since the epoch (told to clients)
};

/// Two players to seat in one match; `first` had waited longer.
struct QueuePair {
    QueueEntry first;
    QueueEntry second;
};

class Matchmaker {
  public:
    using TimePoint = std::chrono::steady_clock::time_point;

    explicit Matchmaker(MatchmakerParameters parameters = {}) : params_(parameters) {}

    /// Adds `entry`; false (and nothing changes) if its player already waits in any queue.
    bool join(QueueEntry entry);
    /// Takes `player` out of whichever queue they wait in; the entry, or nullopt if none.
    std::optional<QueueEntry> leave(std::string_view player);
    /// The entry of `player`, or null.
    const QueueEntry* find(std::string_view player) const;

    /// Waves `entry` has waited through at `now` (0 before the first whole wave).
    std::int64_t missed_waves(const QueueEntry& entry, TimePoint now) const;
    /// The rating gap `entry` accepts at `now`.
    double window(const QueueEntry& entry, TimePoint now) const;
    /// True if `a` and `b` may be paired at `now` (same key, gap within both windows).
    bool acceptable(const QueueEntry& a, const QueueEntry& b, TimePoint now) const;

    /// One pairing wave at `now`: the pairs it makes, each taken out of the queues. With
    /// `present`, only players it says are present are paired; the others keep their places
    /// (a fleet's new leader holds the restored places of players not yet reconnected).
    std::vector<QueuePair> pair(TimePoint now,
                                const std::function<bool(const std::string&)>& present = {});

    /// Every waiting entry, oldest first (what a fleet's leader saves).
    std::vector<QueueEntry> entries() const;
    /// How many wait with `key`.
    std::size_t waiting(const QueueKey& key) const;
    std::size_t size() const { return entries_.size(); }
    bool empty() const { return entries_.empty(); }
    const MatchmakerParameters& parameters() const { return params_; }

  private:
    struct Slot {
        QueueEntry entry;
        std::uint64_t order = 0;  ///< join order: breaks ties between equal join times
    };
    MatchmakerParameters params_;
    std::map<std::string, Slot, std::less<>> entries_;  ///< by player id
    std::uint64_t next_order_ = 0;
};

}  // namespace server
