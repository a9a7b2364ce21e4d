// What a fleet node does with each node-to-node message (docs/scaling.md, "Node-to-node
// messages"): the broker's payload is parsed once into the closed message set
// (server/fleet/fleet_messages.hpp), and each kind has its own handler below. All of it runs on
// the broker's thread.
#include "server/app/hub_impl.hpp"
#include "server/fleet/fleet_node.hpp"

namespace server {

using nlohmann::json;

void FleetNode::receive(std::string_view from_node, std::string payload) {
    const std::string from(from_node);
    auto parsed = fleet::parse(payload);
    if (auto* bad = std::get_if<fleet::ParseError>(&parsed)) {
        spdlog::warn("event=fleet_bad_message from={} what=\"{}\"", from, bad->reason);
        return;
    }
    const auto& message = std::get<fleet::Message>(parsed);
    try {
        std::visit([&](const auto& m) { on(m, from, from == me_); }, message);
    } catch (const std::exception& e) {
        // A handler's library call that threw (allocation, JSON): logged, the broker goes on.
        spdlog::warn("event=fleet_bad_message from={} type={} what=\"{}\"", from,
                     fleet::type_name(message), e.what());
    }
}

void FleetNode::on(const fleet::Connected& m, const std::string& from, bool) {
    (void)remote_for(from, m.connection, m.player, m.name);
}

void FleetNode::on(const fleet::Request& m, const std::string& from, bool) {
    auto remote = remote_for(from, m.connection, m.player, m.name);
    remote->post([this, remote, text = m.text] {
        auto parsed = protocol::parse_client_message(text);
        if (auto* message = std::get_if<protocol::ClientMessage>(&parsed))
            hub_.handle_request(remote, std::move(*message), text);
    });
}

void FleetNode::on(const fleet::Gone& m, const std::string& from, bool) {
    auto remote = view_.with([&](View& v) -> std::shared_ptr<RemoteParticipant> {
        auto it = v.remotes.find({from, m.connection});
        if (it == v.remotes.end()) return nullptr;
        auto found = std::move(it->second);
        v.remotes.erase(it);
        return found;
    });
    if (!remote) return;
    ParticipantPtr who = remote;
    remote->post([this, who] { hub_.disconnect_participant(who); });
}

void FleetNode::on(const fleet::Deliver& m, const std::string&, bool) {
    auto to = view_.read([&](const View& v) -> std::shared_ptr<Participant> {
        auto it = v.homes.find(m.connection);
        return it == v.homes.end() ? nullptr : it->second.lock();
    });
    if (to) to->deliver(std::make_shared<const std::string>(m.text));
}

void FleetNode::on(const fleet::Restart& m, const std::string&, bool) {
    auto to = view_.read([&](const View& v) -> std::shared_ptr<Participant> {
        auto it = v.homes.find(m.connection);
        return it == v.homes.end() ? nullptr : it->second.lock();
    });
    if (to) to->restart();
}

void FleetNode::on(const fleet::Live& m, const std::string& from, bool own) {
    if (own) return;
    const std::string& id = m.match;
    if (m.entry.is_null()) {
        // Over, but its owner keeps it in memory a while for late requests (match.close, a
        // player catching up): it is forgotten after that.
        boost::asio::post(hub_.lobby_strand, [this, id, from] {
            hub_.after(hub_.config.finished_match_keep, [this, id, from] {
                view_.with([&](View& v) {
                    if (auto it = v.owners.find(id); it != v.owners.end() && it->second == from)
                        v.owners.erase(it);
                });
            });
        });
        // Over on its owner: its players are free to queue again (the leader's check).
        hub_.registry.free_seats(id, /*unless_held=*/true);
    } else {
        view_.with([&](View& v) { v.owners[id] = m.owner; });
    }
    if (!hub_.find_match(id)) hub_.lists.set_live_entry(id, m.entry);
}

void FleetNode::on(const fleet::Lobbies& m, const std::string&, bool own) {
    if (own || !hub_.lists.set_lobbies(m.list)) return;
    boost::asio::post(hub_.lobby_strand, [this] { hub_.lists.schedule(); });
}

void FleetNode::on(const fleet::Queues& m, const std::string&, bool own) {
    if (own) return;
    view_.with([&](View& v) { v.queue_list = m.list; });
}

void FleetNode::on(const fleet::Sync&, const std::string& from, bool own) {
    if (own) return;
    // A node that joins says sync first: one that said bye before is back (restarted under
    // its id), and heartbeats count it again.
    view_.with([&](View& v) { v.departed.erase(from); });
    // The newcomer (or new leader) learns this node's matches and, from the leader, the
    // lobbies and queues.
    for (auto& [id, entry] : hub_.lists.live_entries())
        if (hub_.find_match(id))
            broker_.send(from, fleet::write(fleet::Live{id, me_, std::move(entry)}));
    if (!leads()) return;
    broker_.send(from, fleet::write(fleet::Lobbies{hub_.lists.lobbies()}));
    broker_.send(from, fleet::write(fleet::Queues{hub_.queues.list()}));
    broker_.send(from, fleet::write(fleet::Leader{}));
}

void FleetNode::on(const fleet::Leader&, const std::string& from, bool own) {
    if (own) return;
    view_.with([&](View& v) {
        v.leader = from;
        v.alive.insert(from);
    });
    // This node's connections register with the new leader.
    boost::asio::post(hub_.lobby_strand, [this] {
        for (const auto& [player, conns] : hub_.hall.get().connections)
            for (const auto& [id, p] : conns) connected(p);
    });
}

void FleetNode::on(const fleet::Adopt& m, const std::string&, bool) {
    boost::asio::post(*hub_.blocking, [this, id = m.match] { (void)claim_and_load(id); });
}

void FleetNode::on(const fleet::Moved& m, const std::string&, bool) {
    view_.with([&](View& v) { v.owners.erase(m.match); });
}

void FleetNode::on(const fleet::Bye&, const std::string& from, bool own) {
    if (own) return;
    view_.with([&](View& v) { v.departed.insert(from); });
    node_dead(from);
}

void FleetNode::on(const fleet::Revoked& m, const std::string&, bool own) {
    if (own) return;  // the node that revoked them has done it already
    hub_.revoke_sessions(m.player, m.token_sha256, m.keep_sha256);
}

}  // namespace server
