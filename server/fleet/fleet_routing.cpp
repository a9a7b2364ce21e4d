// Which node serves a request (docs/scaling.md, "Where a message goes"): the fleet's decorator
// around the hub's plain dispatch. A match request goes to the match's owner, a lobby or queue
// request to the leader; what this node serves itself goes on to Hub::Impl::dispatch_here.
// Everything here runs on the requesting connection's strand unless said otherwise.
#include <type_traits>

#include "server/app/hub_impl.hpp"
#include "server/fleet/fleet_node.hpp"

namespace server {

using protocol::ErrorCode;
using protocol::Ref;

namespace {

/// The match a request is about, or null for requests about no match.
const std::string* match_of(const protocol::ClientBody& body) {
    return std::visit(
        [](const auto& m) -> const std::string* {
            using M = std::decay_t<decltype(m)>;
            if constexpr (std::is_same_v<M, protocol::MatchOpen> ||
                          std::is_same_v<M, protocol::MatchClose> ||
                          std::is_same_v<M, protocol::MatchStep> ||
                          std::is_same_v<M, protocol::MatchResign> ||
                          std::is_same_v<M, protocol::MatchAbort> ||
                          std::is_same_v<M, protocol::MatchClaim> ||
                          std::is_same_v<M, protocol::MatchRematch> ||
                          std::is_same_v<M, protocol::MatchChat>)
                return &m.match;
            else
                return nullptr;
        },
        body);
}

/// A lobby or queue request: served by the leader. Everything but the connection's own
/// requests (hello, ping), the list subscriptions (the lists are on every node) and the match
/// requests.
bool for_leader(const protocol::ClientBody& body) {
    return std::visit(
        [](const auto& m) {
            using M = std::decay_t<decltype(m)>;
            return !std::is_same_v<M, protocol::Hello> && !std::is_same_v<M, protocol::Ping> &&
                   !std::is_same_v<M, protocol::LobbiesSubscribe> &&
                   !std::is_same_v<M, protocol::MatchesSubscribe>;
        },
        body) && !match_of(body);
}

bool is_remote(const ParticipantPtr& who) {
    return dynamic_cast<RemoteParticipant*>(who.get()) != nullptr;
}

}  // namespace

bool FleetNode::hold(const ParticipantPtr& from, const protocol::ClientMessage& message,
                     std::string_view text) {
    auto& state = from->hub_state();
    if (!state.routing && state.held.empty()) return false;
    // Behind a request being routed: in order, and bounded like the outgoing queue.
    if (state.held.size() >= 64)
        hub_.error(from, ErrorCode::Busy, "too many requests waiting; retry", message.ref);
    else
        state.held.emplace_back(text);
    return true;
}

bool FleetNode::route(const ParticipantPtr& from, const protocol::ClientMessage& message,
                      std::string_view text) {
    if (hub_.life.stopping) return false;  // answered here
    if (const std::string* id = match_of(message.body)) {
        // Served here when the connection has it open or this node holds it.
        if (text.empty() || hub_.handle_of(from, *id)) return false;
        route_match(from, *id, std::string(text));
        return true;
    }
    if (!for_leader(message.body) || leads()) return false;
    route_to_leader(from, text, message.ref);
    return true;
}

void FleetNode::forward(const ParticipantPtr& from, const std::string& node,
                        std::string_view text) {
    const std::uint64_t id = from->connection_id();
    view_.with([&](View& v) {
        v.homes[id] = from;
        v.peers[id].insert(node);
    });
    broker_.send(node, fleet::write(fleet::Request{id, from->player_id(),
                                                   hub_.member(from->player_id()).name,
                                                   std::string(text)}));
}

void FleetNode::route_match(const ParticipantPtr& from, const std::string& match_id,
                            std::string text) {
    const bool remote = is_remote(from);
    const std::string owner = view_.read([&](const View& v) {
        auto it = v.owners.find(match_id);
        return it != v.owners.end() && v.alive.count(it->second) ? it->second : std::string();
    });
    if (!remote && !owner.empty() && owner != me_) return forward(from, owner, text);
    // Not known to be alive elsewhere: the database says who owns it, and a match whose owner
    // is gone is claimed here. The connection's next requests wait (in order) meanwhile.
    from->hub_state().routing = true;
    resolve_route(from, match_id, std::move(text), remote, 10);
}

void FleetNode::resolve_route(const ParticipantPtr& from, const std::string& match_id,
                              std::string text, bool remote, int attempts) {
    boost::asio::post(*hub_.blocking, [this, from, match_id, text = std::move(text), remote,
                                       attempts] {
        store::Ownership seen;
        auto claim = claim_and_load(match_id, &seen);
        from->post([this, from, match_id, text, remote, attempts, claim, seen] {
            auto parsed = protocol::parse_client_message(text);
            auto* message = std::get_if<protocol::ClientMessage>(&parsed);
            if (!message) {
                from->hub_state().routing = false;
                return drain_held(from);
            }
            bool elsewhere = claim.ok() && *claim == store::Claim::OwnedElsewhere &&
                             !seen.owner.empty() && seen.owner != me_;
            const bool owner_alive =
                view_.read([&](const View& v) { return v.alive.count(seen.owner) > 0; });
            if (claim.ok() && *claim == store::Claim::NotLive && !seen.owner.empty() &&
                seen.owner != me_ && !remote)
                // Over: its owner still holds it for a while (late requests, last patches).
                elsewhere = owner_alive;
            if (elsewhere && !remote && !owner_alive && attempts > 1) {
                // Its owner is dead but its lease has not run out yet: ask again shortly (the
                // takeover follows within a lease); the connection's requests keep waiting.
                boost::asio::post(hub_.lobby_strand, [this, from, match_id, text, remote,
                                                      attempts] {
                    hub_.after(hub_.config.lease / 5, [this, from, match_id, text, remote,
                                                       attempts] {
                        resolve_route(from, match_id, text, remote, attempts - 1);
                    });
                });
                return;
            }
            from->hub_state().routing = false;
            if (elsewhere && !remote && owner_alive) {
                view_.with([&](View& v) { v.owners[match_id] = seen.owner; });
                forward(from, seen.owner, text);
            } else if (elsewhere) {
                // Sent here by a node that thought this one owned it (it looks again), or its
                // owner is gone and nobody took it over yet.
                hub_.error(from, ErrorCode::Unavailable,
                           "the match is moving to another node; retry", message->ref);
                if (auto* r = dynamic_cast<RemoteParticipant*>(from.get()))
                    broker_.send(r->home(), fleet::write(fleet::Moved{match_id}));
            } else if (!claim.ok()) {
                hub_.error(from, ErrorCode::Unavailable,
                           "the database cannot be reached; temporarily unavailable, retry",
                           message->ref);
            } else {
                // Ours now (or over, or unknown): handled here, without routing again.
                hub_.dispatch_here(from, std::move(*message));
            }
            drain_held(from);
        });
    });
}

void FleetNode::drain_held(const ParticipantPtr& from) {
    auto& state = from->hub_state();
    while (!state.routing && !state.held.empty()) {
        std::string text = std::move(state.held.front());
        state.held.erase(state.held.begin());  // at most 64, and only while a route is looked up
        if (state.held.empty()) state.held.shrink_to_fit();
        auto parsed = protocol::parse_client_message(text);
        if (auto* message = std::get_if<protocol::ClientMessage>(&parsed))
            hub_.dispatch(from, std::move(*message), text);
    }
}

void FleetNode::route_to_leader(const ParticipantPtr& from, std::string_view text,
                                const Ref& ref) {
    const std::string leader = view_.read(
        [](const View& v) { return v.alive.count(v.leader) ? v.leader : std::string(); });
    if (leader.empty() || leader == me_ || is_remote(from) || text.empty())
        return hub_.error(from, ErrorCode::Unavailable,
                          "no node holds the lobbies right now (a new one is being chosen); retry",
                          ref);
    forward(from, leader, text);
}

}  // namespace server
