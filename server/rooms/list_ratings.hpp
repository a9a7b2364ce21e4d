#pragma once
// The ratings the public lists show beside the players' names (docs/protocol.md, "Ratings in
// the lists"): each seated person's rating in the entry's pool, read from the store once and
// kept here, so a list publication never waits for the database nor queries it. Bounded:
// `capacity` players-and-pools; past it the oldest reads are dropped (they are read again when
// a list needs them). A rating is read again once older than `fresh_for`, and when next shown
// after a match of the player ends (forget). Thread-safe: the lobby strand decorates the lobby
// list, the matches' strands their live entries.

#include <chrono>
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "server/app/guarded.hpp"

namespace server {

class ListRatings {
  public:
    using Clock = std::chrono::steady_clock;

    /// What a list shows: the rating, rounded, and whether it is provisional (docs/ratings.md).
    struct Shown {
        int rating = 1500;
        bool provisional = true;
    };

    /// At most `capacity` ratings kept; each read again after `fresh_for`.
    explicit ListRatings(std::size_t capacity = 20'000,
                         std::chrono::seconds fresh_for = std::chrono::minutes(10));

    /// After a failed read, the same rating is not read again for this long.
    static constexpr std::chrono::seconds retry_after{30};

    /// `player`'s rating in `pool` as a list shows it ({"rating":1532,"provisional":false}),
    /// or null when it is not known yet.
    nlohmann::json shown(const std::string& player, const std::string& pool) const;
    /// True when `player`'s rating in `pool` should be read now (unknown or stale, and not
    /// being read): the caller reads it and calls `put`, which ends the read.
    bool wanted(const std::string& player, const std::string& pool, Clock::time_point now);
    /// The read of `player`'s rating in `pool` ended: with the rating, or nullopt when the
    /// store did not answer (a list asks again, at the earliest `retry_after` later).
    void put(const std::string& player, const std::string& pool, std::optional<Shown> shown,
             Clock::time_point now);
    /// `player`'s rating in `pool` may have changed (a match ended): read it again when next
    /// shown (the old one is shown meanwhile).
    void forget(const std::string& player, const std::string& pool);

  private:
    struct Entry {
        std::optional<Shown> shown;
        Clock::time_point read_at{};   ///< when `shown` was read
        Clock::time_point retry_at{};  ///< a read failed: not again before this
        bool reading = false;
    };
    using Key = std::pair<std::string, std::string>;  ///< player, pool
    const std::size_t capacity_;
    const std::chrono::seconds fresh_for_;
    Guarded<std::map<Key, Entry>> entries_;
};

/// `entry` (a live-list entry) with "ratings": each seat's rating in `pool` as `ratings`
/// shows it, null for a computer seat or one not known yet; `players` are the seats' player
/// ids ("" for a computer seat). A null entry (the match is over) stays null.
nlohmann::json with_ratings(nlohmann::json entry, const std::string& pool,
                            const std::vector<std::string>& players, const ListRatings& ratings);

}  // namespace server
