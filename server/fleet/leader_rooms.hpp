#pragma once
// The leader's lobbies and queue places outlive it (docs/scaling.md, "Lobbies and queues
// survive the leader"): while a node leads, every change of its rooms is saved to PostgreSQL as
// one document (server/rooms/room_snapshot.hpp, migrations/0008_leader_rooms.sql); a node that
// becomes leader first counts the seats of every live match in the store (so nobody already
// playing can queue), then puts the saved rooms back, and only then takes lobby and queue
// requests and pairs anyone.
//
// Saves are written behind the change, one at a time, the newest document replacing any not yet
// written: a change acknowledged in the last milliseconds before the leader dies may be lost.

#include <atomic>
#include <optional>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/strand.hpp>

#include "server/app/guarded.hpp"
#include "server/app/hub.hpp"

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

  private:
    /// Reads seats and rooms (blocking); true when done (false: try again later).
    bool load();
    /// Writes the newest document waiting, then the next, until none waits (blocking pool).
    void write_pending();

    Hub::Impl& hub_;
    store::FleetStore& store_;
    std::atomic<bool> loading_{false};
    std::atomic<bool> pending_load_{false};
    using LobbyStrand = boost::asio::strand<boost::asio::io_context::executor_type>;
    /// The last document handed to the writer.
    StrandOwned<std::string, LobbyStrand> last_;
    /// What the writer (one blocking-pool call at a time) has still to do.
    struct Writes {
        std::optional<std::string> waiting;  ///< the newest document not written yet
        bool writing = false;                ///< a write_pending() call runs
    };
    Guarded<Writes> writes_;
};

}  // namespace server
