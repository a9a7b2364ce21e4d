// What a fleet node does with each node-to-node message (docs/scaling.md, "Node-to-node
// messages"): the broker's payload is parsed once into the closed message set
// (server/fleet/fleet_messages.hpp), and each kind has its own handler below. All of it runs on
// the broker's thread.
#include "server/app/hub_impl.hpp"
#include "server/fleet/fleet_messages.hpp"

namespace server {

using nlohmann::json;

namespace {

/// The handlers, one per message kind, for a message from node `from` (`own`: this node).
struct Receive {
    Hub::Impl& hub;
    FleetState& f;
    const std::string& from;
    const bool own;

    void operator()(const fleet::Connected& m) const {
        (void)hub.remote_for(from, m.connection, m.player, m.name);
    }

    void operator()(const fleet::Request& m) const {
        auto remote = hub.remote_for(from, m.connection, m.player, m.name);
        remote->post([&hub = hub, remote, text = m.text] {
            auto parsed = protocol::parse_client_message(text);
            if (auto* message = std::get_if<protocol::ClientMessage>(&parsed))
                hub.handle_request(remote, std::move(*message), text);
        });
    }

    void operator()(const fleet::Gone& m) const {
        std::shared_ptr<RemoteParticipant> remote;
        {
            std::lock_guard lock(f.mutex);
            if (auto it = f.remotes.find({from, m.connection}); it != f.remotes.end()) {
                remote = it->second;
                f.remotes.erase(it);
            }
        }
        if (!remote) return;
        ParticipantPtr who = remote;
        remote->post([&hub = hub, who] { hub.disconnect_participant(who); });
    }

    void operator()(const fleet::Deliver& m) const {
        std::shared_ptr<Participant> to;
        {
            std::lock_guard lock(f.mutex);
            if (auto it = f.homes.find(m.connection); it != f.homes.end()) to = it->second.lock();
        }
        if (to) to->deliver(std::make_shared<const std::string>(m.text));
    }

    void operator()(const fleet::Live& m) const {
        if (own) return;
        const std::string& id = m.match;
        if (m.entry.is_null()) {
            // Over, but its owner keeps it in memory a while for late requests (match.close,
            // a player catching up): it is forgotten after that.
            boost::asio::post(hub.lobby_strand, [&hub = hub, id, from = from] {
                hub.after(hub.config.finished_match_keep, [&hub, id, from] {
                    std::lock_guard lock(hub.fleet->mutex);
                    if (auto it = hub.fleet->owners.find(id);
                        it != hub.fleet->owners.end() && it->second == from)
                        hub.fleet->owners.erase(it);
                });
            });
            // Over on its owner: its players are free to queue again (the leader's check).
            hub.registry.free_seats(id, /*unless_held=*/true);
        } else {
            std::lock_guard lock(f.mutex);
            f.owners[id] = m.owner;
        }
        if (!hub.find_match(id)) hub.lists.set_live_entry(id, m.entry);
    }

    void operator()(const fleet::Lobbies& m) const {
        if (own) return;
        if (!hub.lists.set_lobbies(m.list)) return;
        boost::asio::post(hub.lobby_strand, [&hub = hub] { hub.lists.schedule(); });
    }

    void operator()(const fleet::Queues& m) const {
        if (own) return;
        std::lock_guard lock(f.mutex);
        f.queue_list = m.list;
    }

    void operator()(const fleet::Sync&) const {
        if (own) return;
        // The newcomer (or new leader) learns this node's matches and, from the leader, the
        // lobbies and queues.
        for (auto& [id, entry] : hub.lists.live_entries())
            if (hub.find_match(id))
                f.broker.send(from, fleet::write(fleet::Live{id, f.me, std::move(entry)}));
        if (!hub.leads()) return;
        f.broker.send(from, fleet::write(fleet::Lobbies{hub.lists.lobbies()}));
        f.broker.send(from, fleet::write(fleet::Queues{hub.queues.list()}));
        f.broker.send(from, fleet::write(fleet::Leader{}));
    }

    void operator()(const fleet::Leader&) const {
        if (own) return;
        {
            std::lock_guard lock(f.mutex);
            f.leader = from;
            f.alive.insert(from);
        }
        // This node's connections register with the new leader.
        boost::asio::post(hub.lobby_strand, [&hub = hub] {
            for (const auto& [player, conns] : hub.connections)
                for (const auto& [id, p] : conns) hub.fleet_connected(p);
        });
    }

    void operator()(const fleet::Adopt& m) const {
        boost::asio::post(*hub.blocking,
                          [&hub = hub, id = m.match] { (void)hub.claim_and_load(id); });
    }

    void operator()(const fleet::Moved& m) const {
        std::lock_guard lock(f.mutex);
        f.owners.erase(m.match);
    }

    void operator()(const fleet::Bye&) const {
        if (!own) hub.node_dead(from);
    }
};

}  // namespace

void Hub::Impl::fleet_receive(std::string_view from_node, std::string payload) {
    const std::string from(from_node);
    auto parsed = fleet::parse(payload);
    if (auto* bad = std::get_if<fleet::ParseError>(&parsed)) {
        spdlog::warn("event=fleet_bad_message from={} what=\"{}\"", from, bad->reason);
        return;
    }
    const auto& message = std::get<fleet::Message>(parsed);
    try {
        std::visit(Receive{*this, *fleet, from, from == fleet->me}, message);
    } catch (const std::exception& e) {
        // A handler's library call that threw (allocation, JSON): logged, the broker goes on.
        spdlog::warn("event=fleet_bad_message from={} type={} what=\"{}\"", from,
                     fleet::type_name(message), e.what());
    }
}

}  // namespace server
