#pragma once
// Quick play: the rated queues as the hub runs them, on its lobby strand (every member is
// called there, except `list`). A join looks up the player's rating, enters the Matchmaker and
// tells the player `queue` waiting; a timer runs a pairing wave every `wave` while anyone waits
// (and one runs at each join); each pair becomes a rated match at once, and both players are
// told `queue` matched. The hub is reached through QueueHost, so tests and the hub share it.
// Protocol: docs/protocol.md (queue.join, queue.leave, queue); rules: docs/matchmaking.md.

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "protocol/json/basic_json.hpp"
#include "protocol/messages.hpp"
#include "server/rooms/matchmaker.hpp"
#include "server/app/guarded.hpp"
#include "server/app/metrics.hpp"
#include "server/net/participant.hpp"

namespace server {

/// Why a queue request or a queue match failed.
struct QueueError {
    protocol::ErrorCode code;
    std::string message;
};

/// What the queue room needs from the hub. Called on the lobby strand; callbacks too.
class QueueHost {
  public:
    virtual ~QueueHost() = default;
    /// Sends `message` to every connection of `player`.
    virtual void tell(const std::string& player,
                      const std::shared_ptr<const std::string>& message) = 0;
    /// Sends `message` to the connection `to` (the requests' answers and the queue's events).
    virtual void send(const ParticipantPtr& to, std::shared_ptr<const std::string> message) {
        to->deliver(std::move(message));
    }
    /// True if `player` has at least one connection.
    virtual bool online(const std::string& player) = 0;
    /// Why `player` may not queue now (a lobby seat, a seat in a live match), or nullopt.
    virtual std::optional<QueueError> engaged(const std::string& player) = 0;
    /// `player`'s rating and deviation in rating pool `pool` as of now (1500/350 for a player
    /// without one), handed to `done` on the lobby strand (maybe at once); nullopt when it
    /// cannot be read (the database is down).
    virtual void rating(const std::string& player, const std::string& pool,
                        std::function<void(std::optional<std::pair<double, double>>)> done) = 0;
    /// Creates, stores and registers a match of `players` (in seat order) with `settings`,
    /// `origin` added to its stored settings; `done` gets the match id or why not, on the
    /// lobby strand (maybe at once).
    virtual void start_match(std::vector<std::string> players, protocol::LobbySettings settings,
                             nlohmann::json origin,
                             std::function<void(std::variant<std::string, QueueError>)> done) = 0;
    /// Someone joined or left a queue, or was paired (a fleet's leader saves its rooms then).
    virtual void queue_changed() {}
};

class QueueRoom {
  public:
    using Strand = boost::asio::strand<boost::asio::io_context::executor_type>;

    QueueRoom(Strand strand, QueueHost& host, Metrics& metrics,
              MatchmakerParameters parameters = {});
    QueueRoom(const QueueRoom&) = delete;
    QueueRoom& operator=(const QueueRoom&) = delete;

    /// queue.join: refused (already_queued, already_in_game, unknown_queue, invalid_field for a
    /// clock not offered, unavailable) or, once the rating is known, `queue` waiting and ack.
    void join(const ParticipantPtr& from, const protocol::QueueJoin& request,
              const protocol::Ref& ref);
    /// queue.leave: always ack; `queue` left follows unless a match is being made for the
    /// player (then `queue` matched comes instead).
    void leave(const ParticipantPtr& from, const protocol::Ref& ref);
    /// A connection said hello: if its player waits, it is told `queue` waiting at once.
    void connected(const ParticipantPtr& who);
    /// `player` may have lost their last connection: if none is left they leave the queue.
    void offline(const std::string& player);
    /// Puts back the places a previous leader saved (a fleet's takeover,
    /// server/rooms/room_snapshot.hpp), each unless its player is engaged already (here or by
    /// the host: call once seats are known). A restored player has `grace` to come back: until
    /// then losing their last connection does not take them out (their connections are being
    /// restarted), and then those with none leave. Returns how many were put back.
    std::size_t restore(std::vector<QueueEntry> entries, std::chrono::milliseconds grace);
    /// Forgets every waiting place without telling anyone (a node that leads again after
    /// another did: the saved places are the truth, not what it still held). Joins being looked
    /// up and pairs being matched are left to finish.
    void forget_places();
    /// True if `player` waits in a queue, is joining one or is being matched.
    bool engaged(const std::string& player) const;
    /// Every queue and offered clock with how many wait there (GET /api/queues). Any thread.
    nlohmann::json list() const;
    /// Stops the timer and refuses to start waves (server shutdown).
    void shutdown();

    /// The matchmaker (tests look inside).
    const Matchmaker& matchmaker() const { return matchmaker_; }

  private:
    /// A join waiting for the player's rating.
    struct Joining {
        std::uint64_t attempt = 0;
        ParticipantPtr from;
        protocol::Ref ref;
    };

    void entered(const std::string& player, std::uint64_t attempt, QueueKey key,
                 std::optional<std::pair<double, double>> rating);
    void wave();
    void start(const QueuePair& pair);
    void arm();
    /// Rebuilds the counts list and tells the host the queues changed.
    void publish();
    void rebuild_list();
    void end_grace();
    void error(const ParticipantPtr& to, protocol::ErrorCode code, std::string_view message,
               const protocol::Ref& ref);
    void ack(const ParticipantPtr& to, const protocol::Ref& ref);
    static std::shared_ptr<const std::string> waiting_event(const QueueEntry& entry);
    static std::shared_ptr<const std::string> left_event(std::string_view reason);

    Strand strand_;
    QueueHost& host_;
    Metrics& metrics_;
    Matchmaker matchmaker_;
    boost::asio::steady_timer timer_;
    boost::asio::steady_timer grace_timer_;  ///< ends the grace of restored places
    std::set<std::string> restored_;          ///< restored players still in their grace
    bool armed_ = false;
    bool stopped_ = false;
    std::uint64_t next_attempt_ = 0;
    std::map<std::string, Joining> joining_;  ///< by player: rating being looked up
    std::set<std::string> matching_;          ///< players whose match is being made

    /// What list() returns (any thread), rebuilt by publish() (the strand).
    Guarded<nlohmann::json> list_;
};

}  // namespace server
