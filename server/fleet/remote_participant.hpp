#pragma once
// A connection of another node of the fleet, as the rooms of this node see it (docs/scaling.md):
// the match owner (or the leader) handles the requests that connection's home node forwards,
// for this participant, and what the rooms deliver to it goes back to the home node over the
// broker, which writes it to the socket.

#include <cstdint>
#include <memory>
#include <string>

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>

#include "server/fleet/broker.hpp"
#include "server/fleet/fleet_messages.hpp"
#include "server/net/participant.hpp"
#include "server/net/session_registry.hpp"

namespace server {

class RemoteParticipant final : public Participant {
  public:
    /// Connection `home_connection` of `player` on node `home`; `broker` outlives it.
    RemoteParticipant(boost::asio::io_context& io, Broker& broker, std::string home,
                      std::uint64_t home_connection, std::string player)
        : strand_(boost::asio::make_strand(io)),
          broker_(broker),
          home_(std::move(home)),
          home_connection_(home_connection),
          player_(std::move(player)),
          id_(SessionRegistry::next_connection_id()) {}

    /// Sends `message` to the home node for its connection (a `deliver` fleet message).
    void deliver(std::shared_ptr<const std::string> message) override {
        broker_.send(home_, fleet::write(fleet::Deliver{home_connection_, *message}));
    }
    /// Asks the home node to close the connection with 1012 (a `restart` fleet message): a
    /// match it had open here moved to another node.
    void restart() override {
        broker_.send(home_, fleet::write(fleet::Restart{home_connection_}));
    }
    /// A connection id of this process (distinct from every session's).
    std::uint64_t connection_id() const override { return id_; }
    const std::string& player_id() const override { return player_; }
    /// The hub's calls for this participant run on its own strand, in the order they came.
    void post(std::function<void()> work) override {
        boost::asio::post(strand_, std::move(work));
    }

    const std::string& home() const { return home_; }
    std::uint64_t home_connection() const { return home_connection_; }

  private:
    boost::asio::strand<boost::asio::io_context::executor_type> strand_;
    Broker& broker_;
    const std::string home_;
    const std::uint64_t home_connection_;
    const std::string player_;
    const std::uint64_t id_;
};

}  // namespace server
