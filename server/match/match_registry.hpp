#pragma once
// The matches a node holds in memory, and who sits where (one of the hub's parts, README
// "Layout"): looked up when a connection opens a match, counted by the queues (a seated player
// may not queue) and by the fleet's heartbeat and lease renewal. All of it behind one lock.

#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "server/app/guarded.hpp"

namespace server {

class Match;

class MatchRegistry {
  public:
    /// The match `id` in memory, or null.
    std::shared_ptr<Match> find(const std::string& id) const;
    /// Calls `f` for every match in memory (the lock held: `f` must not call back in here).
    void for_each(const std::function<void(const std::shared_ptr<Match>&)>& f) const;
    /// An id made by `make` that no match in memory has.
    std::string fresh_id(const std::function<std::string()>& make) const;

    /// Holds `match` and counts `players` as seated in it, unless its seats are known already
    /// (recovery counted them before replaying it).
    void hold(const std::shared_ptr<Match>& match, const std::vector<std::string>& players);
    /// Holds `match` unless one of its id is held already; returns the one held.
    std::shared_ptr<Match> hold_once(std::shared_ptr<Match> match);
    /// Counts `player` as seated in the live match `match` (recovery, before the replay).
    void seat(const std::string& match, const std::string& player);
    /// Counts `players` as seated in `match` unless its seats are known already.
    void seat_once(const std::string& match, const std::vector<std::string>& players);
    /// Match `id` is over: its players are free to queue again. With `unless_held`, only when
    /// it is not held here (its owner, another node, said it is over).
    void free_seats(const std::string& id, bool unless_held = false);
    /// Match `id` is no longer this node's (taken over elsewhere): the match is forgotten, its
    /// seats are not, since it plays on at its new owner (a leader counts them; they leave
    /// when the owner says it is over, free_seats). Returns it (to be shut down) if it was
    /// held; nullopt if it was not seated here.
    std::optional<std::shared_ptr<Match>> drop(const std::string& id);
    /// The matches whose seats are counted here but which another node runs (placed there,
    /// read by a new leader, or dropped after a takeover), in no particular order.
    std::vector<std::string> seated_elsewhere() const;
    /// A finished match leaves memory: it joins the finished ones kept, and the oldest beyond
    /// `keep` go (returned, to be destroyed outside the lock).
    std::vector<std::shared_ptr<Match>> retire(const std::string& id, std::size_t keep);

    /// In a fleet, on the leader: the new match `id` runs on `node`.
    void place(const std::string& id, const std::string& node);
    /// The node match `id` was placed on ("" if it was not) and forgets that; a placed match's
    /// `players` count as seated here until its owner says it is over.
    std::string take_placed(const std::string& id, const std::vector<std::string>& players);

    /// The live matches held here (not the ones placed elsewhere).
    std::vector<std::string> held() const;
    /// How many live matches are held here.
    int held_count() const;
    /// The live matches `player` is seated in, in id order.
    std::vector<std::string> matches_of(const std::string& player) const;
    /// How many live matches `player` is seated in.
    std::size_t count_of(const std::string& player) const;

  private:
    struct State {
        /// Every match in memory: live ones, and finished ones until they are let go (retire).
        std::unordered_map<std::string, std::shared_ptr<Match>> matches;
        /// Who sits in each live match, and the live matches each player sits in; a match
        /// leaves both when it ends.
        std::unordered_map<std::string, std::vector<std::string>> seated;
        std::unordered_map<std::string, std::set<std::string>> playing;
        /// In a fleet, on the leader: new matches placed on another node (id -> node), made
        /// and stored here but run there.
        std::unordered_map<std::string, std::string> placed;
        /// Without a database: the finished matches still kept in memory, oldest first.
        std::deque<std::string> kept_finished;

        void seat_all(const std::string& match, const std::vector<std::string>& players);
        void unseat(const std::string& match);
    };
    Guarded<State> state_;
};

}  // namespace server
