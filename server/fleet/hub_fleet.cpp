// The hub as one node of a fleet (docs/scaling.md): which node serves a request, the messages
// the nodes exchange over the broker, heartbeats, the leader, leases and takeovers. On a single
// node (no FleetState) every function here does nothing.
#include <algorithm>

#include "server/app/hub_impl.hpp"
#include "server/fleet/fleet_messages.hpp"

namespace server {

using nlohmann::json;
using protocol::ErrorCode;
using protocol::Ref;

namespace {

/// How long to wait between heartbeats and between renewals, from the lease.
std::chrono::milliseconds beat_period(std::chrono::milliseconds lease) { return lease / 5; }
std::chrono::milliseconds renew_period(std::chrono::milliseconds lease) { return lease / 3; }

}  // namespace

bool Hub::Impl::leads() const {
    if (!fleet) return true;
    std::lock_guard lock(fleet->mutex);
    return fleet->leading;
}

// ---- status ----

bool Hub::stopping() const { return impl_->stopping; }

json Hub::fleet_status() const {
    const Impl& hub = *impl_;
    if (!hub.fleet) return nullptr;
    const int held = hub.registry.held_count();
    std::lock_guard lock(hub.fleet->mutex);
    return json{{"node", hub.fleet->me},
                {"leader", hub.fleet->leader},
                {"leading", hub.fleet->leading},
                {"nodes", hub.fleet->alive},
                {"matches", held},
                {"remote_connections", hub.fleet->remotes.size()}};
}

// ---- start ----

std::pair<int, int> Hub::Impl::fleet_start() {
    FleetState& f = *fleet;
    f.broker.start([this](std::string_view from, std::string payload) {
                       fleet_receive(from, std::move(payload));
                   },
                   [this] { fleet_gap(); });
    // One beat before anything is routed: who is alive, who leads (maybe this node).
    fleet_beat();
    // This node's own matches (a restart under the same id) and ones nobody owns; the
    // matches of dead nodes follow with the first renewal's takeover scan.
    auto live = repo->live_matches(f.me);
    if (!live)
        throw std::runtime_error("recovery: cannot read live matches: " + live.error().message);
    int restored = 0;
    int failed = 0;
    for (const store::StoredMatch& stored : *live) {
        auto claim = f.store.claim(stored.id);
        if (!claim || *claim != store::Claim::Claimed) continue;
        (restore_stored(stored) ? restored : failed)++;
    }
    f.broker.broadcast(fleet::write(fleet::Sync{}));
    // The beat above scheduled the next one; the renewals start here.
    boost::asio::post(lobby_strand, [this] {
        after(renew_period(config.lease), [this] {
            boost::asio::post(*blocking, [this] { fleet_renew(); });
        });
    });
    spdlog::info("event=fleet_joined node={} leader={}", f.me, leads());
    return {restored, failed};
}

// ---- heartbeat, election, leases (blocking pool) ----

void Hub::Impl::fleet_beat() {
    FleetState& f = *fleet;
    if (stopping) return;
    const bool lead = f.store.try_lead();
    const int held = registry.held_count();
    auto nodes = f.store.heartbeat(held, config.lease);
    std::vector<std::string> dead;
    bool became_leader = false;
    if (nodes) {
        std::set<std::string> now_alive;
        std::map<std::string, int> load;
        std::string leader = lead ? f.me : std::string();
        for (const store::NodeInfo& n : *nodes) {
            now_alive.insert(n.id);
            load[n.id] = n.matches;
            if (n.leader && leader.empty()) leader = n.id;
        }
        now_alive.insert(f.me);
        std::lock_guard lock(f.mutex);
        for (const auto& n : f.alive)
            if (!now_alive.count(n)) dead.push_back(n);
        f.alive = std::move(now_alive);
        f.load = std::move(load);
        became_leader = lead && !f.leading;
        if (f.leading && !lead)
            spdlog::warn("event=fleet_leadership_lost node={}", f.me);
        f.leading = lead;
        if (lead || f.leader.empty() || !f.alive.count(f.leader)) f.leader = leader;
    } else {
        spdlog::warn("event=fleet_heartbeat_failed node={} error=\"{}\"", f.me,
                     nodes.error().message);
        std::lock_guard lock(f.mutex);
        became_leader = lead && !f.leading;
        f.leading = lead;
        if (lead) f.leader = f.me;
    }
    for (const auto& n : dead) node_dead(n);
    if (became_leader) {
        spdlog::info("event=fleet_leader node={}", f.me);
        f.broker.broadcast(fleet::write(fleet::Leader{}));
        boost::asio::post(lobby_strand, [this] { publish_lobbies(); });
    }
    if (lead) {
        // The queue counts, when they changed (at most once per beat).
        json list = queues.list();
        std::string text = list.dump();
        bool changed = false;
        {
            std::lock_guard lock(f.mutex);
            changed = text != f.queues_sent || became_leader;
            if (changed) f.queues_sent = std::move(text);
        }
        if (changed) f.broker.broadcast(fleet::write(fleet::Queues{std::move(list)}));
    }
    if (stopping) return;
    boost::asio::post(lobby_strand, [this] {
        after(beat_period(config.lease), [this] {
            boost::asio::post(*blocking, [this] { fleet_beat(); });
        });
    });
}

void Hub::Impl::fleet_renew() {
    FleetState& f = *fleet;
    if (stopping) return;
    const std::vector<std::string> held = registry.held();  // not the ones placed elsewhere
    if (!held.empty()) {
        auto renewed = f.store.renew(held);
        if (renewed) {
            std::set<std::string> kept(renewed->begin(), renewed->end());
            for (const auto& id : held) {
                if (kept.count(id)) continue;
                // Not renewed: over meanwhile (then it left `seated`), or taken over by another
                // node after this one could not renew for a whole lease. Then it is not ours.
                auto lost = registry.drop(id);
                if (!lost) continue;
                spdlog::warn("event=fleet_match_lost match={} node={}", id, f.me);
                if (*lost) (*lost)->shutdown();
                std::lock_guard lock(f.mutex);
                f.owners.erase(id);
            }
        } else {
            spdlog::warn("event=fleet_renew_failed node={} error=\"{}\"", f.me,
                         renewed.error().message);
        }
    }
    // Takeover: the matches of dead nodes (and of nodes that handed them over).
    auto claimed = f.store.claim_expired(100);
    if (claimed) {
        for (const auto& id : *claimed) {
            auto stored = repo->match(id);
            if (!stored || stored->status != "live") continue;
            std::lock_guard lock(f.restore_mutex);
            if (find_match(id)) continue;
            if (restore_stored(*stored))
                spdlog::info("event=fleet_takeover match={} node={} steps={}", id, f.me,
                             stored->steps.size());
        }
    }
    if (stopping) return;
    boost::asio::post(lobby_strand, [this] {
        after(renew_period(config.lease), [this] {
            boost::asio::post(*blocking, [this] { fleet_renew(); });
        });
    });
}

store::Result<store::Claim> Hub::Impl::claim_and_load(const std::string& match_id,
                                                      store::Ownership* seen) {
    FleetState& f = *fleet;
    auto claim = f.store.claim(match_id, seen);
    if (!claim || *claim != store::Claim::Claimed) return claim;
    std::lock_guard lock(f.restore_mutex);
    if (find_match(match_id)) return claim;
    auto stored = repo->match(match_id);
    if (!stored) return stored.error();
    if (stored->status != "live") return store::Claim::NotLive;
    if (!restore_stored(*stored)) return store::Claim::NotLive;
    spdlog::info("event=fleet_claimed match={} node={} steps={}", match_id, f.me,
                 stored->steps.size());
    return claim;
}

void Hub::Impl::fleet_leave() {
    FleetState& f = *fleet;
    const std::vector<std::string> held = registry.held();  // not the ones placed elsewhere
    if (!held.empty()) {
        auto released = f.store.release(held);
        spdlog::info("event=fleet_handed_over node={} matches={} ok={}", f.me, held.size(),
                     released.ok());
    }
    f.broker.broadcast(fleet::write(fleet::Bye{}));
    f.store.resign_lead();
    (void)f.store.leave();
    f.broker.stop();
}

std::string Hub::Impl::place_match() {
    if (!fleet) return {};
    FleetState& f = *fleet;
    std::lock_guard lock(f.mutex);
    std::string best = f.me;
    int best_load = f.load.count(f.me) ? f.load[f.me] : 0;
    for (const auto& node : f.alive) {
        const int load = f.load.count(node) ? f.load[node] : 0;
        if (load < best_load) best = node, best_load = load;
    }
    ++f.load[best];  // until the next heartbeat counts it
    return best;
}

// ---- routing (connection strands) ----

void Hub::Impl::forward(const ParticipantPtr& from, const std::string& node,
                        std::string_view text) {
    FleetState& f = *fleet;
    const std::uint64_t id = from->connection_id();
    {
        std::lock_guard lock(f.mutex);
        f.homes[id] = from;
        f.peers[id].insert(node);
    }
    f.broker.send(node, fleet::write(fleet::Request{id, from->player_id(),
                                                    member(from->player_id()).name,
                                                    std::string(text)}));
}

void Hub::Impl::route_match(const ParticipantPtr& from, const std::string& match_id,
                            std::string text) {
    FleetState& f = *fleet;
    const bool remote = dynamic_cast<RemoteParticipant*>(from.get()) != nullptr;
    std::string owner;
    {
        std::lock_guard lock(f.mutex);
        if (auto it = f.owners.find(match_id); it != f.owners.end() && f.alive.count(it->second))
            owner = it->second;
    }
    if (!remote && !owner.empty() && owner != f.me) return forward(from, owner, text);
    // Not known to be alive elsewhere: the database says who owns it, and a match whose owner
    // is gone is claimed here. The connection's next requests wait (in order) meanwhile.
    from->hub_state().routing = true;
    resolve_route(from, match_id, std::move(text), remote, 10);
}

void Hub::Impl::resolve_route(const ParticipantPtr& from, const std::string& match_id,
                              std::string text, bool remote, int attempts) {
    boost::asio::post(*blocking, [this, from, match_id, text = std::move(text), remote,
                                  attempts] {
        store::Ownership seen;
        auto claim = claim_and_load(match_id, &seen);
        from->post([this, from, match_id, text, remote, attempts, claim, seen] {
            FleetState& f = *fleet;
            auto parsed = protocol::parse_client_message(text);
            auto* message = std::get_if<protocol::ClientMessage>(&parsed);
            if (!message) {
                from->hub_state().routing = false;
                return drain_held(from);
            }
            bool elsewhere = claim.ok() && *claim == store::Claim::OwnedElsewhere &&
                             !seen.owner.empty() && seen.owner != f.me;
            bool owner_alive = false;
            {
                std::lock_guard lock(f.mutex);
                owner_alive = f.alive.count(seen.owner) > 0;
            }
            if (claim.ok() && *claim == store::Claim::NotLive && !seen.owner.empty() &&
                seen.owner != f.me && !remote)
                // Over: its owner still holds it for a while (late requests, last patches).
                elsewhere = owner_alive;
            if (elsewhere && !remote && !owner_alive && attempts > 1) {
                // Its owner is dead but its lease has not run out yet: ask again shortly (the
                // takeover follows within a lease); the connection's requests keep waiting.
                boost::asio::post(lobby_strand, [this, from, match_id, text, remote, attempts] {
                    after(beat_period(config.lease), [this, from, match_id, text, remote,
                                                      attempts] {
                        resolve_route(from, match_id, text, remote, attempts - 1);
                    });
                });
                return;
            }
            from->hub_state().routing = false;
            if (elsewhere && !remote && owner_alive) {
                {
                    std::lock_guard lock(f.mutex);
                    f.owners[match_id] = seen.owner;
                }
                forward(from, seen.owner, text);
            } else if (elsewhere) {
                // Sent here by a node that thought this one owned it (it looks again), or its
                // owner is gone and nobody took it over yet.
                error(from, ErrorCode::Unavailable, "the match is moving to another node; retry",
                      message->ref);
                if (auto* r = dynamic_cast<RemoteParticipant*>(from.get()))
                    f.broker.send(r->home(), fleet::write(fleet::Moved{match_id}));
            } else if (!claim.ok()) {
                error(from, ErrorCode::Unavailable,
                      "the database cannot be reached; temporarily unavailable, retry",
                      message->ref);
            } else {
                // Ours now (or over, or unknown): handled here, without routing again.
                dispatch(from, std::move(*message), text, false);
            }
            drain_held(from);
        });
    });
}

void Hub::Impl::drain_held(const ParticipantPtr& from) {
    auto& state = from->hub_state();
    while (!state.routing && !state.held.empty()) {
        std::string text = std::move(state.held.front());
        state.held.pop_front();
        auto parsed = protocol::parse_client_message(text);
        if (auto* message = std::get_if<protocol::ClientMessage>(&parsed))
            dispatch(from, std::move(*message), text, true);
    }
}

void Hub::Impl::route_to_leader(const ParticipantPtr& from, std::string_view text,
                                const Ref& ref) {
    FleetState& f = *fleet;
    std::string leader;
    {
        std::lock_guard lock(f.mutex);
        if (f.alive.count(f.leader)) leader = f.leader;
    }
    const bool remote = dynamic_cast<RemoteParticipant*>(from.get()) != nullptr;
    if (leader.empty() || leader == f.me || remote || text.empty())
        return error(from, ErrorCode::Unavailable,
                     "no node holds the lobbies right now (a new one is being chosen); retry",
                     ref);
    forward(from, leader, text);
}

// ---- connections ----

void Hub::Impl::fleet_connected(const ParticipantPtr& who) {
    if (!fleet || dynamic_cast<RemoteParticipant*>(who.get())) return;
    FleetState& f = *fleet;
    std::string leader;
    {
        std::lock_guard lock(f.mutex);
        if (f.leading || !f.alive.count(f.leader)) return;
        leader = f.leader;
        f.homes[who->connection_id()] = who;
        f.peers[who->connection_id()].insert(leader);
    }
    f.broker.send(leader, fleet::write(fleet::Connected{who->connection_id(), who->player_id(),
                                                        member(who->player_id()).name}));
}

void Hub::Impl::fleet_disconnected(const ParticipantPtr& who) {
    if (!fleet || dynamic_cast<RemoteParticipant*>(who.get())) return;
    FleetState& f = *fleet;
    const std::uint64_t id = who->connection_id();
    std::set<std::string> peers;
    {
        std::lock_guard lock(f.mutex);
        f.homes.erase(id);
        if (auto it = f.peers.find(id); it != f.peers.end()) {
            peers = std::move(it->second);
            f.peers.erase(it);
        }
    }
    for (const auto& node : peers)
        f.broker.send(node, fleet::write(fleet::Gone{id}));
}

std::shared_ptr<RemoteParticipant> Hub::Impl::remote_for(const std::string& home,
                                                         std::uint64_t connection,
                                                         const std::string& player,
                                                         const std::string& name) {
    FleetState& f = *fleet;
    std::shared_ptr<RemoteParticipant> made;
    {
        std::lock_guard lock(f.mutex);
        auto& slot = f.remotes[{home, connection}];
        if (slot) return slot;
        slot = made = std::make_shared<RemoteParticipant>(io, f.broker, home, connection, player);
    }
    if (!name.empty()) identity.set_name(player, name);
    // Registered like a local connection: lobby and queue events reach it (on the leader).
    register_connection(made);
    return made;
}

// ---- lists ----

void Hub::Impl::fleet_publish_live(const std::string& id, const json& entry) {
    if (!fleet) return;
    FleetState& f = *fleet;
    {
        std::lock_guard lock(f.mutex);
        if (entry.is_null())
            f.owners.erase(id);
        else
            f.owners[id] = f.me;
    }
    f.broker.broadcast(fleet::write(fleet::Live{id, f.me, entry}));
}

void Hub::Impl::fleet_publish_lobbies(const json& list) {
    if (!fleet) return;
    fleet->broker.broadcast(fleet::write(fleet::Lobbies{list}));
}

void Hub::Impl::fleet_gap() {
    FleetState& f = *fleet;
    spdlog::warn("event=fleet_broker_gap node={}", f.me);
    std::set<std::string> others;
    {
        std::lock_guard lock(f.mutex);
        for (const auto& n : f.alive)
            if (n != f.me) others.insert(n);
        for (const auto& [key, remote] : f.remotes) others.insert(key.first);
        for (const auto& [id, nodes] : f.peers) others.insert(nodes.begin(), nodes.end());
    }
    for (const auto& n : others) node_dead(n);
    f.broker.broadcast(fleet::write(fleet::Sync{}));
}

void Hub::Impl::node_dead(const std::string& node) {
    FleetState& f = *fleet;
    if (node == f.me) return;
    std::vector<std::shared_ptr<RemoteParticipant>> remotes;
    std::vector<std::shared_ptr<Participant>> restart;
    {
        std::lock_guard lock(f.mutex);
        f.alive.erase(node);
        if (f.leader == node) f.leader.clear();
        std::erase_if(f.owners, [&](const auto& item) { return item.second == node; });
        for (auto it = f.remotes.begin(); it != f.remotes.end();) {
            if (it->first.first == node) {
                remotes.push_back(it->second);
                it = f.remotes.erase(it);
            } else {
                ++it;
            }
        }
        for (auto it = f.peers.begin(); it != f.peers.end();) {
            if (it->second.count(node)) {
                if (auto p = f.homes[it->first].lock()) restart.push_back(std::move(p));
                f.homes.erase(it->first);
                it = f.peers.erase(it);
            } else {
                ++it;
            }
        }
    }
    spdlog::warn("event=fleet_node_gone node={} gone={} remote_connections={} restarted={}",
                 f.me, node, remotes.size(), restart.size());
    for (const auto& remote : remotes) {
        ParticipantPtr who = remote;
        remote->post([this, who] { disconnect_participant(who); });
    }
    // The client reconnects (through the load balancer) and resumes from its versions.
    for (const auto& p : restart) p->restart();
}

}  // namespace server
