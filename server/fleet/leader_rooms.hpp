#pragma once
// The leader's lobbies and queue places outlive it (docs/scaling.md, "Lobbies and queues
// survive the leader"): while a node leads, every change of its rooms is saved to PostgreSQL as
// one document (server/rooms/room_snapshot.hpp, migrations/0008_leader_rooms.sql); a node that
// becomes leader first counts the seats of every live match in the store (so nobody already
// playing can queue), then puts the saved rooms back, and only then takes lobby and queue
// requests and pairs anyone.
//
// Saves are written behind the change, one at a time, the newest document replacing any not yet
// written. What the lobby strand tells its clients meanwhile (acknowledgements, errors, lobby
// and queue events) is held here until a document that includes the change it speaks of is
// saved, so a leader killed at any moment has told nobody of a change the next leader will not
// find (docs/scaling.md, "Lobbies and queues survive the leader"). A message waits for the
// save of the generation current when the lobby strand's handler that sent it ended; a failed
// save is tried again a second later.

#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "server/app/guarded.hpp"
#include "server/app/hub.hpp"
#include "server/net/participant.hpp"

namespace store {
class FleetStore;
}

namespace server {

/// Saves the leader's lobbies and queue places while it leads, and puts them back when this
/// node becomes leader (see the file comment). Built only in a fleet, by the fleet node.
class LeaderRooms {
  public:
    /// `hub` and `store` outlive it.
    LeaderRooms(Hub::Impl& hub, store::FleetStore& store);

    /// True from becoming leader until the saved rooms are back: lobby requests are answered
    /// a retryable `unavailable` meanwhile (queue joins are, by Hub's seats_known).
    bool loading() const { return loading_; }

    /// This node just became leader (the blocking pool): seats of the live matches first, then
    /// the rooms. Retried at each heartbeat while the database does not answer.
    void take_over();
    /// Called at each heartbeat of a leader (blocking pool): finishes a takeover that failed.
    void retry();

    /// The rooms changed (lobby strand): saved, if this node leads and has loaded them.
    void changed();

    /// Whether messages about the rooms are held until saved now (lobby strand): this node
    /// leads and has its rooms loaded.
    bool holding() const;
    /// Holds `message` for `to` until the rooms as they are at the end of the running lobby
    /// strand handler are saved (lobby strand; call only while holding()).
    void hold(ParticipantPtr to, std::shared_ptr<const std::string> message);
    /// Most messages held at once: past it the oldest go out unsaved (a database down for
    /// long; logged), so a flood of requests cannot grow the leader's memory without bound.
    static constexpr std::size_t max_held = 8192;

  private:
    /// Reads seats and rooms (blocking); true when done (false: try again later).
    bool load();
    /// Writes the newest document waiting, then the next, until none waits (blocking pool).
    void write_pending();
    /// Gives every untagged held message the current generation (end of a handler), then
    /// delivers those whose generation is saved (lobby strand).
    void release();

    /// A message held until the rooms of `generation` are saved (0: its handler still runs).
    struct Held {
        ParticipantPtr to;
        std::shared_ptr<const std::string> message;
        std::uint64_t generation = 0;
    };
    /// The lobby strand's side of the saves: documents made, saved, and what waits for them.
    struct Saves {
        std::string last;              ///< the last document handed to the writer
        std::uint64_t generation = 0;  ///< of `last`: one more for each document that differed
        std::uint64_t saved = 0;       ///< the newest generation known to be stored
        std::vector<Held> held;        ///< in the order sent
        bool release_posted = false;   ///< a release() runs after the current handler
        bool retry_armed = false;      ///< a failed save is tried again soon
    };

    Hub::Impl& hub_;
    store::FleetStore& store_;
    std::atomic<bool> loading_{false};
    std::atomic<bool> pending_load_{false};
    using LobbyStrand = boost::asio::strand<boost::asio::io_context::executor_type>;
    StrandOwned<Saves, LobbyStrand> saves_;
    /// What the writer (one blocking-pool call at a time) has still to do.
    struct Writes {
        std::optional<std::string> waiting;  ///< the newest document not written yet
        std::uint64_t generation = 0;        ///< of `waiting`
        bool writing = false;                ///< a write_pending() call runs
    };
    Guarded<Writes> writes_;
};

}  // namespace server
