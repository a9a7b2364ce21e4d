// A fleet node's life (docs/scaling.md): start, heartbeat and election, lease renewal and
// takeover, graceful leave, where new matches go, the connections other nodes serve, and what
// happens when a node dies. Routing is in fleet_routing.cpp, the broker's messages in
// fleet_node_receive.cpp.
#include "server/fleet/fleet_node.hpp"

#include <algorithm>

#include "server/app/hub_impl.hpp"

namespace server {

using nlohmann::json;

namespace {

/// How long to wait between heartbeats and between renewals, from the lease.
std::chrono::milliseconds beat_period(std::chrono::milliseconds lease) { return lease / 5; }
std::chrono::milliseconds renew_period(std::chrono::milliseconds lease) { return lease / 3; }

}  // namespace

FleetNode::FleetNode(Hub::Impl& hub, store::FleetStore& store, Broker& broker)
    : hub_(hub), store_(store), broker_(broker), me_(broker.node()), rooms_(hub, store) {}

bool FleetNode::leads() const {
    return view_.read([](const View& v) { return v.leading; });
}

json FleetNode::status() const {
    const int held = hub_.registry.held_count();
    return view_.read([&](const View& v) {
        return json{{"node", me_},
                    {"leader", v.leader},
                    {"leading", v.leading},
                    {"nodes", v.alive},
                    {"matches", held},
                    {"remote_connections", v.remotes.size()}};
    });
}

json FleetNode::queue_list() const {
    return view_.read([](const View& v) { return v.queue_list; });
}

void FleetNode::stop_broker() { broker_.stop(); }

// ---- start ----

void FleetNode::join() {
    broker_.start([this](std::string_view from,
                         std::string payload) { receive(from, std::move(payload)); },
                  [this] { gap(); });
    // One beat before anything is routed: who is alive, who leads (maybe this node).
    beat();
    // The others' matches, lobbies and queues, for this node's lists.
    broker_.broadcast(fleet::write(fleet::Sync{}));
    // The beat above scheduled the next one; the renewals start here, so the leases of the
    // matches restored first are renewed while the restore goes on.
    boost::asio::post(hub_.lobby_strand, [this] {
        hub_.after(renew_period(hub_.config.lease), [this] {
            boost::asio::post(*hub_.blocking, [this] { renew(); });
        });
    });
    spdlog::info("event=fleet_joined node={} leader={}", me_, leads());
}

std::pair<int, int> FleetNode::restore_own() {
    // This node's own matches (a restart under the same id) and ones nobody owns; the
    // matches of dead nodes follow with the renewals' takeover scans.
    auto live = hub_.repo->live_matches(me_);
    if (!live)
        throw std::runtime_error("recovery: cannot read live matches: " + live.error().message);
    int restored = 0;
    int failed = 0;
    for (const store::StoredMatch& stored : *live) {
        if (hub_.life.stopping) break;
        auto claim = store_.claim(stored.id);
        if (!claim || *claim != store::Claim::Claimed) continue;
        // The node already serves: a request for this match may have restored it meanwhile
        // (claim_and_load), and so may a renewal's takeover scan.
        std::lock_guard lock(restore_mutex_);
        if (hub_.find_match(stored.id)) continue;
        (hub_.restore_stored(stored) ? restored : failed)++;
    }
    return {restored, failed};
}

// ---- heartbeat, election, leases (blocking pool) ----

void FleetNode::beat() {
    if (hub_.life.stopping) return;
    const bool lead = store_.try_lead();
    const int held = hub_.registry.held_count();
    auto nodes = store_.heartbeat(held, hub_.config.lease);
    std::vector<std::string> dead;
    bool became_leader = false;
    if (nodes) {
        view_.with([&](View& v) {
            std::set<std::string> now_alive;
            std::map<std::string, int> load;
            std::string leader = lead ? me_ : std::string();
            std::set<std::string> listed;
            for (const store::NodeInfo& n : *nodes) {
                listed.insert(n.id);
                if (v.departed.count(n.id)) continue;  // its row outlives its bye a moment
                now_alive.insert(n.id);
                load[n.id] = n.matches;
                if (n.leader && leader.empty()) leader = n.id;
            }
            now_alive.insert(me_);
            // A departed node whose row is gone is forgotten (if it comes back, its `sync`
            // says so first).
            std::erase_if(v.departed, [&](const std::string& n) { return !listed.count(n); });
            for (const auto& n : v.alive)
                if (!now_alive.count(n)) dead.push_back(n);
            v.alive = std::move(now_alive);
            v.load = std::move(load);
            became_leader = lead && !v.leading;
            if (v.leading && !lead) spdlog::warn("event=fleet_leadership_lost node={}", me_);
            v.leading = lead;
            if (lead || v.leader.empty() || !v.alive.count(v.leader)) v.leader = leader;
        });
    } else {
        spdlog::warn("event=fleet_heartbeat_failed node={} error=\"{}\"", me_,
                     nodes.error().message);
        view_.with([&](View& v) {
            became_leader = lead && !v.leading;
            v.leading = lead;
            if (lead) v.leader = me_;
        });
    }
    for (const auto& n : dead) node_dead(n);
    if (became_leader) {
        spdlog::info("event=fleet_leader node={}", me_);
        // Who plays, and the old leader's rooms, before any lobby or queue request is served.
        rooms_.take_over();
        broker_.broadcast(fleet::write(fleet::Leader{}));
        boost::asio::post(hub_.lobby_strand, [this] { hub_.publish_lobbies(); });
    }
    if (lead && !became_leader) rooms_.retry();
    if (lead) {
        // The queue counts, when they changed (at most once per beat).
        json list = hub_.queues.list();
        std::string text = list.dump();
        const bool changed = view_.with([&](View& v) {
            if (text == v.queues_sent && !became_leader) return false;
            v.queues_sent = std::move(text);
            return true;
        });
        if (changed) broker_.broadcast(fleet::write(fleet::Queues{std::move(list)}));
    }
    if (hub_.life.stopping) return;
    boost::asio::post(hub_.lobby_strand, [this] {
        hub_.after(beat_period(hub_.config.lease), [this] {
            boost::asio::post(*hub_.blocking, [this] { beat(); });
        });
    });
}

void FleetNode::renew() {
    if (hub_.life.stopping) return;
    const std::vector<std::string> held = hub_.registry.held();  // not the ones placed elsewhere
    if (!held.empty()) {
        auto renewed = store_.renew(held);
        if (renewed) {
            std::set<std::string> kept(renewed->begin(), renewed->end());
            for (const auto& id : held) {
                if (kept.count(id)) continue;
                // Not renewed: over meanwhile (then it left `seated`), or taken over by another
                // node after this one could not renew for a whole lease. Then it is not ours;
                // its players still sit in it (drop keeps the seats) until its owner says it
                // is over, and the connections that had it open here are closed with 1012, to
                // reconnect and open it at its owner (Match::lost).
                auto lost = hub_.registry.drop(id);
                if (!lost) continue;
                spdlog::warn("event=fleet_match_lost match={} node={}", id, me_);
                if (*lost) (*lost)->lost();
                view_.with([&](View& v) { v.owners.erase(id); });
            }
        } else {
            spdlog::warn("event=fleet_renew_failed node={} error=\"{}\"", me_,
                         renewed.error().message);
        }
    }
    // Takeover: the matches of dead nodes (and of nodes that handed them over).
    auto claimed = store_.claim_expired(100);
    if (claimed) {
        for (const auto& id : *claimed) {
            auto stored = hub_.repo->match(id);
            if (!stored || stored->status != "live") continue;
            std::lock_guard lock(restore_mutex_);
            if (hub_.find_match(id)) continue;
            if (hub_.restore_stored(*stored))
                spdlog::info("event=fleet_takeover match={} node={} steps={}", id, me_,
                             stored->steps.size());
        }
    }
    if (hub_.life.stopping) return;
    boost::asio::post(hub_.lobby_strand, [this] {
        hub_.after(renew_period(hub_.config.lease), [this] {
            boost::asio::post(*hub_.blocking, [this] { renew(); });
        });
    });
}

store::Result<store::Claim> FleetNode::claim_and_load(const std::string& match_id,
                                                      store::Ownership* seen) {
    auto claim = store_.claim(match_id, seen);
    if (!claim || *claim != store::Claim::Claimed) return claim;
    std::lock_guard lock(restore_mutex_);
    if (hub_.find_match(match_id)) return claim;
    auto stored = hub_.repo->match(match_id);
    if (!stored) return stored.error();
    if (stored->status != "live") return store::Claim::NotLive;
    if (!hub_.restore_stored(*stored)) return store::Claim::NotLive;
    spdlog::info("event=fleet_claimed match={} node={} steps={}", match_id, me_,
                 stored->steps.size());
    return claim;
}

void FleetNode::leave() {
    const std::vector<std::string> held = hub_.registry.held();  // not the ones placed elsewhere
    if (!held.empty()) {
        auto released = store_.release(held);
        spdlog::info("event=fleet_handed_over node={} matches={} ok={}", me_, held.size(),
                     released.ok());
    }
    broker_.broadcast(fleet::write(fleet::Bye{}));
    store_.resign_lead();
    (void)store_.leave();
    broker_.stop();
}

// ---- new matches (the leader) ----

std::string FleetNode::place_match() {
    return view_.with([&](View& v) {
        std::string best = me_;
        int best_load = v.load.count(me_) ? v.load[me_] : 0;
        for (const auto& node : v.alive) {
            const int load = v.load.count(node) ? v.load[node] : 0;
            if (load < best_load) best = node, best_load = load;
        }
        ++v.load[best];  // until the next heartbeat counts it
        return best;
    });
}

store::Result<store::Done> FleetNode::assign(const std::string& id, const std::string& owner) {
    return store_.assign(id, owner);
}

void FleetNode::hand_over(const std::string& id, const std::string& owner) {
    view_.with([&](View& v) { v.owners[id] = owner; });
    broker_.send(owner, fleet::write(fleet::Adopt{id}));
    spdlog::info("event=fleet_placed match={} node={}", id, owner);
}

// ---- connections ----

void FleetNode::connected(const ParticipantPtr& who) {
    if (dynamic_cast<RemoteParticipant*>(who.get())) return;
    const std::string leader = view_.with([&](View& v) {
        if (v.leading || !v.alive.count(v.leader)) return std::string();
        v.homes[who->connection_id()] = who;
        v.peers[who->connection_id()].insert(v.leader);
        return v.leader;
    });
    if (leader.empty()) return;
    broker_.send(leader, fleet::write(fleet::Connected{who->connection_id(), who->player_id(),
                                                       hub_.member(who->player_id()).name}));
}

void FleetNode::disconnected(const ParticipantPtr& who) {
    if (dynamic_cast<RemoteParticipant*>(who.get())) return;
    const std::uint64_t id = who->connection_id();
    std::set<std::string> peers = view_.with([&](View& v) {
        std::set<std::string> out;
        v.homes.erase(id);
        if (auto it = v.peers.find(id); it != v.peers.end()) {
            out = std::move(it->second);
            v.peers.erase(it);
        }
        return out;
    });
    for (const auto& node : peers) broker_.send(node, fleet::write(fleet::Gone{id}));
}

std::shared_ptr<RemoteParticipant> FleetNode::remote_for(const std::string& home,
                                                         std::uint64_t connection,
                                                         const std::string& player,
                                                         const std::string& name) {
    std::shared_ptr<RemoteParticipant> made;
    auto existing = view_.with([&](View& v) -> std::shared_ptr<RemoteParticipant> {
        auto& slot = v.remotes[{home, connection}];
        if (slot) return slot;
        slot = made =
            std::make_shared<RemoteParticipant>(hub_.io, broker_, home, connection, player);
        return nullptr;
    });
    if (existing) return existing;
    if (!name.empty()) hub_.identity.set_name(player, name);
    // Registered like a local connection: lobby and queue events reach it (on the leader).
    hub_.register_connection(made);
    return made;
}

// ---- lists ----

void FleetNode::publish_live(const std::string& id, const json& entry) {
    view_.with([&](View& v) {
        if (entry.is_null())
            v.owners.erase(id);
        else
            v.owners[id] = me_;
    });
    broker_.broadcast(fleet::write(fleet::Live{id, me_, entry}));
}

void FleetNode::publish_lobbies(const json& list) {
    broker_.broadcast(fleet::write(fleet::Lobbies{list}));
}

void FleetNode::publish_revoked(fleet::Revoked revoked) {
    broker_.broadcast(fleet::write(revoked));
}

// ---- failures ----

void FleetNode::gap() {
    spdlog::warn("event=fleet_broker_gap node={}", me_);
    const std::set<std::string> others = view_.read([&](const View& v) {
        std::set<std::string> out;
        for (const auto& n : v.alive)
            if (n != me_) out.insert(n);
        for (const auto& [key, remote] : v.remotes) out.insert(key.first);
        for (const auto& [id, nodes] : v.peers) out.insert(nodes.begin(), nodes.end());
        return out;
    });
    for (const auto& n : others) node_dead(n);
    broker_.broadcast(fleet::write(fleet::Sync{}));
}

void FleetNode::node_dead(const std::string& node) {
    if (node == me_) return;
    std::vector<std::shared_ptr<RemoteParticipant>> remotes;
    std::vector<std::shared_ptr<Participant>> restart;
    view_.with([&](View& v) {
        v.alive.erase(node);
        if (v.leader == node) v.leader.clear();
        std::erase_if(v.owners, [&](const auto& item) { return item.second == node; });
        for (auto it = v.remotes.begin(); it != v.remotes.end();) {
            if (it->first.first == node) {
                remotes.push_back(it->second);
                it = v.remotes.erase(it);
            } else {
                ++it;
            }
        }
        for (auto it = v.peers.begin(); it != v.peers.end();) {
            if (it->second.count(node)) {
                if (auto p = v.homes[it->first].lock()) restart.push_back(std::move(p));
                v.homes.erase(it->first);
                it = v.peers.erase(it);
            } else {
                ++it;
            }
        }
    });
    spdlog::warn("event=fleet_node_gone node={} gone={} remote_connections={} restarted={}",
                 me_, node, remotes.size(), restart.size());
    for (const auto& remote : remotes) {
        ParticipantPtr who = remote;
        remote->post([this, who] { hub_.disconnect_participant(who); });
    }
    // The client reconnects (through the load balancer) and resumes from its versions.
    for (const auto& p : restart) p->restart();
}

}  // namespace server
